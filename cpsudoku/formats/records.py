"""cpsudoku's own json/jsonl records read back: the puzzle a record carries, or why it
carries none.

Every command that writes a puzzle into its machine output writes it the same way
(`write.puzzle_fields`): `puzzle`, the givens as one line, and for a variant the keys of
the puzzle file's JSON form beside it (size, box or regions, rules, cages ...). So a
record is read as a puzzle file whose grid is its `puzzle` field; its other scalar fields
(source, seed, status, note ...) become the puzzle's metadata, and its solution(s) the
puzzle's known solution, never its givens. Records of commands that carry no puzzle (an
explain step, a hint, a compare report) are refused, naming what they are.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from ..errors import ModelError
from ..grid.puzzle import Puzzle
from ..grid.symbols import value_of
from . import boards
from .families import KEYS as FAMILY_KEYS
from .fields import ELEMENT_KEYS, PUZZLE_KEYS, read_digits, read_size

# The puzzle file's keys a record may carry besides its `puzzle` line: every key of the
# puzzle file but its grid and solution, which the record carries its own way.
_SHAPE_KEYS = (*(key for key in PUZZLE_KEYS if key not in ("grid", "solution")),
               *ELEMENT_KEYS, *FAMILY_KEYS)

# What a record is, told by the fields only that command writes (first match wins), and
# what to pipe instead when it carries no puzzle.
_ITSELF = "pipe the puzzle itself"
_KINDS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("an explain step record", ("technique", "placements"),
     f"{_ITSELF}, or `explain -f json` (one record a puzzle, with its puzzle)"),
    ("a hint record", ("step", "wrong"), f"{_ITSELF}, or `solve -f jsonl`"),
    ("a compare report", ("settings", "rows"), f"{_ITSELF}: compare's rows name no givens"),
    ("a compare row", ("backend", "solution"), f"{_ITSELF}: compare's rows name no givens"),
    ("an explain record", ("steps",), _ITSELF),
    ("a rate record", ("er",), _ITSELF),
    ("a refused puzzle's record", ("status", "error"), _ITSELF),
    ("a check record", ("valid", "conflicts"), f"{_ITSELF}, or `check -f jsonl`"),
    ("a generate record", ("seed", "clues"), _ITSELF),
    ("a solve or count record", ("status", "solutions"), f"{_ITSELF}, or `solve -f jsonl`"),
)


def kind(data: dict) -> str | None:
    """What cpsudoku record `data` is ("a generate record" ...), or None for an object
    that is no record (a puzzle file, an f-puzzles object: they name their `grid`)."""
    found = _kind(data)
    return found[0] if found else None


def _kind(data: dict) -> tuple[str, tuple[str, ...], str] | None:
    carries = isinstance(data.get("puzzle"), str)
    if "grid" in data and not carries:
        return None
    for entry in _KINDS:
        if all(key in data for key in entry[1]):
            return entry
    return ("a record", ("puzzle",), _ITSELF) if carries else None


def puzzle_form(data: dict, source: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A record as the puzzle file's JSON form and the metadata to keep, or None when
    `data` is no record. A record without a puzzle is a ModelError saying what it is."""
    found = _kind(data)
    if found is None:
        return None
    what, fields, advice = found
    puzzle = data.get("puzzle")
    if not isinstance(puzzle, str) or not puzzle.strip():
        raise ModelError(f"{source}: {what} ({', '.join(fields)}) carries no puzzle: "
                         f"{advice}")
    form = {key: data[key] for key in _SHAPE_KEYS if data.get(key) is not None}
    if "grids" in form and not boards.origins_like(form["grids"]):
        del form["grids"]  # `solve -f json`'s solution grids, not a board's sub-grids
    form["grid"] = puzzle
    board = boards.board_geometry(form) if boards.is_board(form) else None
    if board is None and "size" not in form and math.isqrt(len(puzzle)) ** 2 == len(puzzle):
        form["size"] = math.isqrt(len(puzzle))  # a plain record: the line's length says
    meta: dict[str, Any] = {key: value for key, value in data.items()
            if key not in form and key not in ("puzzle", "solution", "solutions")
            and (value is None or isinstance(value, (str, int, float, bool)))}
    meta["record"] = what
    solutions = data.get("solutions")
    if solutions is not None and board is not None:  # a board's lines, `-` outside
        meta["solutions"] = tuple(boards.board_givens(text, board) for text in
                                  _listed_lines(solutions, source))
        if len(solutions) == 1:
            form["solution"] = solutions[0]
    elif solutions is not None:  # solve, count: what check validates, never the givens
        meta["solutions"] = _grid_lines(solutions, form.get("size", 9), form.get("digits"),
                                        source, houses=form.get("houses") is not False)
        if len(solutions) == 1:
            form["solution"] = solutions[0]
    elif data.get("solution") is not None:  # generate: the puzzle's known solution
        form["solution"] = data["solution"]
    return form, meta


def filled_grids(puzzle: Puzzle) -> list[Puzzle]:
    """What `check` validates for a puzzle read: a solve or count record's solutions,
    each with the puzzle's geometry and rules and the puzzle in `meta["puzzle"]` (its
    givens must be kept), or else the puzzle itself."""
    solutions = puzzle.meta.get("solutions")
    if not solutions:
        return [puzzle]
    return [replace(puzzle, givens=values, meta={**puzzle.meta, "puzzle": puzzle})
            for values in solutions]


def _listed_lines(lines, source: str) -> list[str]:
    if not isinstance(lines, list) or not all(isinstance(s, str) and s for s in lines):
        raise ModelError(f"{source}: a record's 'solutions' must be a list of grid lines, "
                         f"not {lines!r}")
    return lines


def _grid_lines(lines, size: int | str, spec, source: str,
                houses: bool = True) -> tuple[tuple[int, ...], ...]:
    """A record's solution lines as values, read with the puzzle's digits (`spec`, the
    record's `digits` key: 0 is a digit when they start at 0; a raw grid, `houses`
    false, may have fewer digits than a row has cells)."""
    _listed_lines(lines, source)
    try:
        rows, cols = read_size(size)
        found = read_digits(spec, max(rows, cols), houses)
    except ModelError as exc:
        raise ModelError(f"{source}: {exc}") from None
    out = []
    for text in lines:
        values = tuple(value_of(ch, found[0]) for ch in text)
        if len(values) != rows * cols or any(v is None or v > len(found) for v in values):
            raise ModelError(f"{source}: solution {text!r} is no {rows}x{cols} grid line")
        out.append(tuple(v or 0 for v in values))
    return tuple(out)
