"""What every batching command shares: the batch options, and the one loop that runs a
batch task over the input and writes its records (to stdout or a resumable file)."""

from __future__ import annotations

import itertools
import signal
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import typer

from ..errors import CpsudokuError, ExitCode, UsageError
from ..formats.write import JsonStream
from .app import Output, refuse_overwriting

JobsOpt = typer.Option(1, "--jobs", "-j", min=0, metavar="N",
                       help="Worker processes (0: every core); the output is the same as "
                            "with 1, in input order.")
ResumeOpt = typer.Option(False, "--resume",
                         help="With --output: keep the whole records already there, drop "
                              "a torn last line, and do only the puzzles not yet done.")
ProgressOpt = typer.Option(None, "--progress/--no-progress",
                           help="Show puzzles done, puzzles a second and time left on "
                                "stderr (default: when stderr is a terminal).")
DaskOpt = typer.Option(None, "--dask", metavar="ADDRESS",
                       help="Run on a Dask cluster: a scheduler address "
                            "(tcp://host:8786) or local:N for N local workers.")



class Terminated(BaseException):
    """SIGTERM arrived: stop as Ctrl-C does, keeping every record written. Not an
    Exception, so that no `except Exception` on the way (a task's own guard against
    its bugs) takes it for an item's failure."""


def run_batch(items: Iterable | Callable[[int], Iterable], task, *, inputs: list[str],
              output: Path | None, resume: bool, jobs: int, dask: str | None, progress: bool | None,
              total: int | None = None) -> int:
    """Run `task` over `items` and write each record as soon as it is in order; the
    exit status the batch asks for. Bad items are named on stderr as they come.

    `task` is a frozen dataclass with `fmt`, `color`, `header` (None: no header line),
    `prepare()` and `exit_code(codes, statuses)` besides the batch `Task` protocol; it
    may set `stops_at_failure` (the batch ends at an item with a message) and
    `resumable` (its formats of one record a line); `total` is the
    item count when known (else it is estimated from the input files' lines). `items`
    may be a reader that skips the records already done itself: items(done)."""
    from ..batch import BatchOptions, run
    from ..batch.progress import Progress, estimate_total, wanted
    from ..batch.resume import RESUMABLE, records_done

    header = getattr(task, "header", None)
    refuse_overwriting(output, inputs)  # before --resume reads it or anything is written
    done = 0
    if resume:
        if output is None:
            raise UsageError("--resume needs --output FILE (the file to continue)")
        done = records_done(output, task.fmt, header,
                            getattr(task, "resumable", RESUMABLE))
    task.prepare()  # a bad backend or option: one error before any work, in this process
    options = BatchOptions(jobs=jobs, dask=dask)
    bar = Progress(total if total is not None else estimate_total(inputs), done=done,
                   enabled=wanted(progress))
    codes: set[int] = set()
    statuses: set[str] = set()
    out = Output(output, append=resume, inputs=inputs)
    out.line_records = task.fmt in getattr(task, "resumable", RESUMABLE)
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        with out:
            # Workers cannot see the terminal: styles are decided here, once.
            task = replace(task, color=out.color)
            # The header goes out with the first record: a batch that fails at once
            # writes nothing.
            if header is None or (resume and output and output.stat().st_size):
                header = ""
            # json: one object for one puzzle, an array for several (never resumed).
            stream = JsonStream(out.raw) if task.fmt == "json" else None
            try:
                # closing(): an interruption stops the workers at once, not at collection.
                skips = callable(items)
                work = items(done) if callable(items) else items
                with closing(run(work, task, options, start=done, skip=not skips)) as records:
                    for record in records:
                        if record.message and getattr(task, "stops_at_failure", False):
                            raise _stopped(record)
                        if header:
                            out.write(header)
                            header = ""
                        if record.text and stream is not None:
                            stream.add(record.text)
                            out.written += record.count
                        elif record.text:
                            out.write(record.text, record.count)
                        codes.update(record.codes)
                        statuses.update(record.statuses)
                        for message in record.messages:
                            typer.echo(f"cpsudoku: error: {message}", err=True)
                        bar.step(record.count)
            finally:
                if stream is not None:
                    stream.close()
    except CpsudokuError:
        bar.close()
        raise
    except KeyboardInterrupt:
        bar.close()
        typer.echo(f"cpsudoku: interrupted; the {out.written} result(s) finished before "
                   f"are written to {out.where}", err=True)
        raise typer.Exit(ExitCode.INTERRUPTED) from None
    except Terminated:
        bar.close()
        typer.echo("cpsudoku: terminated", err=True)
        raise typer.Exit(ExitCode.TERMINATED) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
    bar.close()
    if bar.done == 0:
        raise CpsudokuError("no puzzle found in " + ", ".join(inputs))
    return task.exit_code(codes, statuses)


def entries(puzzles: list[str], size: int | None,
            box: tuple[int, int] | None) -> Iterator:
    """The input, read lazily: one entry per puzzle, parsed in the worker. A source
    that cannot be read at all (a broken JSON document, say) is one error, as a
    missing file is; a bad line among good ones is a record of its own."""
    from ..formats.sources import check_arg, iter_entries
    for arg in puzzles:
        check_arg(arg)  # now, before any output is opened
    return _readable(itertools.chain.from_iterable(
        iter_entries(arg, size=size, box=box) for arg in puzzles))


def _readable(entries: Iterator) -> Iterator:
    for entry in entries:
        if entry.line is None and entry.puzzle is None:
            raise CpsudokuError(entry.error or f"{entry.source}: unreadable")
        yield entry


def _stopped(record) -> CpsudokuError:
    """A task that stops at its first failure (one error line, its exit status); what
    was written before it stays."""
    error = CpsudokuError(record.message)
    error.exit_code = record.code
    return error


def _terminate(signum, frame):
    raise Terminated
