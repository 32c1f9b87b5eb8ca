"""bench: a backend over the public data sets, every answer checked."""

from __future__ import annotations

from contextlib import nullcontext
from enum import Enum

import typer

from ..errors import UsageError
from .app import app, backend_name, complete_backend, completer


class Mode(str, Enum):
    api = "api"
    direct = "direct"


def _positive(value: float | None, name: str) -> None:
    if value is not None and not value > 0:
        raise UsageError(f"{name} must be more than 0, not {value:g}")


def _set_names() -> list[str]:
    from ..bench.datasets import DataError, find_data_dir, set_names
    try:
        return set_names(find_data_dir())
    except DataError:  # no data folder: nothing to offer
        return []


@app.command()
def bench(
    backend: str = typer.Option("native", "--backend", "-b", autocompletion=complete_backend,
                                help="Backend to measure."),
    sets: str | None = typer.Option(None, "--sets", metavar="NAME,...",
                                    autocompletion=completer(_set_names, listed=True),
                                    help="Comma-separated data sets (default: norvig_top95, "
                                         "norvig_hardest, forum_hardest_1106, "
                                         "magictour_top1465, royle_17clue, gecode_16x16); "
                                         "--list shows them all."),
    limit: int | None = typer.Option(None, "--limit", metavar="K",
                                     help="Only the first K puzzles of each set."),
    reference: bool = typer.Option(True, "--reference/--no-reference",
                                   help="Also run the Norvig-style reference solver."),
    time_limit: float = typer.Option(60.0, "--time-limit", "-t", metavar="SECONDS",
                                     help="Per puzzle; a puzzle that runs out counts as "
                                          "unsolved."),
    mode: Mode = typer.Option(Mode.api, "--mode",
                              help="api: time cpsudoku.api.solve per puzzle; direct: only "
                                   "the backend's search on models prepared first."),
    count: bool = typer.Option(False, "--count",
                               help="Count solutions up to 2 and check unique/multiple too."),
    data: str | None = typer.Option(None, "--data", metavar="DIR",
                                    help="Puzzle data folder (default: $CPSUDOKU_DATA, else "
                                         "../shared/data)."),
    list_sets: bool = typer.Option(False, "--list",
                                   help="List the data sets, their files and whether they "
                                        "are found, and how to get them; then exit."),
    peers: bool = typer.Option(False, "--peers",
                               help="The native C kernel, the Python engine, the reference "
                                    "and hodoku-py side by side, CPU time per puzzle."),
    iss: str | None = typer.Option(None, "--iss", metavar="PATH",
                                   help="The Interactive Sudoku Solver's example puzzles "
                                        "instead: native and cpsat beside ISS checked out at "
                                        "PATH, timed in Node (python -m cpsudoku.bench.iss "
                                        "has more options)."),
    progress: bool | None = typer.Option(None, "--progress/--no-progress",
                                         help="Show progress on stderr (default: when it "
                                              "is a terminal)."),
):
    """Benchmark a backend over the public data sets, checking every answer against the
    recorded solutions; prints a table per set. Exit status 0 when every answer was
    found and correct, 1 otherwise, 130 when interrupted (the tables printed so far
    cover what finished)."""
    from rich.console import Console
    from rich.progress import Progress

    from ..bench import datasets
    from ..bench import solve as benchmark

    if limit is not None and limit < 1:
        raise UsageError(f"--limit must be more than 0, not {limit}")
    _positive(time_limit, "--time-limit")
    if list_sets:
        typer.echo("\n".join(datasets.listing(data)))
        raise typer.Exit(0)
    if iss is not None:
        from ..bench import iss as iss_bench
        raise typer.Exit(iss_bench.run(iss, iss_bench.DEFAULT_BACKENDS, time_limit, limit=limit))
    chosen = datasets.DEFAULT_SETS if sets is None else sets
    err = Console(stderr=True)
    show = err.is_terminal if progress is None else progress
    try:
        # Not even a disabled Progress: some rich versions still end it with a newline.
        shown = Progress(console=err, transient=err.is_terminal) if show else nullcontext()
        with shown as bar:
            if peers:
                from ..bench.peers import PEER_SETS, run_peers
                reports = run_peers(PEER_SETS if sets is None else sets, limit=limit,
                                    time_limit=time_limit, data=data)
            else:
                reports = benchmark.run(chosen, backend_name(backend), limit=limit,
                                        reference=reference, time_limit=time_limit,
                                        data=data, mode=mode.value, count=count,
                                        progress=bar)
    except benchmark.BenchInterrupted as stop:
        last = stop.reports[-1]
        typer.echo(f"cpsudoku bench: interrupted in {last.name} after {last.backend.puzzles} "
                   f"puzzle(s); the tables above cover what finished", err=True)
        raise typer.Exit(130) from None
    raise typer.Exit(0 if all(r.backend.correct == r.backend.puzzles for r in reports) else 1)
