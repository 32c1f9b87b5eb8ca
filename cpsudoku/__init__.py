"""cpsudoku: a constraint-programming framework for Sudoku and its variants.

    text -> parse -> Puzzle -> build_model -> backend -> Result -> render
"""

__version__ = "0.1.0"

from .api import count, solve  # noqa: E402
from .check import conflicts, is_solution  # noqa: E402
from .errors import ArgumentError, BackendError, CpsudokuError, ModelError, ParseError, UsageError  # noqa: E402
from .geometry import Geometry, boxed, irregular  # noqa: E402
from .logic import explain, hint, rate  # noqa: E402
from .parse import parse, parse_one  # noqa: E402
from .puzzle import Puzzle  # noqa: E402
from .result import Result, Status  # noqa: E402

__all__ = [
    "ArgumentError", "BackendError", "CpsudokuError", "Generated", "Geometry", "ModelError",
    "ParseError", "Puzzle", "Result", "Status", "UsageError", "boxed", "conflicts", "count",
    "explain", "generate", "hint", "irregular", "is_solution", "parse", "parse_one", "rate",
    "solve",
]


def __getattr__(name: str):
    # The generator is imported on first use: it costs `cpsudoku --help` 0.3 s otherwise.
    if name in ("generate", "Generated"):
        from . import generator
        return getattr(generator, name)
    raise AttributeError(f"module 'cpsudoku' has no attribute {name!r}")
