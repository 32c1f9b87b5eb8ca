"""generate: unique, minimal, symmetric puzzles, classic and variant."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from .app import BoxOpt, Output, RulesOpt, app


@app.command()
def generate(
    count: int = typer.Option(1, "--count", "-n", help="How many puzzles to make."),
    seed: int | None = typer.Option(None, "--seed", "-s",
                                    help="Random seed: the same seed and options give the "
                                         "same puzzles (default: a fresh one, recorded in "
                                         "the output)."),
    size: int = typer.Option(9, "--size", help="Grid size N, 4..25."),
    box: str | None = BoxOpt,
    symmetry: str = typer.Option("none", "--symmetry",
                                 help="none, rot180, rot90, mirror, flip, diagonal, "
                                      "antidiagonal or dihedral: clues are removed with "
                                      "their symmetric partners."),
    difficulty: str | None = typer.Option(None, "--difficulty", "-d",
                                          help="easy, medium, hard, fiendish or diabolical "
                                               "(Sudoku Explainer's bands; needs the rater)."),
    rating: str | None = typer.Option(None, "--rating", metavar="LO-HI",
                                      help="A Sudoku Explainer rating range, e.g. 2.6-6.0."),
    rules: str | None = RulesOpt,
    jigsaw: bool = typer.Option(False, "--jigsaw", help="Random connected regions."),
    killer: bool = typer.Option(False, "--killer", help="Random cages with their sums."),
    givens: int | None = typer.Option(None, "--givens",
                                      help="--killer: how many digits to give (default 0)."),
    clues: int | None = typer.Option(None, "--clues",
                                     help="Stop removing at this many clues or fewer "
                                          "(default: minimal)."),
    time_limit: float | None = typer.Option(None, "--time-limit", "-t", metavar="SECONDS",
                                            help="Seconds per puzzle (60 when aiming at "
                                                 "--clues or a rating); not met: exit 4."),
    fmt: str | None = typer.Option(None, "--format", "-f",
                                   help="line, pretty, json, jsonl, toml, fpuzzles or link "
                                        "(default: line, toml for jigsaw and killer)."),
    output: Path | None = typer.Option(None, "--output", "-o",
                                       help="Write puzzles to this file as they finish."),
    progress: bool | None = typer.Option(None, "--progress/--no-progress",
                                         help="A progress bar on stderr (default: when "
                                              "stderr is a terminal and -n > 1)."),
):
    """Generate puzzles that have exactly one solution.

    Each is minimal for its symmetry (no clue, or symmetric set of clues, can go
    without losing uniqueness) unless --clues stops earlier. Ctrl-C keeps the
    puzzles already written.
    """
    import sys

    from ..errors import UsageError
    from ..generator import core
    from ..generator import output as out_fmt

    if count < 1:
        raise UsageError(f"--count must be at least 1, not {count}")
    opts = core.options(size=size, box=box, symmetry=symmetry, difficulty=difficulty,
                        rating=rating, rules=rules or (), jigsaw=jigsaw, killer=killer,
                        givens=givens, clues=clues, time_limit=time_limit)
    variant = jigsaw or killer
    fmt = (fmt or ("toml" if variant else "line")).lower()
    out_fmt.check_format(fmt, variant)
    if seed is None:
        seed = core.fresh_seed()
    if progress is None:
        progress = count > 1 and sys.stderr.isatty()
    done = 0
    with Output(output) as out, _bar(progress, count) as advance:
        # Written with the first puzzle, so that a run that fails at once writes nothing.
        header = out_fmt.header(seed, opts.describe()) + "\n" if fmt in ("line", "pretty") \
            else ""
        try:
            for index in range(count):
                made = core.make(opts, seed, index)
                out.write((header if index == 0 else "") + out_fmt.render(made, fmt,
                                                                          many=count > 1))
                done += 1
                advance()
        except KeyboardInterrupt:
            typer.echo(f"cpsudoku: interrupted after {done} of {count} puzzle(s); "
                       f"those are written", err=True)
            raise typer.Exit(130) from None


class _bar:
    """A rich progress bar on stderr, or nothing."""

    def __init__(self, show: bool, total: int):
        self.show, self.total = show, total
        self.progress: Any = None

    def __enter__(self):
        if not self.show:
            return lambda: None
        from rich.console import Console
        from rich.progress import Progress
        self.progress = Progress(console=Console(stderr=True), transient=True)
        self.progress.__enter__()
        task = self.progress.add_task("generating", total=self.total)
        return lambda: self.progress.advance(task)

    def __exit__(self, *exc):
        if self.progress is not None:
            self.progress.__exit__(*exc)
