"""generate: unique, minimal, symmetric puzzles, classic and variant."""

from __future__ import annotations

from pathlib import Path

import typer

from .app import BoxOpt, RulesOpt, app, completer
from .batching import DaskOpt, JobsOpt, ProgressOpt, run_batch


def _symmetries() -> list[str]:
    from ..generator import SYMMETRIES
    return list(SYMMETRIES)


def _levels() -> list[str]:
    from ..logic.levels import LEVELS
    return list(LEVELS)


@app.command()
def generate(
    count: int = typer.Option(1, "--count", "-c", help="How many puzzles to make."),
    seed: int | None = typer.Option(None, "--seed", "-s",
                                    help="Random seed: the same seed and options give the "
                                         "same puzzles (default: a fresh one, recorded in "
                                         "the output)."),
    size: int = typer.Option(9, "--size", help="Grid size N, 4..25."),
    box: str | None = BoxOpt,
    symmetry: str = typer.Option("none", "--symmetry", autocompletion=completer(_symmetries),
                                 help="none, rot180, rot90, mirror, flip, diagonal, "
                                      "antidiagonal or dihedral: clues are removed with "
                                      "their symmetric partners."),
    difficulty: str | None = typer.Option(None, "--difficulty", "-d",
                                          autocompletion=completer(_levels),
                                          help="easy, medium, hard, fiendish or diabolical "
                                               "(Sudoku Explainer's bands; needs the rater)."),
    rating: str | None = typer.Option(None, "--rating", metavar="LO-HI",
                                      help="A Sudoku Explainer rating range, e.g. 2.6-6.0."),
    rules: str | None = RulesOpt,
    jigsaw: bool = typer.Option(False, "--jigsaw", help="Random connected regions."),
    killer: bool = typer.Option(False, "--killer", help="Random cages with their sums."),
    layout: str | None = typer.Option(None, "--layout",
                                      help="A multi-grid board: samurai, twodoku, butterfly, "
                                           "sohei, windmill, flower, gattai-8, shogun, sumo, "
                                           "clueless-1 or clueless-2 (written as toml)."),
    givens: int | None = typer.Option(None, "--givens",
                                      help="--killer: how many digits to give (default 0)."),
    clues: int | None = typer.Option(None, "--clues",
                                     help="Stop removing at this many clues or fewer "
                                          "(default: minimal)."),
    time_limit: float | None = typer.Option(None, "--time-limit", "-t", metavar="SECONDS",
                                            help="Seconds per puzzle (60 when aiming at "
                                                 "--clues or a rating); not met: exit 4."),
    fmt: str | None = typer.Option(None, "--format", "-f",
                                   help="line, pretty, json, jsonl, toml, fpuzzles, link or iss "
                                        "(default: line, toml for jigsaw and killer)."),
    output: Path | None = typer.Option(None, "--output", "-o",
                                       help="Write puzzles to this file as they finish."),
    jobs: int = JobsOpt,
    resume: bool = typer.Option(False, "--resume",
                                help="With --output and the run's --seed: keep the puzzles "
                                     "already there and make only the rest."),
    progress: bool | None = ProgressOpt,
    dask: str | None = DaskOpt,
):
    """Generate puzzles that have exactly one solution (or multi-grid boards, --layout).

    Each is minimal for its symmetry (no clue, or symmetric set of clues, can go
    without losing uniqueness) unless --clues stops earlier. Ctrl-C keeps the
    puzzles already written.
    """
    from ..batch.generating import GenerateTask
    from ..errors import UsageError
    from ..generator import core
    from ..generator import output as out_fmt

    if count < 1:
        raise UsageError(f"--count must be at least 1, not {count}")
    opts = core.options(size=size, box=box, symmetry=symmetry, difficulty=difficulty,
                        rating=rating, rules=rules or (), jigsaw=jigsaw, killer=killer,
                        givens=givens, clues=clues, time_limit=time_limit, layout=layout)
    variant = jigsaw or killer or layout is not None
    fmt = (fmt or ("toml" if variant else "line")).lower()
    out_fmt.check_format(fmt, variant, board=layout is not None)
    if seed is None:
        if resume:
            raise UsageError("--resume needs the --seed of the run it continues")
        seed = core.fresh_seed()
    task = GenerateTask(fmt, opts, seed, many=count > 1)
    raise typer.Exit(run_batch(range(count), task, inputs=[], output=output, resume=resume,
                               jobs=jobs, dask=dask, progress=progress, total=count))
