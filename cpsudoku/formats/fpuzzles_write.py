"""A puzzle written as an f-puzzles JSON object and as its `?load=` link (LZString
base64), the reverse of `fpuzzles.from_fpuzzles`: every rule f-puzzles has a key or a
switch for; a rule it cannot draw is refused by name, never left out."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .. import rules as R
from ..errors import ModelError
from ..grid.constraints import AllDifferent
from ..grid.geometry import Geometry
from ..grid.puzzle import Puzzle
from .fpuzzles import default_region, fpuzzles_lines
from .fpuzzles_elements import WRITERS as ELEMENT_WRITERS
from .fpuzzles_elements import fp_name
from .lzstring import compress_to_base64

FPUZZLES_URL = "https://www.f-puzzles.com/?load="

# Global rules that f-puzzles has a switch for (its names).
FLAGS = {"diagonal": ("diagonal+", "diagonal-"), "diagonal+": ("diagonal+",),
         "diagonal-": ("diagonal-",), "anti-knight": ("antiknight",),
         "anti-king": ("antiking",), "disjoint-groups": ("disjointgroups",),
         "non-consecutive": ("nonconsecutive",)}


def _names(refs) -> list[str]:
    return [fp_name(r) for r in refs]


def _killer(rule: R.Killer, geometry: Geometry, out: dict) -> None:
    n = geometry.size
    for cells, clue in rule.outlines(geometry):
        entry: dict[str, Any] = {"cells": [f"R{c // n + 1}C{c % n + 1}" for c in cells]}
        if clue:
            entry["value"] = clue
        out.setdefault("killercage", []).append(entry)
    if any(not cage.distinct for cage in rule.elements):
        raise ModelError("a killer cage whose digits may repeat has no f-puzzles form")
    if any(cage.weights is not None for cage in rule.elements):
        raise ModelError("a killer cage with weights has no f-puzzles form")


def _little_killer(rule: R.LittleKiller, geometry: Geometry, out: dict) -> None:
    for clue in rule.elements:
        entry: dict[str, Any] = {"value": str(clue.total),
                                 "cells": _names(clue.diagonal(geometry.size))}
        if clue.at is not None:
            entry.update(cell=fp_name(clue.at), direction=clue.direction)
        out.setdefault("littlekillersum", []).append(entry)


def _thermometers(rule: R.Thermometers, geometry: Geometry, out: dict) -> None:
    out.setdefault("thermometer", []).extend({"lines": [_names(t)]} for t in rule.elements)


def _arrows(rule: R.Arrows, geometry: Geometry, out: dict) -> None:
    from ..rules import cells as C
    entries: dict[tuple, dict] = {}
    for arrow in rule.elements:
        if len(arrow.lines) != 1:
            # f-puzzles reads each line of a circle as an arrow of its own
            raise ModelError(f"{R.describe(rule)}: f-puzzles has no form for one sum over "
                             f"several lines from a circle (each of its lines is an arrow "
                             f"of its own); give each line its own arrow")
        # f-puzzles' lines start inside the circle, at the circle cell they leave from.
        line = arrow.lines[0]
        start = next(c for c in arrow.circle if C.king_adjacent(c, line[0]))
        # arrows from one circle are one entry with several lines, as f-puzzles draws them
        entry = entries.setdefault(arrow.circle, {"cells": _names(arrow.circle), "lines": []})
        entry["lines"].append(_names((start, *line)))
    out.setdefault("arrow", []).extend(entries.values())


def _parity(rule: R.Parity, geometry: Geometry, out: dict) -> None:
    for kind, ref in rule.elements:
        out.setdefault(kind, []).append({"cell": fp_name(ref)})


def _marks(rule: R.Kropki | R.XV, geometry: Geometry, out: dict) -> None:
    keys = {"white": "difference", "black": "ratio", "X": "xv", "V": "xv"}
    for mark in rule.elements:
        entry: dict[str, Any] = {"cells": _names(mark.cells)}
        if mark.kind in ("X", "V"):
            entry["value"] = mark.kind
        elif mark.value is not None:
            entry["value"] = str(mark.value)
        out.setdefault(keys[mark.kind], []).append(entry)
    if isinstance(rule, R.Kropki):
        if "white" in rule.negative:
            out["nonconsecutive"] = True  # read back as the white dots' negative rule
        if "black" in rule.negative:
            out.setdefault("negative", []).append("ratio")
    elif rule.negative:
        if set(rule.negative) != {"x", "v"}:
            raise ModelError("XV's negative rule for one of X and V only has no "
                             "f-puzzles form (its negative covers both)")
        out.setdefault("negative", []).append("xv")


def _extra_regions(rule: R.ExtraRegions, geometry: Geometry, out: dict) -> None:
    out.setdefault("extraregion", []).extend({"cells": _names(r)} for r in rule.elements)


def _dutch_whispers(rule, geometry: Geometry, out: dict) -> None:
    # f-puzzles' whispers carry their difference: Dutch ones are whispers of 4 (on 9x9)
    out.setdefault("whispers", []).extend(
        {"lines": [_names(line.cells)], "value": str(rule.value_of(line, geometry))}
        for line in rule.elements)


WRITERS: dict[type, Callable[[Any, Geometry, dict], None]] = {
    R.linerules.DutchWhispers: _dutch_whispers,
    R.Killer: _killer, R.LittleKiller: _little_killer, R.Thermometers: _thermometers,
    R.Arrows: _arrows, R.Parity: _parity, R.Kropki: _marks, R.XV: _marks,
    R.ExtraRegions: _extra_regions, **ELEMENT_WRITERS,
}


def to_fpuzzles(puzzle: Puzzle, solution=None) -> dict[str, Any]:
    """The puzzle as an f-puzzles JSON object: givens, jigsaw regions, every element
    f-puzzles has a key for, its switches for global rules, other all-different
    global rules as extra regions. `ModelError` names a rule it cannot hold."""
    n, geometry = puzzle.size, puzzle.geometry
    geometry.require_single_grid("the f-puzzles format")
    if not geometry.square:
        raise ModelError(f"f-puzzles has no form for a {geometry.shape} grid (its grids are "
                         f"square); use toml, json or iss")
    if geometry.extra:  # its cells are the grid's
        raise ModelError(f"f-puzzles has no form for cells outside the grid "
                         f"({geometry.extra[0]} ...); use toml, json or iss")
    if not geometry.houses:
        raise ModelError("f-puzzles has no form for a raw grid (its rows, columns and "
                         "regions hold different digits); use toml, json or iss")
    if not geometry.standard:  # its grids hold the digits 1..N, each once a row
        digits = geometry.digits
        raise ModelError(f"f-puzzles has no form for the digits {digits[0]}-{digits[-1]} on "
                         f"{n}x{n} (its grids hold 1-{n}); use toml, json or iss")
    grid = []
    for r in range(n):
        row = []
        for c in range(n):
            cell: dict[str, Any] = {}
            v = puzzle.givens[r * n + c]
            if v:
                cell.update(value=v, given=True)
            # f-puzzles names a cell's region only where it is not the default one
            region = geometry.region_of[r * n + c]
            if region != default_region(r, c, n):
                cell["region"] = region
            row.append(cell)
        grid.append(row)
    out: dict[str, Any] = {"size": n, "title": puzzle.name or "", "grid": grid}
    for rule in puzzle.rules:
        writer = WRITERS.get(type(rule))
        lines = fpuzzles_lines(rule) if isinstance(rule, R.LineRule) else None
        if writer is not None:
            writer(rule, geometry, out)
        elif lines is not None:
            out.setdefault(lines[0], []).extend(lines[1])
        elif rule.name in FLAGS:
            out.update((flag, True) for flag in FLAGS[rule.name])
        else:
            groups = list(rule.constraints(geometry))
            if not groups or not all(isinstance(g, AllDifferent) for g in groups):
                raise ModelError(f"{R.describe(rule)}: f-puzzles has no form for this rule")
            out.setdefault("extraregion", []).extend(
                {"cells": [f"R{c // n + 1}C{c % n + 1}" for c in g.cells]} for g in groups)
    if solution is not None:
        out["solution"] = list(solution)
    return out


def link(puzzle: Puzzle, solution=None) -> str:
    """An f-puzzles link that opens the puzzle (also read by SudokuPad and cpsudoku)."""
    return FPUZZLES_URL + compress_to_base64(json.dumps(to_fpuzzles(puzzle, solution),
                                                        separators=(",", ":")))
