"""The `cpsudoku` command line: a thin layer over the Python API, one module per
command group (each registers its commands on the one typer `app`).

Every error a user can cause is a CpsudokuError: it becomes one line on stderr
and its own exit code (see EXIT_CODES_HELP). Results are written as soon as
each puzzle is done, so an interrupted batch keeps what it finished.
"""

from __future__ import annotations

import os
import sys

import typer

# Each module registers its commands on `app`; the import order is the order in --help.
# isort: off
from . import solving  # noqa: F401  (solve, count, check)
from . import logic  # noqa: F401  (explain, hint, rate)
from . import generate  # noqa: F401
from . import play  # noqa: F401
from . import compare  # noqa: F401
from . import bench  # noqa: F401
from . import convert  # noqa: F401
from . import catalog  # noqa: F401  (backends, variants)
# isort: on
from ..errors import ExitCode
from .app import EXIT_CODES_HELP, app

__all__ = ["EXIT_CODES_HELP", "app", "main"]


def main() -> None:
    """Entry point. User errors are handled in `_Commands`; anything else is a bug, and
    still reaches the user as one line (the traceback only with CPSUDOKU_DEBUG=1)."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("cpsudoku: interrupted", err=True)
        sys.exit(ExitCode.INTERRUPTED)
    except Exception as exc:
        if os.environ.get("CPSUDOKU_DEBUG"):
            raise
        typer.echo(f"cpsudoku: internal error: {type(exc).__name__}: {exc} "
                   f"(set CPSUDOKU_DEBUG=1 for details)", err=True)
        sys.exit(ExitCode.INTERNAL)
