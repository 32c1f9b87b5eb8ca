"""cpsudoku: a constraint-programming framework for Sudoku and its variants.

    text -> formats -> grid.Puzzle -> model -> backends -> Result -> formats.write
"""

import importlib
import importlib.machinery
import sys

from ._version import __version__
from .api import conflicts, count, is_solution, solve, solve_many
from .errors import ArgumentError, BackendError, CpsudokuError, ModelError, ParseError, UsageError
from .formats import read
from .grid.geometry import Geometry, boxed, irregular, raw_grid
from .grid.puzzle import Puzzle
from .logic import explain, hint, rate
from .result import Result, Status

parse, parse_one = read.parse, read.parse_one

__all__ = [
    "ArgumentError", "BackendError", "CpsudokuError", "Generated", "Geometry", "ModelError",
    "ParseError", "Puzzle", "Result", "Status", "UsageError", "__version__", "boxed",
    "conflicts", "count", "explain", "generate", "hint", "irregular", "is_solution", "parse",
    "parse_one", "rate", "raw_grid", "solve", "solve_many",
]

# The import paths of modules that moved into grid/ and formats/, kept for existing code:
# `import cpsudoku.constraints` is `cpsudoku.grid.constraints`, imported on first use.
_MOVED = {"check": "grid.check", "constraints": "grid.constraints",
          "geometry": "grid.geometry", "puzzle": "grid.puzzle", "symbols": "grid.symbols",
          "lzstring": "formats.lzstring", "notation": "formats.notation",
          "puzzlefile": "formats.puzzlefile", "render": "formats.write",
          "safeload": "formats.safeload", "sources": "formats.sources",
          "trace": "formats.trace"}
# `parse` is also the function above: its module is registered now, so that importing
# it never rebinds the package's `parse` to the module.
sys.modules[f"{__name__}.parse"] = read


class _MovedModules:
    """A finder and loader on sys.meta_path (importlib.abc's bases cost `import cpsudoku`
    10 ms): an old path in `_MOVED` gives the module at its new home."""

    def find_spec(self, fullname, path, target=None):
        package, _, old = fullname.rpartition(".")
        if package == __name__ and old in _MOVED:
            return importlib.machinery.ModuleSpec(fullname, self)  # type: ignore[arg-type]
        return None

    def create_module(self, spec):
        module = importlib.import_module(f"{__name__}.{_MOVED[spec.name.rpartition('.')[2]]}")
        self._spec = module.__spec__  # the import system puts the old path's spec on it
        return module

    def exec_module(self, module) -> None:
        module.__spec__ = self._spec  # it ran at its new home: keep that home's spec


sys.meta_path.append(_MovedModules())


def __getattr__(name: str):
    # The generator is imported on first use: it costs `cpsudoku --help` 0.3 s otherwise.
    if name in ("generate", "Generated"):
        from . import generator
        return getattr(generator, name)
    if name in _MOVED:
        return importlib.import_module(f"{__name__}.{_MOVED[name]}")
    raise AttributeError(f"module 'cpsudoku' has no attribute {name!r}")
