"""compare: every puzzle on several backends, side by side."""

from __future__ import annotations

from pathlib import Path

import typer

from ..errors import CpsudokuError, ExitCode, UsageError
from .app import (
    BoxOpt,
    PresolveOpt,
    PuzzlesArg,
    RulesOpt,
    SizeOpt,
    app,
    backend_list,
    box_shape,
    check_limits,
    complete_backend_list,
    report_console,
    stop_on_sigterm,
)
from .batching import DaskOpt, ProgressOpt, entries


def default_backends() -> list[str]:
    """Every installed backend but naive; the ones left out are named on stderr."""
    from .. import backends as registry
    installed = registry.installed()
    chosen = [name for name in installed if name != "naive"]
    left = [f"{name} (not installed: {registry.load(name).install_command()})"
            for name in registry.names() if name not in installed]
    if "naive" in installed:
        left.insert(0, "naive (plain backtracking: up to the time limit a hard puzzle; "
                       "--backends all runs it)")
    if left:
        typer.echo("compare: left out: " + "; ".join(left), err=True)
    return chosen


@app.command()
def compare(
    puzzles: list[str] = PuzzlesArg,
    backends: str | None = typer.Option(
        None, "--backends", metavar="NAME,...|all", autocompletion=complete_backend_list,
        help="Backends to run, comma-separated, or all. Default: every installed backend "
             "but naive (it takes up to the time limit on hard puzzles); the ones left out "
             "are named on stderr."),
    time_limit: float | None = typer.Option(10.0, "--time-limit", "-t", metavar="SECONDS",
                                               help="Per puzzle and backend."),
    max_solutions: int = typer.Option(2, "--max-solutions", "-n",
                                      help="Solutions to look for (2 checks uniqueness)."),
    presolve: bool = PresolveOpt,
    size: int | None = SizeOpt,
    box: str | None = BoxOpt,
    rules: str | None = RulesOpt,
    csv_path: Path | None = typer.Option(None, "--csv", help="Write per-puzzle rows here, "
                                         "each as its puzzle finishes."),
    json_path: Path | None = typer.Option(None, "--json", help="Write per-puzzle rows here, "
                                          "each as its puzzle finishes, then the summary."),
    plot_path: Path | None = typer.Option(None, "--plot", metavar="FILE.png",
                                             help="Draw the time distribution per backend "
                                                  "(needs matplotlib)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=0, metavar="N",
                             help="Worker processes, each running a puzzle on every "
                                  "backend (0: every core); rows stay in input order. "
                                  "Workers share the cores: times are steadier with 1."),
    resume: bool = typer.Option(False, "--resume",
                                help="With --csv: keep the whole puzzles already in that "
                                     "file, drop a torn end, and compare only the puzzles "
                                     "after them (with the same backends and options)."),
    progress: bool = ProgressOpt,
    dask: str | None = DaskOpt,
):
    """Run every puzzle on every selected backend; report times and any disagreement."""
    from .. import backends as registry
    from .. import compare as comparing
    from ..batch import BatchOptions
    from ..batch.progress import Progress, estimate_total, wanted
    from ..batch.tasks import PuzzleTask

    check_limits(max_solutions, time_limit)
    chosen = default_backends() if backends is None else backend_list(backends)
    for name in chosen:
        registry.get(name)  # unavailable backends fail here, before any work
    if plot_path:
        comparing.require_plotting(plot_path)  # not after a long run
    shape = box_shape(size, box)
    items = entries(puzzles, size, shape)  # read lazily, parsed in the workers
    runs = [run for run, _, _ in comparing.run_names(chosen, presolve)]
    settings = {"backends": runs, "time_limit": time_limit, "max_solutions": max_solutions,
                "presolve": presolve}
    kept: list = []
    if resume:
        if csv_path is None:
            raise UsageError("--resume needs --csv FILE (the rows to continue)")
        kept = comparing.kept_rows(csv_path, runs)
    # Rows are written as each puzzle finishes: SIGTERM (turned into the same orderly
    # stop as Ctrl-C) and even SIGKILL leave every finished row in the files.
    files = comparing.RowFiles(settings, csv_path=csv_path, json_path=json_path, kept=kept,
                               resume=resume)
    bar = Progress(estimate_total(puzzles), done=kept[-1].index if kept else 0,
                   enabled=wanted(progress))
    report = None
    try:
        with stop_on_sigterm() as stopped:
            report = comparing.run_compare(
                items, chosen, time_limit=time_limit, max_solutions=max_solutions,
                presolve=presolve, progress=bar.step, on_rows=files.add,
                on_error=lambda message: typer.echo(f"cpsudoku: error: {message}", err=True),
                options=BatchOptions(jobs=jobs, dask=dask), size=size, box=shape,
                rules=rules, kept=kept)
    finally:
        bar.close()
        files.close(report)
    # A puzzle not read (5) or a worker that died (70) outranks a disagreement (7).
    failed = PuzzleTask().exit_code({code for _, _, code in report.errors}, set())
    if not report.rows and not report.interrupted:
        if failed:  # nothing compared: the messages above say why
            raise typer.Exit(failed)
        raise CpsudokuError("no puzzle found in " + ", ".join(puzzles))
    comparing.print_report(report, report_console())
    if plot_path:
        comparing.plot(report, plot_path, input_name=", ".join(puzzles))
    if report.interrupted:
        what = "terminated" if stopped.signal else "interrupted"
        typer.echo(f"cpsudoku: {what} after {report.puzzles} puzzle(s); the report "
                   f"covers those", err=True)
        raise typer.Exit(128 + (stopped.signal or 2))
    raise typer.Exit(failed or (ExitCode.DISAGREEMENT if report.disagreements
                                else ExitCode.OK))
