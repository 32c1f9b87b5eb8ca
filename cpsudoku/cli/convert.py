"""convert: puzzles from any notation into another (puzzle file, f-puzzles, ISS, links)."""

from __future__ import annotations

from pathlib import Path

import typer

from .app import BoxOpt, Output, PuzzlesArg, RulesOpt, SizeOpt, app, completer, load_puzzles


def _formats() -> list[str]:
    from ..formats.puzzle_out import PUZZLE_FORMATS
    return list(PUZZLE_FORMATS)


@app.command()
def convert(
    puzzles: list[str] = PuzzlesArg,
    fmt: str = typer.Option("toml", "--format", "-f", autocompletion=completer(_formats),
                            help="toml or json (the cpsudoku puzzle file), fpuzzles, link "
                                 "(f-puzzles, opened by SudokuPad too), iss or iss-link "
                                 "(Interactive Sudoku Solver), line or pretty."),
    size: int | None = SizeOpt,
    box: str | None = BoxOpt,
    rules: str | None = RulesOpt,
    output: Path | None = typer.Option(None, "--output", "-o", help="Write to this file."),
):
    """Write puzzles in another format; a format that cannot hold a rule says which."""
    from ..errors import UsageError
    from ..formats.puzzle_out import PUZZLE_FORMATS, render_puzzles

    fmt = fmt.lower()
    if fmt not in PUZZLE_FORMATS:
        from ..validate import did_you_mean
        raise UsageError(f"unknown format {fmt!r}{did_you_mean(fmt, list(PUZZLE_FORMATS))} "
                         f"(choose from: {', '.join(PUZZLE_FORMATS)})")
    loaded = load_puzzles(puzzles, size, box, rules)
    text = render_puzzles(loaded, fmt)  # everything converted before anything is written
    with Output(output, inputs=puzzles) as out:
        out.write(text)
