"""compare: every puzzle on several backends, side by side."""

from __future__ import annotations

from pathlib import Path

import typer

from ..errors import ExitCode
from .app import BoxOpt, PresolveOpt, PuzzlesArg, RulesOpt, SizeOpt, app, check_limits, load_puzzles


@app.command()
def compare(
    puzzles: list[str] = PuzzlesArg,
    backends: str = typer.Option("all", "--backends", metavar="NAME,...|all",
                                 help="Backends to run, comma-separated, or all."),
    time_limit: float | None = typer.Option(10.0, "--time-limit", "-t", metavar="SECONDS",
                                               help="Per puzzle and backend."),
    max_solutions: int = typer.Option(2, "--max-solutions", "-n",
                                      help="Solutions to look for (2 checks uniqueness)."),
    presolve: bool = PresolveOpt,
    size: int | None = SizeOpt,
    box: str | None = BoxOpt,
    rules: str | None = RulesOpt,
    csv_path: Path | None = typer.Option(None, "--csv", help="Write per-puzzle rows here."),
    json_path: Path | None = typer.Option(None, "--json", help="Write per-puzzle rows here."),
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
    chosen = registry.parse_list(backends)
    for name in chosen:
        registry.get(name)  # unavailable backends fail here, before any work
    loaded = load_puzzles(puzzles, size, box, rules)
    console = Console(stderr=True)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("solving", total=len(loaded) * len(chosen))
        report = comparing.run_compare(loaded, chosen, time_limit=time_limit,
                                       max_solutions=max_solutions, presolve=presolve,
                                       progress=lambda n=1: progress.advance(task, n))
    # Written before anything can fail below, so the rows are never lost.
    if csv_path:
        comparing.write_csv(report, csv_path)
    if json_path:
        comparing.write_json(report, json_path)
    # Rich assumes 80 columns when writing to a file or pipe; a report kept for later
    # should not lose its widest numbers to that.
    out = Console()
    if not out.is_terminal:
        out = Console(width=120)
    comparing.print_report(report, out)
    if plot_path:
        comparing.plot(report, plot_path)
    if report.interrupted:
        typer.echo(f"cpsudoku: interrupted after {report.puzzles} puzzle(s); the report "
                   f"covers those", err=True)
        raise typer.Exit(130)
    raise typer.Exit(ExitCode.DISAGREEMENT if report.disagreements else ExitCode.OK)
