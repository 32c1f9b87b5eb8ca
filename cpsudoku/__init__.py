"""cpsudoku: a constraint-programming framework for Sudoku and its variants.

    text -> formats -> grid.Puzzle -> model -> backends -> Result -> formats.write
"""

import sys

from . import formats, grid
from ._version import __version__
from .api import conflicts, count, is_solution, solve
from .errors import ArgumentError, BackendError, CpsudokuError, ModelError, ParseError, UsageError
from .formats import lzstring, notation, puzzlefile, read, safeload, sources, trace, write
from .grid import check, constraints, geometry, puzzle, symbols
from .grid.geometry import Geometry, boxed, irregular
from .grid.puzzle import Puzzle
from .logic import explain, hint, rate
from .result import Result, Status

parse, parse_one = read.parse, read.parse_one

__all__ = [
    "ArgumentError", "BackendError", "CpsudokuError", "Generated", "Geometry", "ModelError",
    "ParseError", "Puzzle", "Result", "Status", "UsageError", "__version__", "boxed",
    "conflicts", "count", "explain", "formats", "generate", "grid", "hint", "irregular",
    "is_solution", "parse", "parse_one", "rate", "solve",
]

# The import paths of modules that moved into grid/ and formats/, kept for existing code:
# `import cpsudoku.constraints` is `cpsudoku.grid.constraints`.
for _old, _module in {"check": check, "constraints": constraints, "geometry": geometry,
                      "puzzle": puzzle, "symbols": symbols, "lzstring": lzstring,
                      "notation": notation, "parse": read, "puzzlefile": puzzlefile,
                      "render": write, "safeload": safeload, "sources": sources,
                      "trace": trace}.items():
    sys.modules[f"{__name__}.{_old}"] = _module
del _old, _module


def __getattr__(name: str):
    # The generator is imported on first use: it costs `cpsudoku --help` 0.3 s otherwise.
    if name in ("generate", "Generated"):
        from . import generator
        return getattr(generator, name)
    raise AttributeError(f"module 'cpsudoku' has no attribute {name!r}")
