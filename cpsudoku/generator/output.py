"""Generated puzzles written out: one-line grids, drawn grids, JSON records, the
cpsudoku TOML puzzle file, f-puzzles JSON and its `?load=` link, the Interactive Sudoku
Solver's constraint string. Every format here reads back through the one shared parser."""

from __future__ import annotations

import json
from typing import Any

from .. import rules as R
from ..errors import UsageError
from ..formats.lzstring import compress_to_base64
from ..grid.constraints import AllDifferent
from ..grid.puzzle import Puzzle
from .core import Generated

FORMATS = ("line", "pretty", "json", "jsonl", "toml", "fpuzzles", "link", "iss")
FPUZZLES_URL = "https://www.f-puzzles.com/?load="
# Global rules that f-puzzles has a switch for (its names).
_FP_FLAGS = {"diagonal": ("diagonal+", "diagonal-"), "diagonal+": ("diagonal+",),
             "diagonal-": ("diagonal-",), "anti-knight": ("antiknight",),
             "anti-king": ("antiking",), "disjoint-groups": ("disjointgroups",),
             "non-consecutive": ("nonconsecutive",)}


def has_layout(puzzle: Puzzle) -> bool:
    """Whether the puzzle needs more than a grid line to be read back (regions,
    cages): then only the puzzle-file formats carry it whole."""
    return puzzle.geometry.box is None or any(
        isinstance(rule, R.element.ElementRule) for rule in puzzle.rules)


def check_format(fmt: str, variant: bool) -> None:
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}; choose from: {', '.join(FORMATS)}")
    if variant and fmt == "line":
        raise UsageError("a one-line grid cannot hold jigsaw regions or killer cages; "
                         "use --format toml, fpuzzles, link, iss, pretty, json or jsonl")


def named(made: Generated) -> Puzzle:
    """The puzzle with its seed in its name and its solution recorded."""
    from dataclasses import replace
    meta = dict(made.puzzle.meta, solution=made.solution)
    return replace(made.puzzle, name=f"generated seed {made.seed} #{made.index + 1}", meta=meta)


def fpuzzles(puzzle: Puzzle, solution=None) -> dict[str, Any]:
    """The puzzle as an f-puzzles JSON object (givens, regions, killer cages, the
    global rules f-puzzles has a switch for, other all-different rules as extra
    regions)."""
    n, geometry = puzzle.size, puzzle.geometry
    grid = []
    for r in range(n):
        row = []
        for c in range(n):
            cell: dict[str, Any] = {}
            v = puzzle.givens[r * n + c]
            if v:
                cell.update(value=v, given=True)
            if geometry.box is None:
                cell["region"] = geometry.region_of[r * n + c]
            row.append(cell)
        grid.append(row)
    out: dict[str, Any] = {"size": n, "title": puzzle.name or "", "grid": grid}

    def names(cells) -> list[str]:
        return [f"R{c // n + 1}C{c % n + 1}" for c in cells]

    for rule in puzzle.rules:
        if isinstance(rule, R.Killer):
            out["killercage"] = [{"cells": names(cells), "value": clue}
                                 for cells, clue in rule.outlines(geometry)]
        elif rule.name in _FP_FLAGS:
            out.update((flag, True) for flag in _FP_FLAGS[rule.name])
        else:
            groups = list(rule.constraints(geometry))
            if not groups or not all(isinstance(g, AllDifferent) for g in groups):
                raise UsageError(f"rule {rule.name} has no f-puzzles form")
            out.setdefault("extraregion", []).extend({"cells": names(g.cells)} for g in groups)
    if solution is not None:
        out["solution"] = list(solution)
    return out


def link(puzzle: Puzzle, solution=None) -> str:
    """An f-puzzles link that opens the puzzle (also read by SudokuPad and cpsudoku)."""
    return FPUZZLES_URL + compress_to_base64(json.dumps(fpuzzles(puzzle, solution),
                                                        separators=(",", ":")))


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
    from ..formats.puzzlefile import dumps
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
        if has_layout(puzzle) or puzzle.rules:
            record["link"] = link(puzzle)
        return json.dumps(record, indent=2 if fmt == "json" else None)
    if fmt == "toml":
        text = dumps(puzzle)
        return toml_item(text) + "\n" if many else text
    if fmt == "fpuzzles":
        return json.dumps(fpuzzles(puzzle, made.solution))
    if fmt == "link":
        return link(puzzle)
    if fmt == "iss":  # the Interactive Sudoku Solver's constraint string, one line
        from ..formats import iss
        return iss.dumps(puzzle)
    raise UsageError(f"unknown format {fmt!r}; choose from: {', '.join(FORMATS)}")
