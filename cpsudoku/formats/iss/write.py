"""A puzzle written as an ISS constraint string or link, from its puzzle-file dict
(`puzzlefile.as_dict`); an element ISS has no form for is refused, named."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import quote

from ...errors import ModelError
from ...grid.geometry import Geometry, box_for
from ...grid.puzzle import Puzzle
from ...rules.doppelganger import doppelganger_cells
from ...rules.full_rank import TIES_KEY
from .. import iss_codes
from ..fields import digits_key
from .tables import LINE_TYPES, NUMBERED_TYPES, OUTSIDE_TYPES, RULE_TYPES
from .tokens import (
    CELL,
    DIGITS,
    ISS_URL,
    MAX_DIGITS,
    VAR_ID,
    encode_pattern,
    iss_cell,
    little_killer_diagonals,
)


def dumps(puzzle: Puzzle) -> str:
    """The puzzle as one ISS constraint string (`from_string(dumps(p))` gives the same
    puzzle). Elements ISS has no form for are refused with a ModelError naming them."""
    from .. import puzzlefile
    puzzle.geometry.require_single_grid("the ISS format")
    data = puzzlefile.as_dict(puzzle)
    geometry = puzzle.geometry
    n, width, digits = geometry.size, geometry.width, geometry.digits
    if max(n, width) > len(DIGITS):
        raise ModelError(f"a {geometry.shape} grid has no ISS form (ISS grids are at most "
                         f"16x16)")
    if len(digits) > MAX_DIGITS:
        raise ModelError(f"{len(digits)} digits have no ISS form (ISS holds at most "
                         f"{MAX_DIGITS})")
    out = _shape_items(puzzle.geometry)
    out.extend(_var_items(geometry, data.get("rules", [])))
    out.extend(_layout_items(puzzle))
    givens = {geometry.cell_name(c): digits[v - 1] for c, v in enumerate(puzzle.givens) if v}
    out.extend(_element_items(data | {"givens": givens}, n, digits))
    return "".join(out) or "."


def _var_items(geometry: Geometry, rules: list[str]) -> list[str]:
    """`.Var` items declaring the extra cells (a Doppelganger's come with its rule):
    each group `V<prefix>` (one cell) or `V<prefix>1..k`, in that order."""
    own = set(doppelganger_cells(geometry.size, geometry.width)) if "doppelganger" in rules \
        else set()
    groups: dict[str, list[str]] = {}
    for name in geometry.extra:
        if name in own:
            continue
        m = VAR_ID.fullmatch(name)
        if m is None:
            raise ModelError(f"extra cell {name} has no ISS form (ISS names its cells "
                             f"outside the grid V<letters><number>, such as VA1)")
        groups.setdefault(m[1], []).append(m[2])
    out = []
    for prefix, numbers in groups.items():
        if numbers == [""]:
            out.append(_item("Var", prefix))
        elif numbers != [str(i) for i in range(1, len(numbers) + 1)]:
            raise ModelError(f"extra cells V{prefix}{numbers[0]} ...: ISS numbers a group's "
                             f"cells V{prefix}1, V{prefix}2 ... in order")
        else:
            out.append(_item("Var", prefix, "", str(len(numbers))))
    return out


def _shape_items(geometry: Geometry) -> list[str]:
    """`.Shape` as ISS names it (`makeName`): the size, then a count of digits from 1
    (`6x6~9`) or a range from 0 (`9x9~0-8`), then `Raw` for a grid without houses (an
    empty range before it when the digits are the default: `9x9~~Raw`); none for 9x9
    of 1..9."""
    digits = geometry.digits
    spec = geometry.shape
    if digits != range(1, max(geometry.size, geometry.width) + 1):
        spec += f"~{digits_key(digits)}" if digits[0] == 0 else f"~{len(digits)}"
    if not geometry.houses:
        spec += "~Raw" if "~" in spec else "~~Raw"
    return [f".Shape~{spec}"] if spec != "9x9" else []


def _element_items(data: dict, n: int, digits: range) -> list[str]:
    """The ISS items of puzzle-file keys: givens (cell -> digit) and candidate sets as
    one given item, then each element key's items."""
    givens = [(name, [v]) for name, v in data.get("givens", {}).items()]
    for parity, remainder in (("odd", 1), ("even", 0)):
        givens += [(name, [d for d in digits if d % 2 == remainder])
                   for name in _names(data.get(parity, []))]
    givens += [(entry["cell"], sorted(entry["values"]))
               for entry in data.get("given_candidates", [])]
    out = []
    if givens:
        out.append(".~" + "~".join(f"{iss_cell(name)}_{'_'.join(map(str, values))}"
                                    for name, values in givens))
    for key, value in data.items():
        if key in _NOT_ELEMENTS:
            continue
        if key in _DIGIT_WRITERS:
            out.extend(_DIGIT_WRITERS[key](value, n, digits))
            continue
        write = _WRITERS.get(key)
        if write is None:
            raise ModelError(f"puzzle-file key {key!r} has no ISS form")
        out.extend(write(value, n))
    return out


def _write_either(items, n, digits: range) -> list[str]:
    """`.Or` per element, each alternative one item or an `.And` group of its items."""
    out = []
    for alternatives in items:
        parts = [_element_items(alt, n, digits) for alt in alternatives]
        out.append(".Or" + "".join(p[0] if len(p) == 1 else ".And" + "".join(p) + ".End"
                                   for p in parts) + ".End")
    return out


def link(puzzle: Puzzle) -> str:
    """An ISS link that opens the puzzle."""
    return ISS_URL + "?q=" + quote(dumps(puzzle), safe=".~_-")


_NOT_ELEMENTS = {"name", "title", "size", "digits", "box", "regions", "houses", "grid",
                 "solution",
                 "extra_cells", "odd",
                 "even", "given_candidates", "givens"}


def _layout_items(puzzle: Puzzle) -> list[str]:
    """ISS's default boxes (of `.RegionSize` cells when not N), rows as regions, or a
    jigsaw."""
    geometry = puzzle.geometry
    if not geometry.houses:
        return []  # ISS's Raw grid has no regions
    n, width = geometry.size, geometry.width
    line = max(n, width)  # ISS's default region size
    k = len(geometry.regions[0])  # the geometry's regions are all of one size
    # ISS sizes windoku windows by the region size, else by the number of digits
    windows = geometry.values != n and any(rule.name == "windoku" for rule in puzzle.rules)
    sized = [f".RegionSize~{k}"] if k != line or windows else []
    if geometry.box is not None and geometry.box == box_for(n, width, k):
        return sized
    if set(geometry.regions) == set(geometry.rows):
        return [".NoBoxes"]
    labels = "0123456789abcdefg"
    return [".NoBoxes", *sized, ".Jigsaw~" + "".join(labels[r] for r in geometry.region_of)]


def _names(value) -> list[str]:
    if isinstance(value, dict):
        value = value["cells"]
    return value.split() if isinstance(value, str) else list(value)


def _item(kind: str, *args) -> str:
    return "." + "~".join([kind, *(str(a) for a in args)])


def _cells(value) -> list[str]:
    return [iss_cell(name) for name in _names(value)]


def _write_line(kind: str) -> Callable:
    return lambda items, n: [_item(kind, *_cells(v)) for v in items]


def _write_numbered(kind: str, param: str, default: int | None) -> Callable:
    def write(items, n):
        out = []
        for v in items:
            number = v.get(param, default) if isinstance(v, dict) else default
            if number is None and kind == "Whisper" and n == 9:
                number = 5  # German whispers; other sizes scale it, so say it there
            if number is None:
                raise ModelError(f"{kind} lines without their {param} have no ISS form on "
                                 f"{n}x{n}: give it")
            loop = ["LOOP"] if isinstance(v, dict) and v.get("loop") else []
            out.append(_item(kind, number, *_cells(v), *loop))
        return out
    return write


def _write_rules(names, n) -> list[str]:
    flags = {name: kind for kind, name in RULE_TYPES.items()}
    flags.update({"diagonal+": "Diagonal~1", "diagonal-": "Diagonal~-1",
                  "diagonal": "Diagonal~1.Diagonal~-1",
                  "159": "Indexing~C~" + "~".join(f"R{row}C{col}" for col in (1, 5, 9)
                                                  for row in range(1, 10))})
    missing = [name for name in names if name not in flags]
    if missing:
        raise ModelError(f"rule {missing[0]!r} has no ISS form")
    return ["." + flags[name] for name in names]


def _write_cages(items, n) -> list[str]:
    out = []
    for cage in items:
        total = cage.get("sum", cage.get("total"))
        weights = cage.get("weights")
        if weights and not cage.get("repeats") and min(weights) > 0:
            # ISS's cage counts a cell listed twice twice in its sum
            cells = _cells(cage)
            out.append(_item("Cage", total, *[c for c, w in zip(cells, weights)
                                              for _ in range(w)]))
        elif weights:
            out.append(_item("Sum", "_".join(map(str, [total, "=", *weights])),
                             *_cells(cage)))
            if not cage.get("repeats"):
                out.append(_item("AllDifferent", *_cells(cage)))
        elif cage.get("repeats"):
            if total is None:
                raise ModelError("a cage with repeats and no sum has no ISS form")
            out.append(_item("Sum", total, *_cells(cage)))
        else:
            out.append(_item("Cage", "" if total is None else total, *_cells(cage)))
    return out


def _write_arrows(items, n) -> list[str]:
    out = []
    for arrow in items:
        lines = arrow.get("lines") or [arrow["cells"]]
        circle = _names(arrow["circle"])
        if len(lines) != 1:
            # an ISS arrow has one line: several from one circle are separate sums,
            # not this one sum over them all
            raise ModelError("an arrow summing several lines from one circle has no ISS "
                             "form (give each line its own arrow)")
        at = [tuple(map(int, re.findall(r"\d+", c))) for c in circle]
        if len(circle) == 1:
            out.append(_item("Arrow", *_cells(circle + _names(lines[0]))))
        elif len(circle) in (2, 3) and at == sorted(at):
            out.append(_item("PillArrow", len(circle), *_cells(circle + _names(lines[0]))))
        else:
            raise ModelError("a pill ISS cannot read (2 or 3 cells in reading order) has no "
                             "ISS form")
    return out


def _write_marks(kinds: dict[str, str], strict: str) -> Callable:
    def write(table, n):
        out = []
        for key, kind in kinds.items():
            for mark in table.get(key, []):
                if isinstance(mark, dict) and mark.get("value") is not None:
                    raise ModelError(f"a {key} mark with its own value has no ISS form")
                out.append(_item(kind, *_cells(mark)))
        negative = set(table.get("negative", []))
        if table.get("all_given"):
            negative |= set(kinds)
        if negative == set(kinds):
            out.append("." + strict)
        elif negative:
            raise ModelError(f"the negative rule for {', '.join(sorted(negative))} alone has no "
                             f"ISS form")
        return out
    return write


def _write_little_killers(items, n) -> list[str]:
    from ...rules.killer import DIRECTIONS
    diagonals = little_killer_diagonals(n)
    out = []
    for clue in items:
        cells = _names(clue) if clue.get("cells") else []
        if not cells:
            (row, col), (dr, dc) = map(int, re.findall(r"-?\d+", clue["clue"])), DIRECTIONS[
                clue["direction"]]
            row, col = row + dr, col + dc
            while 1 <= row <= n and 1 <= col <= n:
                cells.append(f"r{row}c{col}")
                row, col = row + dr, col + dc
        start = next((first for first, line in diagonals.items()
                      if line in (cells, cells[::-1])), None)
        if start is None:
            raise ModelError(f"little killer along {cells[0]}..{cells[-1]} has no ISS form "
                             f"(ISS clues cover whole diagonals)")
        out.append(_item("LittleKiller", clue.get("sum", clue.get("total")), iss_cell(start)))
    return out


def _line_id(clue: dict) -> str:
    if "row" in clue:
        return "R" + DIGITS[int(clue["row"]) - 1]
    return "C" + DIGITS[int(clue["column"]) - 1]


def _write_outside(kind: str) -> Callable:
    def write(items, n):
        ends: dict[str, list[str]] = {}
        for clue in items:
            end = ends.setdefault(_line_id(clue), ["", ""])
            end[0 if clue.get("side", "start") == "start" else 1] = str(clue["value"])
        return [_item(kind, line, *values) for line, values in ends.items()]
    return write


def _line_cells(clue: dict, n: int) -> list[str]:
    if "row" in clue:
        return [f"R{DIGITS[int(clue['row']) - 1]}C{DIGITS[c]}" for c in range(n)]
    return [f"R{DIGITS[r]}C{DIGITS[int(clue['column']) - 1]}" for r in range(n)]


def _write_quads(items, n) -> list[str]:
    out = []
    for quad in items:
        at = sorted(tuple(map(int, re.findall(r"\d+", c))) for c in _names(quad))
        out.append(_item("Quad", iss_cell(f"r{at[0][0]}c{at[0][1]}"), *quad["values"]))
    return out


def _segments(segments) -> list[str]:
    """Segments as ISS writes them: cells, with '-' between segments."""
    out: list[str] = []
    for i, segment in enumerate(segments):
        out.extend((["-"] if i else []) + _cells(segment))
    return out


def _write_contain(kind: str) -> Callable:
    return lambda items, n: [_item(kind, "_".join(map(str, v["values"])), *_cells(v))
                             for v in items]


def _write_indexing(items, n) -> list[str]:
    kinds = {"column": "C", "row": "R"}
    if any(entry.get("kind") not in kinds for entry in items):
        raise ModelError("box indexing has no ISS form")
    return [_item("Indexing", kinds[entry["kind"]], *_cells(entry)) for entry in items]


def _write_relations(items, n, digits: range) -> list[str]:
    from ...rules.custom import Relations
    from ..custom_elements import rules as custom_rules
    out = []
    for i, entry in enumerate(items, 1):
        mode = entry.get("mode", "line")
        if mode == "cells":
            raise ModelError(f"relation {i} over all its cells at once has no ISS form")
        pairs: Iterable[tuple[int, ...]]
        if digits == range(1, n + 1):
            [rule] = custom_rules({"relations": [entry]}, n)
            pairs = Relations.table(rule.elements[0], n, f"relation {i}", 2)
        elif "pairs" in entry:  # digit pairs; ISS's key counts values 1..V
            pairs = [(a - digits[0] + 1, b - digits[0] + 1) for a, b in entry["pairs"]]
        else:
            raise ModelError(f"relation {i}, an expression on digits {digits_key(digits)}, "
                             f"has no ISS form: give its pairs")
        name = [f"_{quote(entry['name'], safe='')}"] if entry.get("name") else [""]
        out.append(_item("Pair" if mode == "line" else "PairX",
                         iss_codes.key_from_pairs(pairs, len(digits)), *name, *_cells(entry)))
    return out


def _write_automata(items, n, digits: range) -> list[str]:
    out = []
    shift = digits[0] - 1  # transitions name digits; ISS's symbols count values 1..V
    for entry in items:
        start = entry.get("start", 0)
        starts = start if isinstance(start, list) else [start]
        code = iss_codes.code_from_automaton(starts, entry.get("accepting", []),
                                             [(s, v - shift, t)
                                              for s, v, t in entry.get("transitions", [])])
        name = [f"_{quote(entry['name'], safe='')}"] if entry.get("name") else [""]
        out.append(_item("NFA", code, *name, *_cells(entry)))
    return out


# Writers of keys whose ISS form depends on the digits (relation keys and automata count
# values 1..V; alternatives may hold odd and even cells).
def _write_chaos(kind: str, part: str) -> Callable:
    def write(items, n):
        out = []
        for clue in items:
            groups = clue.get(part, [])
            cells = [cell for arm in groups for cell in ["-", *_cells(arm)]][1:] \
                if part == "arms" else _cells(groups)
            regions = [c if c == "-" else _region_id(c, n) for c in cells]
            out.append(_item(kind, iss_cell(clue["cell"]), clue.get("offset", 0), *regions))
        return out
    return write


def _region_id(iss_id: str, n: int) -> str:
    found = CELL.match(iss_id)
    assert found is not None  # made by iss_cell
    row, col = (DIGITS.index(ch.lower()) for ch in found.groups())
    return f"CC{row * n + col + 1}"


_DIGIT_WRITERS: dict[str, Callable[[Any, int, range], list[str]]] = {
    "relations": _write_relations, "automata": _write_automata, "either": _write_either,
}

_WRITERS: dict[str, Callable[[Any, int], list[str]]] = {
    "rules": _write_rules,
    **{key: _write_line(kind) for kind, key in LINE_TYPES.items()},
    **{key: _write_numbered(kind, param, {"Whisper": None, "Lockout": 4, "Modular": 3,
                                          "SumLine": 10}[kind])
       for kind, (key, param) in NUMBERED_TYPES.items()},
    "dutch_whispers": lambda items, n: [_item("Whisper", 4, *_cells(v)) for v in items],
    "cages": _write_cages,
    "rellik_cages": lambda items, n: [_item("RellikCage", c["sum"], *_cells(c)) for c in items],
    "arrows": _write_arrows,
    "kropki": _write_marks({"white": "WhiteDot", "black": "BlackDot"}, "StrictKropki"),
    "xv": _write_marks({"x": "X", "v": "V"}, "StrictXV"),
    "greater_than": lambda items, n: [_item("GreaterThan", *_cells(p)) for p in items],
    "little_killers": _write_little_killers,
    "sandwiches": lambda items, n: [_item("Sandwich", c["value"], _line_id(c)) for c in items],
    **{key: _write_outside(kind) for kind, key in OUTSIDE_TYPES.items()},
    "lunchboxes": lambda items, n: [_item("Lunchbox", c["value"], *(
        _cells(c) if "cells" in c else _line_cells(c, n))) for c in items],
    "quadruples": _write_quads,
    "equality_cages": _write_line("EqualityCage"),
    "counting_circles": _write_line("CountingCircles"),
    "contain_at_least": _write_contain("ContainAtLeast"),
    "contain_exact": _write_contain("ContainExact"),
    "equal_sums": lambda items, n: [_item("EqualSum", *_segments(segments)) for segments in items],
    "indexing": _write_indexing,
    "regex_lines": lambda items, n: [_item("Regex", encode_pattern(v["pattern"]), *_cells(v))
                                     for v in items],
    "chaos_arrows": _write_chaos("ChaosArrow", "arms"),
    "chaos_counts": _write_chaos("ChaosCount", "cells"),
    "same_values": lambda items, n: [_item("SameValues", len(sets), *_cells(sum(sets, [])))
                                     for sets in items],
    "same_regions": lambda items, n: [_item("SameValues", len(cells),
                                            *(_region_id(c, n) for c in _cells(cells)))
                                      for cells in items],
    "look_and_say": lambda items, n: [_item("LookAndSay", v["clue"], *_cells(v))
                                      for v in items],
    TIES_KEY: lambda ties, n: [_item("FullRankTies", ties)],
    "distinct_counts": lambda items, n: [_item("CountDistinct", iss_cell(v["cell"]), *_cells(v))
                                         for v in items],
    "distinct_region_counts": lambda items, n: [
        _item("CountDistinct", iss_cell(v["cell"]), *(_region_id(c, n) for c in _cells(v)))
        for v in items],
}

