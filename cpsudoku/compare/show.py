"""A comparison shown: the summary and per-puzzle tables (rich), and the plot."""

from __future__ import annotations

from pathlib import Path

from ..errors import CpsudokuError
from ..result import Status
from .report import Report


def summary_table(report: Report):
    from rich import box
    from rich.table import Table

    title = f"{report.puzzles} puzzle(s), max {report.max_solutions} solution(s)"
    if report.time_limit:
        title += f", time limit {report.time_limit:g} s"
    cells = [[s.backend, str(s.solved), str(s.unsolvable), str(s.timeouts), _ms(s.mean_ms),
              _ms(s.median_ms), _ms(s.p95_ms), _ms(s.max_ms),
              "-" if s.mean_nodes is None else f"{s.mean_nodes:.0f}"]
             for s in report.summaries]
    headers = ["backend", "solved", "no sol", "t/o", "mean", "median", "p95", "max", "nodes"]
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  caption="ms per puzzle; solved = answered in full; no sol = proven "
                          "unsolvable; t/o = time ran out first (status timeout, or "
                          "unproven: a solution found, uniqueness not proven); nodes = "
                          "mean per puzzle")
    for i, header in enumerate(headers):
        width = _widest([header] + [row[i] for row in cells])
        # A long run name ("python-constraint+presolve") folds before a number does.
        table.add_column(header, justify="left" if i == 0 else "right",
                         min_width=min(width, 17) if i == 0 else width, overflow="fold")
    for row in cells:
        table.add_row(*row)
    return table


def rows_table(report: Report):
    """One row per puzzle and run; sources and full solutions are in the CSV and JSON."""
    from rich import box
    from rich.table import Table

    cells = [[str(r.index), r.backend, r.status, _ms(r.time_s * 1000),
              "-" if r.nodes is None else str(r.nodes), r.solution or "-"]
             for r in report.rows]
    headers = ["#", "backend", "status", "ms", "nodes", "solution"]
    table = Table(title="per puzzle", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for i, header in enumerate(headers[:-1]):
        width = _widest([header] + [row[i] for row in cells])
        table.add_column(header, justify="right" if i in (0, 3, 4) else "left",
                         min_width=min(width, 17) if i == 1 else width, overflow="fold")
    table.add_column("solution", no_wrap=True, overflow="ellipsis", min_width=8, max_width=40)
    for row in cells:
        table.add_row(*row)
    return table


def _ms(value: float) -> str:
    return f"{value:.1f}" if value < 100 else f"{value:.0f}"


def _widest(texts) -> int:
    return max((len(t) for t in texts), default=1)


def print_report(report: Report, console, *, rows: bool | None = None) -> None:
    """The summary table, the per-puzzle table (by default for up to 10 puzzles),
    the disagreements and the timeouts."""
    if rows is None:
        rows = report.puzzles <= 10
    if rows:
        console.print(rows_table(report))
    console.print(summary_table(report))
    if report.presolve:
        console.print("[dim]NAME+presolve: the same backend after the native propagation "
                      "reduced the candidates.[/dim]")
    if report.disagreements:
        console.print(f"[bold red]{len(report.disagreements)} disagreement(s):[/bold red]")
        for d in report.disagreements:
            where = f"puzzle {d.index}" + (f" ({d.source})" if d.source else "")
            console.print(f"  {where}: [red]{d.kind}[/red]: {d.message}", highlight=False)
    else:
        console.print("[green]no disagreement[/green]")
    if report.timeouts:
        shown = ", ".join(f"{run} on puzzle {i}" for i, run in report.timeouts[:10])
        more = f" and {len(report.timeouts) - 10} more" if len(report.timeouts) > 10 else ""
        console.print(f"time ran out (not disagreements; counted under t/o): {shown}{more}",
                      highlight=False)


def require_plotting(path) -> None:
    """Fail before a run whose plot could not be drawn or saved: matplotlib missing, or
    no folder to save it in."""
    try:
        import matplotlib.figure  # noqa: F401
    except ImportError:
        raise CpsudokuError("plotting needs matplotlib: pip install matplotlib "
                            "(or pip install cpsudoku[plot])") from None
    folder = Path(path).parent
    if not folder.is_dir():
        raise CpsudokuError(f"--plot {path}: the folder {folder} does not exist")


def plot(report: Report, path, *, input_name: str = ""):
    """Solve times per run (log scale), saved to `path` at 150 dpi: a box per run, every
    puzzle as a point on small sets, and runs that ran out of time shown as censored
    (their true time is at least the one drawn) beside a line at the time limit."""
    require_plotting(path)
    import random

    from matplotlib.figure import Figure

    runs = report.runs
    by_run = [[r for r in report.rows if r.backend == run] for run in runs]
    fig = Figure(figsize=(max(5.0, 1.6 * len(runs)), 4.8), layout="constrained")
    ax = fig.add_subplot()
    times = [[r.time_s * 1000 for r in rows] or [float("nan")] for rows in by_run]
    ax.boxplot(times, showfliers=len(report.rows) > 50 * len(runs))
    jitter = random.Random(0)  # the same picture for the same rows
    censored_label = "time ran out (censored: at least this long)"
    for i, rows in enumerate(by_run, 1):
        finished = [r.time_s * 1000 for r in rows if not Status(r.status).ran_out_of_time]
        censored = [r.time_s * 1000 for r in rows if Status(r.status).ran_out_of_time]
        if len(rows) <= 50:  # few enough to show every puzzle
            ax.scatter([i + jitter.uniform(-0.15, 0.15) for _ in finished], finished, s=12,
                       alpha=0.6, color="tab:blue", zorder=3)
        if censored:
            ax.scatter([i + jitter.uniform(-0.15, 0.15) for _ in censored], censored, s=40,
                       marker="^", color="tab:red", zorder=4, label=censored_label)
            censored_label = "_nolegend_"
    if report.time_limit:
        ax.axhline(report.time_limit * 1000, color="tab:red", linestyle="--", linewidth=1,
                   label=f"time limit {report.time_limit:g} s")
    ax.set_xticks(range(1, len(runs) + 1), runs, rotation=20, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel("time per puzzle (ms, log scale)")
    ax.grid(True, which="major", axis="y", alpha=0.4)
    ax.grid(True, which="minor", axis="y", alpha=0.15)
    limit = f"time limit {report.time_limit:g} s" if report.time_limit else "no time limit"
    title = f"{report.puzzles} puzzle(s), {limit}, max {report.max_solutions} solution(s)"
    ax.set_title(f"{input_name}\n{title}" if input_name else title, fontsize=10)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="best", fontsize=8)
    try:
        fig.savefig(path, dpi=150)
    except (OSError, ValueError) as exc:
        raise CpsudokuError(f"cannot write the plot to {path}: {exc}") from None
    return fig
