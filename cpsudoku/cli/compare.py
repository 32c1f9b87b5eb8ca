"""compare: every puzzle on several backends, side by side."""

from __future__ import annotations

from pathlib import Path

import typer

from ..errors import ExitCode
from .app import (
    BoxOpt,
    PresolveOpt,
    PuzzlesArg,
    RulesOpt,
    SizeOpt,
    app,
    backend_list,
    check_limits,
    load_puzzles,
    report_console,
    stop_on_sigterm,
)


@app.command()
def compare(
    puzzles: list[str] = PuzzlesArg,
    backends: str = typer.Option("all", "--backends", metavar="NAME,...|all",
                                 help="Backends to run, comma-separated, or all. naive "
                                      "takes up to the time limit on hard puzzles."),
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
):
    """Run every puzzle on every selected backend; report times and any disagreement."""
    from rich.console import Console
    from rich.progress import Progress

    from .. import backends as registry
    from .. import compare as comparing

    check_limits(max_solutions, time_limit)
    chosen = backend_list(backends)
    for name in chosen:
        registry.get(name)  # unavailable backends fail here, before any work
    loaded = load_puzzles(puzzles, size, box, rules)
    settings = {"backends": [run for run, _, _ in comparing.run_names(chosen, presolve)],
                "time_limit": time_limit, "max_solutions": max_solutions,
                "presolve": presolve}
    # Rows are written as each puzzle finishes: SIGTERM (turned into the same orderly
    # stop as Ctrl-C) and even SIGKILL leave every finished row in the files.
    files = comparing.RowFiles(settings, csv_path=csv_path, json_path=json_path)
    report = None
    console = Console(stderr=True)
    try:
        with stop_on_sigterm() as stopped, \
                Progress(console=console, transient=True) as progress:
            task = progress.add_task("solving", total=len(loaded) * len(chosen))
            report = comparing.run_compare(loaded, chosen, time_limit=time_limit,
                                           max_solutions=max_solutions, presolve=presolve,
                                           progress=lambda n=1: progress.advance(task, n),
                                           on_rows=files.add)
    finally:
        files.close(report)
    comparing.print_report(report, report_console())
    if plot_path:
        comparing.plot(report, plot_path, input_name=", ".join(puzzles))
    if report.interrupted:
        what = "terminated" if stopped.signal else "interrupted"
        typer.echo(f"cpsudoku: {what} after {report.puzzles} puzzle(s); the report "
                   f"covers those", err=True)
        raise typer.Exit(128 + (stopped.signal or 2))
    raise typer.Exit(ExitCode.DISAGREEMENT if report.disagreements else ExitCode.OK)
