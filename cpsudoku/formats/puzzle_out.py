"""One puzzle written in any format that holds a puzzle (not a solve's result): the
cpsudoku puzzle file (TOML or its JSON form), f-puzzles JSON and link, the Interactive
Sudoku Solver's string and link, a one-line grid, a drawn grid. Each reads back through
the shared parser; a format that cannot hold a puzzle's rules refuses it by name."""

from __future__ import annotations

import json

from ..errors import ModelError, UsageError
from ..grid.puzzle import Puzzle

PUZZLE_FORMATS = ("toml", "json", "fpuzzles", "link", "iss", "iss-link", "line", "pretty")


def has_layout(puzzle: Puzzle) -> bool:
    """Whether the puzzle needs more than a grid line to be read back (regions, cages,
    lines ...: global rules are named again with --rules)."""
    from ..rules.element import ElementRule
    return puzzle.geometry.box is None or any(isinstance(r, ElementRule) for r in puzzle.rules)


def render_puzzle(puzzle: Puzzle, fmt: str, solution=None) -> str:
    """`puzzle` in `fmt` (see PUZZLE_FORMATS); `solution` is recorded where the format
    has room for it (the puzzle file, f-puzzles)."""
    if solution is None:
        solution = puzzle.meta.get("solution")
    if fmt in ("toml", "json"):
        from dataclasses import replace

        from .puzzlefile import as_dict, dumps
        if solution is not None:
            puzzle = replace(puzzle, meta={**puzzle.meta, "solution": tuple(solution)})
        return dumps(puzzle) if fmt == "toml" else json.dumps(as_dict(puzzle), indent=2)
    if fmt == "fpuzzles":
        from .fpuzzles_write import to_fpuzzles
        return json.dumps(to_fpuzzles(puzzle, solution))
    if fmt == "link":
        from .fpuzzles_write import link
        return link(puzzle)
    if fmt in ("iss", "iss-link"):
        from . import iss
        return iss.dumps(puzzle) if fmt == "iss" else iss.link(puzzle)
    if fmt == "line":
        standard = puzzle.geometry.standard  # a line names no digits
        if has_layout(puzzle) or not standard or puzzle.geometry.extra:
            others = "toml, json, fpuzzles, link or iss" if standard else \
                "toml or json" if puzzle.geometry.grids else "toml, json or iss"
            raise ModelError(f"{puzzle.label()}: a one-line grid cannot hold its regions, "
                             f"digits or elements; use {others}")
        return puzzle.line()
    if fmt == "pretty":
        from .write import outlines, pretty
        drawn = outlines(puzzle)
        return pretty(puzzle.givens, puzzle.geometry) + ("\n" + drawn if drawn else "")
    raise UsageError(f"unknown format {fmt!r}; choose from: {', '.join(PUZZLE_FORMATS)}")


def toml_item(text: str) -> str:
    """A TOML puzzle document as one `[[puzzles]]` entry of a many-puzzle file."""
    out = ["[[puzzles]]"]
    for line in text.splitlines():
        if line.startswith("[["):
            line = "[[puzzles." + line[2:]
        elif line.startswith("["):
            line = "[puzzles." + line[1:]
        out.append(line)
    return "\n".join(out)


def render_puzzles(puzzles: list[Puzzle], fmt: str) -> str:
    """Several puzzles in one document of `fmt` that reads back as all of them: TOML
    `[[puzzles]]` entries, a JSON list, one puzzle a line (f-puzzles objects, links,
    ISS strings, grid lines), drawn grids between blank lines."""
    if len(puzzles) == 1:
        return render_puzzle(puzzles[0], fmt)
    if fmt == "toml":
        return "\n".join(toml_item(render_puzzle(p, fmt)) for p in puzzles)
    if fmt == "json":
        from .puzzlefile import as_dict
        return json.dumps([as_dict(p) for p in puzzles], indent=2)
    return ("\n\n" if fmt == "pretty" else "\n").join(render_puzzle(p, fmt) for p in puzzles)
