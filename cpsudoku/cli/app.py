"""The typer application and what its commands share: options, loading, output.

Every error a user can cause is a CpsudokuError: it becomes one line on stderr
and its own exit code (see EXIT_CODES_HELP). Results are written as soon as
each puzzle is done, so an interrupted batch keeps what it finished.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Any, TextIO

import typer
from typer.core import TyperGroup

from ..errors import CpsudokuError, ExitCode, OutputError, UsageError

EXIT_CODES_HELP = (
    "Exit status: 0 every puzzle solved (count: every puzzle unique; check: no conflict); "
    "1 count found a puzzle with several solutions, check found conflicts, or hint "
    "found wrong entries; "
    "2 bad command-line usage; 3 a puzzle has no solution; 4 time limit reached; "
    "5 bad input (malformed grid, wrong size, missing file, invalid variant element); "
    "6 unknown or unavailable backend, or an option it cannot honour; "
    "7 compare: backends disagree; 8 the output cannot be written (disk full, "
    "permission denied; what was written before is kept whole); 9 explain, hint: no "
    "technique applies to the rest, rate: a puzzle beyond the scale; 70 internal error, or "
    "a batch item whose worker process died; 130 interrupted (Ctrl-C); 141 the reader "
    "of the output went away; 143 stopped by SIGTERM."
)



class _Commands(TyperGroup):
    """Turns any user error raised by a command into one stderr line and its exit code."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except CpsudokuError as exc:
            typer.echo(f"cpsudoku: error: {exc}", err=True)
            raise typer.Exit(exc.exit_code) from None
        except BrokenPipeError:
            quiet_closed_pipe()
            # A reader that went away (`cpsudoku solve big.txt | head`): the shell's code
            # for a process ended by SIGPIPE, and no message, as other tools do.
            raise typer.Exit(ExitCode.CLOSED_PIPE) from None
        except KeyboardInterrupt:
            typer.echo("cpsudoku: interrupted", err=True)
            raise typer.Exit(ExitCode.INTERRUPTED) from None

    def format_commands(self, ctx, formatter):
        """Each command's first sentence whole, wrapped to the terminal, where click
        would cut it at the column with '...'."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=300)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def main(self, args=None, prog_name=None, complete_var=None,  # type: ignore[override]
             standalone_mode=True, **extra):
        """click's usage errors as one line too (`cpsudoku: error: ...`, exit 2), the
        same on every typer version (some draw them as several-line panels)."""
        import importlib
        # typer 0.2x raises from its own copy of click (typer._click) even where click
        # itself is installed too (other packages bring it): catch whichever exist.
        click_errors: list[Any] = []
        for module in ("typer._click", "click"):
            try:
                click_errors.append(importlib.import_module(module).ClickException)
            except ImportError:
                pass
        ClickException: Any = tuple(click_errors)
        try:
            code = super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                                standalone_mode=False, **extra)
        except ClickException as exc:
            error: Any = exc
            if not standalone_mode:
                raise
            if type(error).__name__ == "NoArgsIsHelpError":  # `cpsudoku` alone: the help
                error.show()
                sys.exit(error.exit_code)
            where = f" (see '{error.ctx.command_path} --help')" if getattr(error, "ctx", None) \
                else ""
            typer.echo(f"cpsudoku: error: {error.format_message()}{where}", err=True)
            sys.exit(error.exit_code)
        except typer.Abort:
            if not standalone_mode:
                raise
            typer.echo("cpsudoku: interrupted", err=True)
            sys.exit(ExitCode.INTERRUPTED)
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


def quiet_closed_pipe() -> None:
    """Point stdout at /dev/null, so that flushing it at exit raises nothing more."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # not a real file (a test runner's capture)
        pass
    finally:
        os.close(devnull)


app = typer.Typer(
    cls=_Commands,
    name="cpsudoku",
    help="Constraint-programming Sudoku solver with interchangeable backends "
         "(native, naive, python-constraint, cpsat, sat, mip, choco, dlx) and variant rules; "
         "explains, rates and generates puzzles, and serves a page to play them.",
    epilog=EXIT_CODES_HELP,
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _show_version(value: bool) -> None:
    if value:
        from .._version import __version__
        typer.echo(f"cpsudoku {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", is_eager=True,
                                       callback=_show_version,
                                       help="Print the version and exit.")) -> None:
    """Constraint-programming Sudoku solver with interchangeable backends (native, naive,
    python-constraint, cpsat) and variant rules."""


class Format(str, Enum):
    pretty = "pretty"
    line = "line"
    numbers = "numbers"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"  # batch commands: a header, one row per puzzle


def backend_name(name: str) -> str:
    """A backend name as registered, in any letter case, with "did you mean" on a typo."""
    from .. import backends as registry
    return registry.canonical(name)


def backend_list(text: str) -> list[str]:
    """`--backends native,cpsat` or `all`, each name as `backend_name` matches it."""
    from .. import backends as registry
    return registry.parse_list(text)


def completer(choices, *, listed: bool = False, alone: tuple[str, ...] = ()):
    """A shell-completion function offering `choices()` (read when completing, so no
    module is imported before then). `listed`: the value is a comma-separated list and
    the last name is completed; `alone`: choices only valid as the whole value (all)."""
    def complete(incomplete: str) -> list[str]:
        done, _, last = incomplete.rpartition(",") if listed else ("", "", incomplete)
        prefix = done + "," if done else ""
        offered = list(choices()) + ([] if done else list(alone))
        return [prefix + name for name in offered if name.lower().startswith(last.lower())]
    return complete


def _backend_names() -> list[str]:
    from .. import backends as registry
    return registry.names()


def _rule_names() -> list[str]:
    from .. import rules
    return rules.names()


complete_backend = completer(_backend_names)
complete_backend_list = completer(_backend_names, listed=True, alone=("all",))
complete_rules = completer(_rule_names, listed=True)


# Options shared by several commands.
PuzzlesArg = typer.Argument(..., metavar="PUZZLE...",
                            help="Files (one or many puzzles each), '-' for standard input, "
                                 "or a grid given inline.")
BackendOpt = typer.Option("native", "--backend", "-b", autocompletion=complete_backend,
                          help="native (default), naive, python-constraint, cpsat, sat, mip, "
                               "choco or dlx (see `cpsudoku backends`; any letter case).")
TimeLimitOpt = typer.Option(None, "--time-limit", "-t", metavar="SECONDS",
                            help="Give up on a puzzle after this many seconds (status timeout).")
SizeOpt = typer.Option(None, "--size", help="Grid size N (default: inferred from the cell count).")
BoxOpt = typer.Option(None, "--box", metavar="RxC", help="Box shape, e.g. 2x3 (default: inferred).")
RulesOpt = typer.Option(None, "--rules", metavar="RULE,...", autocompletion=complete_rules,
                        help="Variant rules to add, e.g. diagonal,anti-knight "
                             "(see `cpsudoku variants`).")
PresolveOpt = typer.Option(False, "--presolve/--no-presolve",
                           help="Run native propagation first and hand the reduced domains "
                                "to the backend.")
WorkersOpt = typer.Option(None, "--workers", min=1, max=64,
                          help="cpsat only: number of search workers (default 1; counting "
                               "always uses 1).")
OutputOpt = typer.Option(None, "--output", "-o",
                         help="Write results to this file as they finish (plain text, "
                              "no terminal styles).")
OptionOpt = typer.Option(None, "--option", "-O", metavar="KEY=VALUE",
                         help="A backend-specific setting, e.g. -O hidden_singles=false "
                              "(python-constraint); repeatable.")


def load_puzzles(puzzles: list[str], size: int | None, box: str | None,
          rules: str | None) -> list:
    """Every puzzle named on the command line, through the one shared parser."""
    from ..formats.sources import read_puzzles
    shape = box_shape(size, box)
    loaded = []
    for arg in puzzles:
        loaded.extend(read_puzzles(arg, size=size, box=shape))
    if not loaded:
        raise CpsudokuError("no puzzle found in " + ", ".join(puzzles))
    if rules:
        from ..rules import by_names
        extra = by_names(rules)
        loaded = [p.with_rules(extra) for p in loaded]
    return loaded


def box_shape(size: int | None, box: str | None) -> tuple[int, int] | None:
    """--size checked and --box parsed, as every command reading puzzles takes them."""
    if size is not None and not 1 <= size <= 25:
        raise UsageError(f"--size {size} is outside 1..25")
    if box is None:
        return None
    from ..validate import parse_box
    return parse_box(box)


def backend_options(workers: int | None, pairs: list[str] | None = None) -> dict:
    """Backend options from --workers and -O KEY=VALUE (numbers and booleans converted)."""
    options: dict = {}
    for pair in pairs or ():
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option {pair!r} is not of the form KEY=VALUE")
        value: object = raw.strip()
        if raw.strip().lower() in ("true", "false"):
            value = raw.strip().lower() == "true"
        else:
            for kind in (int, float):
                try:
                    value = kind(raw)
                    break
                except ValueError:
                    pass
        options[key.strip().replace("-", "_")] = value
    if workers is not None:
        options["workers"] = workers
    return options


def check_limits(max_solutions: int, time_limit: float | None) -> None:
    if max_solutions < 1:
        raise UsageError(f"--max-solutions (-n) must be at least 1, not {max_solutions}")
    check_time_limit(time_limit)


def check_time_limit(time_limit: float | None) -> float | None:
    """--time-limit: None, or more than 0 and at most a week of seconds."""
    if time_limit is not None and not 0 < time_limit <= 7 * 24 * 3600:
        raise UsageError(f"--time-limit must be a positive number of seconds, at most a week "
                         f"(604800), not {time_limit:g}")
    return time_limit


def refuse_overwriting(output: Path | None, inputs: Sequence[str]) -> None:
    """Refuse an output file that is one of the inputs (by name, through a link, or as a
    second name of the same file; `-` is standard input), before anything is opened for
    writing: writing would empty the user's puzzles before they are read."""
    if output is None:
        return
    try:
        written = os.stat(output)
    except (OSError, ValueError):  # not there yet (or no valid name): it is no input
        return
    for arg in inputs:
        try:
            read = os.fstat(sys.stdin.fileno()) if arg == "-" else os.stat(arg)
        except (OSError, ValueError, AttributeError):  # an inline grid, or no real stdin
            continue
        if (read.st_dev, read.st_ino) == (written.st_dev, written.st_ino):
            what = "standard input" if arg == "-" else f"the input {arg}"
            raise UsageError(f"--output {output} is {what}: writing it would destroy the "
                             f"puzzles; choose another file")


# The signals that stop a batch, held back while a record is written (where they can be).
_STOPPING = {signal.SIGINT, signal.SIGTERM} if hasattr(signal, "pthread_sigmask") else set()


class Output:
    """stdout, or a file written record by record so an interrupted batch keeps its
    results. `inputs`: the command's puzzle arguments, which the file may never be.

    A file is written through its descriptor, unbuffered: each record reaches the file
    whole or not at all. When a write fails (a full disk) or is interrupted by a signal,
    the file is cut back to the end of the last whole record, so `--resume` and any
    reader see only whole records, and the error names the file and the cause."""

    def __init__(self, path: Path | None, append: bool = False,
                 inputs: Sequence[str] = ()):
        refuse_overwriting(path, list(inputs))
        self.path, self.append = path, append  # append: resuming a batch into the file
        self.stream: TextIO = sys.stdout
        self.fd: int | None = None  # the file's descriptor (None: standard output)
        self.end = 0  # where the last whole record of the file ends
        self.written = 0  # results written, for the message when interrupted
        # one record a line (jsonl, csv): a text of many records that fails part way
        # keeps its whole lines
        self.line_records = False

    def __enter__(self):
        if self.path is not None:
            flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if self.append else os.O_TRUNC)
            try:
                self.fd = os.open(self.path, flags, 0o666)
                self.end = os.fstat(self.fd).st_size
            except (OSError, ValueError) as exc:
                raise OutputError(f"cannot write {self.path}: "
                                  f"{getattr(exc, 'strerror', None) or exc}") from None
        return self

    def write(self, text: str, records: int = 0) -> None:
        self.raw(text if text.endswith("\n") else text + "\n", records)

    def raw(self, text: str, records: int = 0) -> None:
        """Write text as it is (no newline added), at once; `records`: the results it
        holds, counted in `written` once it is out."""
        if self.fd is None:
            try:
                self.stream.write(text)
                self.stream.flush()
            except BrokenPipeError:
                raise
            except OSError as exc:
                raise OutputError(f"cannot write standard output: {exc.strerror}") from None
            self.written += records
            return
        encoded = text.encode("utf-8")
        data = memoryview(encoded)
        # Ctrl-C and SIGTERM wait until the text is written and counted: records that
        # went out whole (a block of them at once) are never cut back.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING) if _STOPPING else None
        try:
            try:
                while data:
                    data = data[os.write(self.fd, data):]
            except BaseException as exc:
                if self.line_records:  # the whole lines of records that went out stay
                    whole = encoded.rfind(b"\n", 0, len(encoded) - len(data)) + 1
                    self.end += whole
                    self.written += encoded.count(b"\n", 0, whole)
                try:
                    os.ftruncate(self.fd, self.end)  # no torn record is left behind
                except OSError:  # not a regular file (a device, a pipe): nothing to cut
                    pass
                if isinstance(exc, OSError):
                    raise OutputError(f"cannot write {self.path}: {exc.strerror}; the "
                                      f"{self.written} result(s) before are kept "
                                      f"whole") from None
                raise
            self.end += len(encoded)
            self.written += records
        finally:
            if held is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)

    @property
    def color(self) -> bool:
        """Styles for a terminal only (and not under NO_COLOR): files stay plain text."""
        if self.fd is not None:
            return False
        isatty = getattr(self.stream, "isatty", None)
        return bool(isatty and isatty()) and not os.environ.get("NO_COLOR")

    @property
    def where(self) -> str:
        return str(self.path) if self.path is not None else "standard output"

    def __exit__(self, *exc):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def report_console():
    """A rich Console for tables on stdout: the terminal's own width on a terminal
    (tables fold or drop columns to fit); a fixed 120 columns for files and pipes,
    where rich would otherwise assume 80 and fold numbers kept for later."""
    from rich.console import Console
    out = Console()
    return out if out.is_terminal else Console(width=120)


class _Stopped:
    signal: int | None = None


@contextmanager
def stop_on_sigterm():
    """Within the block SIGTERM stops work as Ctrl-C does (KeyboardInterrupt), so that
    a batch keeps and writes what it finished; `.signal` says whether it came."""
    import signal
    stopped = _Stopped()

    def handler(signum, frame):
        stopped.signal = signum
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: leave signals alone
        yield stopped
        return
    try:
        yield stopped
    finally:
        signal.signal(signal.SIGTERM, previous)
