"""Generated puzzles written out: one-line grids, drawn grids, JSON records, the
cpsudoku TOML puzzle file, f-puzzles JSON and its `?load=` link, the Interactive Sudoku
Solver's constraint string. Every format here reads back through the one shared parser."""

from __future__ import annotations

import json

from ..errors import UsageError
from ..formats.fpuzzles_write import link
from ..formats.puzzle_out import has_layout, render_puzzle, toml_item
from ..grid.puzzle import Puzzle
from .core import Generated

FORMATS = ("line", "pretty", "json", "jsonl", "toml", "fpuzzles", "link", "iss")


def check_format(fmt: str, variant: bool, board: bool = False) -> None:
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}; choose from: {', '.join(FORMATS)}")
    if board and fmt in ("line", "fpuzzles", "link", "iss"):
        raise UsageError(f"--format {fmt} cannot hold a multi-grid board; use --format "
                         f"toml, pretty, json or jsonl")
    if variant and fmt == "line":
        raise UsageError("a one-line grid cannot hold jigsaw regions or killer cages; "
                         "use --format toml, fpuzzles, link, iss, pretty, json or jsonl")


def named(made: Generated) -> Puzzle:
    """The puzzle with its seed in its name and its solution recorded."""
    from dataclasses import replace
    meta = dict(made.puzzle.meta, solution=made.solution)
    return replace(made.puzzle, name=f"generated seed {made.seed} #{made.index + 1}", meta=meta)


def header(seed: int, options: dict) -> str:
    """A comment line recording how to make the same puzzles again."""
    parts = [f"seed={seed}"] + [f"{k}={_flat(v)}" for k, v in options.items()]
    return "# cpsudoku generate " + " ".join(parts)


def _flat(value) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value).lower() if isinstance(value, bool) else str(value)


def render(made: Generated, fmt: str, many: bool = False) -> str:
    """One generated puzzle in `fmt` (see FORMATS). `many`: part of a multi-puzzle
    output (TOML entries become `[[puzzles]]` items)."""
    from ..formats.write import outlines, pretty, puzzle_fields
    puzzle = named(made)
    if fmt == "line":
        return puzzle.line()
    if fmt == "pretty":
        note = f"# puzzle {made.index + 1}: seed {made.seed}, {made.clues} clues"
        if made.rating is not None:
            note += f", rated {made.rating:.1f}"
        drawn = outlines(puzzle)
        return note + "\n" + pretty(puzzle.givens, puzzle.geometry) + (
            "\n" + drawn if drawn else "") + "\n"
    if fmt in ("json", "jsonl"):
        # A variant's layout and elements as structured fields, read back by any command.
        record = {**made.as_dict(), **puzzle_fields(puzzle)}
        if (has_layout(puzzle) or puzzle.rules) and not puzzle.geometry.grids:
            record["link"] = link(puzzle)
        return json.dumps(record, indent=2 if fmt == "json" else None)
    if fmt == "toml" and many:
        return toml_item(render_puzzle(puzzle, "toml")) + "\n"
    if fmt in ("toml", "fpuzzles", "link", "iss"):
        return render_puzzle(puzzle, fmt, made.solution)
    raise UsageError(f"unknown format {fmt!r}; choose from: {', '.join(FORMATS)}")
