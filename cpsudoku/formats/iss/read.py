"""An ISS constraint string or link read: recognised, cut into items, nested into
composites, each item read by its type's reader, the layout and givens placed, and the
puzzle-file dict loaded with the puzzle-file loader."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import SplitResult, parse_qs, urlsplit

from ...errors import CpsudokuError, ParseError
from ...grid.geometry import MAX_EXTRA, box_for, tiles
from ...grid.puzzle import Puzzle
from ...grid.symbols import line as symbol_line
from ...rules.doppelganger import doppelganger_cells
from .. import iss_shorthand
from ..fields import digits_key
from .readers import ISS_TYPES, Reading
from .tables import COMPOSITES, REFUSED, RULE_TYPES
from .tokens import DIGITS, MAX_DIGITS, Item, Refusal, items, parse_error

_LINK_QUERY = re.compile(r"[?&#]q=")


def looks_like_iss(text: str) -> bool:
    """Whether `text` (stripped, comments allowed before it) is an ISS string or link."""
    first = next((s.strip() for s in text.splitlines()
                  if s.strip() and not s.lstrip().startswith("#")), "")
    if first.startswith(("http://", "https://")):
        return bool(_LINK_QUERY.search(first)) and "load=" not in first
    if iss_shorthand.kind(first) is not None:
        return True  # a killer or jigsaw in ISS's one-line shorthand
    if not first.startswith("."):
        return False
    head = re.match(r"\.+([A-Za-z]*)(~|\.|\s|$)", first)  # ISS skips empty items
    if head is None:
        return False
    kind, after = head.groups()
    # no grid holds a '~'
    return after == "~" or kind in ISS_TYPES or kind in REFUSED or kind in COMPOSITES



# ---------------------------------------------------------------- string -> dict -> puzzle

_RANGE = re.compile(r"(\d+)(?:-(\d+))?")


def _shape_of(found: list[Item], source: str,
              line: int | None) -> tuple[int, int, range, bool]:
    """The rows, the columns, the digits and whether the grid has houses, from ISS's
    `.Shape~RxC[~range][~type]` (its `fromShapeSpec`): the range is a count (`6x6~9`:
    digits 1..9) or first-last from 0 or 1 (`9x9~0-8`); without one, 1..max(R, C). The
    type is `Sudoku` (the default) or `Raw` (no houses: `9x9~~Raw`)."""
    shapes = [i for i in found if i.kind == "Shape"]
    if not shapes:
        return 9, 9, range(1, 10), True
    item = shapes[-1]
    try:
        return _shape_spec(item)
    except Refusal as refusal:
        raise parse_error(refusal, source, line) from None


def _shape_spec(item: Item) -> tuple[int, int, range, bool]:
    m = re.fullmatch(r"(\d+)x(\d+)", item.args[0] if item.args else "")
    rows, cols = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    if not (1 <= rows <= MAX_DIGITS and 1 <= cols <= MAX_DIGITS):
        raise Refusal(f"expects the grid's rows x columns, 1 to {MAX_DIGITS} each", item)
    n = max(rows, cols)
    if len(item.args) > 3:
        raise Refusal("expects the grid's size, its digits and its grid type", item)
    kind = item.args[2] if len(item.args) > 2 else ""
    if kind not in ("", "Sudoku", "Raw"):
        raise Refusal(f"grid type {kind!r} is neither Sudoku nor Raw", item)
    houses = kind != "Raw"
    spec = item.args[1] if len(item.args) > 1 else ""
    found = _RANGE.fullmatch(spec)
    if spec and found is None:
        raise Refusal(f"digits {spec!r} are neither a count (such as {n}) nor a range "
                       f"first-last (such as 0-{n - 1})", item)
    if not found:
        return rows, cols, range(1, n + 1), houses
    low, high = (1, int(found[1])) if found[2] is None else (int(found[1]), int(found[2]))
    digits = range(low, high + 1)
    least = n if houses else 1  # a raw grid's rows need not hold different digits
    if low not in (0, 1) or not least <= len(digits) <= MAX_DIGITS:
        raise Refusal(f"digits {spec!r}: ISS's digits start at 0 or 1, and a {rows}x{cols} "
                       f"{'grid' if houses else 'raw grid'} holds {least} to {MAX_DIGITS} of "
                       f"them", item)
    return rows, cols, digits, houses


def _extra_cells(found: list[Item], r: Reading) -> tuple[str, ...]:
    """The ids of the cells outside the grid, read before any item names one: each
    `.Var~PREFIX~label~size` declares `V<PREFIX>` (one cell) or `V<PREFIX>1..k`, and
    `.Doppelganger` its missing digits (the doppelganger rule's extra cells)."""
    out: list[str] = []
    for item in found:
        if item.kind == "Var":
            ids, columns = _var_ids(item)
        elif item.kind == "Doppelganger":
            if r.size != r.width or r.digits != range(0, r.size + 1):
                raise Refusal(f"Doppelganger needs a square grid of the digits 0..N (such "
                               f"as .Shape~9x9~0-9), not {r.size}x{r.width} of "
                               f"{r.digits[0]}..{r.digits[-1]}", item)
            ids = doppelganger_cells(r.size, r.width)
            boxes = [x for x in ids if x.startswith("DGB")]
            box = box_for(r.size, r.width, max(r.size, r.width)) if boxes else None
            _lay_out(r, boxes, box[1] if box else 0)  # ISS draws the box cells as boxes
            ids, columns = [x for x in ids if x not in boxes] + boxes, 0
        else:
            continue
        _lay_out(r, ids, columns)
        out.extend(ids)
    if len(set(out)) != len(out):
        twice = next(x for i, x in enumerate(out) if x in out[:i])
        raise Refusal(f"cell {twice} is declared twice",
                       next(i for i in found if i.kind in ("Var", "Doppelganger")))
    return tuple(out)


def _lay_out(r: Reading, ids: list[str], columns: int) -> None:
    """Places for a group of extra cells that ISS lays out in rows of `columns`."""
    if columns:
        group = len({g for g, _, _ in r.places.values()}) + 1
        for i, name in enumerate(ids):
            r.places.setdefault(name, (group, i // columns, i % columns))


def _var_ids(item: Item) -> tuple[list[str], int]:
    """ISS's ids of a `.Var` group's cells (its `cells()`: a count or RxC dimensions),
    and its columns (0: not laid out)."""
    prefix = item.args[0] if item.args else ""
    if not re.fullmatch(r"[A-Z]+", prefix):
        raise Refusal(f"a Var prefix is capital letters A-Z, not {prefix!r}", item)
    size = item.args[2] if len(item.args) > 2 else "1"
    m = re.fullmatch(r"(?:([1-9]\d*)x)?([1-9]\d*)", size)
    count = (int(m[1] or 1) * int(m[2])) if m else 1
    if count > MAX_EXTRA:
        raise Refusal(f"{count} cells: at most {MAX_EXTRA} cells outside the grid", item)
    columns = int(m[2]) if m and m[1] else 0
    ids = [f"V{prefix}"] if count == 1 else [f"V{prefix}{i}" for i in range(1, count + 1)]
    return ids, columns



def to_dict(text: str, source: str = "<string>", line: int | None = None) -> tuple[dict, dict]:
    """The puzzle-file dict of one constraint string, and which item asked for each key
    or rule (for the loader's refusals)."""
    found = items(text, source, line)
    size, width, digits, houses = _shape_of(found, source, line)
    r = Reading(size, {"size": size if width == size else f"{size}x{width}"}, {}, digits,
                width=width, houses=houses)
    if digits != range(1, max(size, width) + 1):
        r.data["digits"] = digits_key(digits)
    if not houses:
        r.data["houses"] = False
    try:
        r.extra = _extra_cells(found, r)
        if r.extra:
            r.data["extra_cells"] = list(r.extra)
        _read(r, _nest(found))
        regions = _layout(r)
        if r.same_regions is not None:
            _region_same_values(r, regions)
    except Refusal as refusal:
        raise parse_error(refusal, source, line) from None
    _place_givens(r)
    return r.data, r.origin


@dataclass(frozen=True)
class Group:
    """A composite: its `.Or` or `.And` item and what stands before its `.End`."""

    item: Item
    parts: tuple[Item | Group, ...]


def _nest(found: list[Item]) -> list[Item | Group]:
    stack: list[tuple[Item | None, list]] = [(None, [])]
    for item in found:
        if item.kind == "Container":  # a composite closed by End: named first
            raise Refusal(f"ISS type {item.kind!r} ({REFUSED[item.kind]}) has no cpsudoku "
                           f"counterpart", item)
        if item.kind in COMPOSITES:
            stack.append((item, []))
        elif item.kind == "End":
            head, parts = stack.pop() if len(stack) > 1 else (None, [])
            if head is None:
                raise Refusal("closes no Or or And", item)
            stack[-1][1].append(Group(head, tuple(parts)))
        else:
            stack[-1][1].append(item)
    if len(stack) > 1:
        raise Refusal("has no matching End", stack[-1][0])  # type: ignore[arg-type]
    return stack[0][1]


def _read(r: Reading, parts) -> None:
    for part in parts:
        if isinstance(part, Group):
            if part.item.kind == "And":  # all of them: as if written without the group
                _read(r, part.parts)
            elif part.item.kind == "Replicate":
                for dr, dc in _replica_shifts(r, part.item):
                    _read(r, [_shifted(p, dr, dc, r) for p in part.parts])
            elif not part.parts:
                raise Refusal("holds no alternatives", part.item)
            else:
                r.add("either", [_alternative(r, alt) for alt in part.parts], part.item)
            continue
        if part.kind in REFUSED:
            raise Refusal(f"ISS type {part.kind!r} ({REFUSED[part.kind]}) has no cpsudoku "
                           f"counterpart", part)
        if part.kind not in ISS_TYPES:
            raise Refusal(f"unknown ISS type {part.kind!r}", part)
        ISS_TYPES[part.kind][1](r, part)


_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_SHIFTABLE = re.compile(r"R([1-9a-g])C([1-9a-g])((?:_.*)?)", re.IGNORECASE)


def _replica_shifts(r: Reading, item: Item) -> list[tuple[int, int]]:
    """`.Replicate~targets[~origin]`: the (rows, columns) moving the origin (R1C1 unless
    named) onto each target. ISS writes the targets as base-64 words of six bits, bit i
    the cell i places after the origin in reading order."""
    if not 1 <= len(item.args) <= 2 or any(ch not in _BASE64 for ch in item.args[0]):
        raise Refusal("expects its targets (base-64 bits) and an optional origin cell", item)
    origin = r.cell(item.args[1] if len(item.args) > 1 else "R1C1", item)
    row, col = (int(x) - 1 for x in re.findall(r"\d+", origin))
    start = row * r.width + col
    shifts = []
    for k, ch in enumerate(item.args[0]):
        for bit in range(6):
            if _BASE64.index(ch) >> bit & 1:
                target = start + 6 * k + bit
                if target >= r.ncells:
                    raise Refusal(f"a target lies {target - start} cells after {origin}, "
                                   f"outside the grid", item)
                shifts.append((target // r.width - row, target % r.width - col))
    return shifts


def _shifted(part: Item | Group, dr: int, dc: int, r: Reading) -> Item | Group:
    """The item (or group) with every cell it names moved by dr rows and dc columns."""
    if isinstance(part, Group):
        if part.item.kind == "Replicate":
            raise Refusal("a Replicate inside a Replicate has no cpsudoku counterpart",
                           part.item)
        return Group(part.item, tuple(_shifted(p, dr, dc, r) for p in part.parts))

    def move(arg: str) -> str:
        cell = _SHIFTABLE.fullmatch(arg)
        if cell is None:
            return arg
        row = DIGITS.index(cell[1].lower()) + dr
        col = DIGITS.index(cell[2].lower()) + dc
        if not (0 <= row < r.size and 0 <= col < r.width):
            raise Refusal(f"{cell[0].split('_')[0]} copied {dr} rows and {dc} columns "
                           f"on lies outside the grid", part)
        return f"R{DIGITS[row]}C{DIGITS[col]}{cell[3]}"
    return Item(part.kind, tuple(map(move, part.args)), part.number, part.column)


def _alternative(r: Reading, part: Item | Group) -> dict:
    """One alternative of an Or (an item, or an And of several) as a piece of a puzzle
    file: givens as `givens`, the rest under their usual keys."""
    alt = Reading(r.size, {}, r.origin, r.digits, width=r.width)
    _read(alt, part.parts if isinstance(part, Group) else (part,))
    item = part.item if isinstance(part, Group) else part
    if alt.jigsaw is not None or not alt.boxes or alt.region_size or "rules" in alt.data:
        raise Refusal("a layout or global rule inside an Or has no cpsudoku counterpart", item)
    _place_candidates(alt)
    if alt.givens:
        alt.data["givens"] = {name: min(values) for name, values in alt.givens.items()}
    return alt.data


def _layout(r: Reading) -> list[list[int]]:
    """The regions: ISS's boxes (of `.RegionSize` cells, else N) unless `.NoBoxes`, and
    jigsaw pieces. Pieces beside boxes, or not tiling the grid (ISS lets one piece of
    another size hold the rest), are extra regions; a grid with neither box nor jigsaw
    takes its rows as regions. Returns ISS's regions (boxes and pieces), by cell."""
    n, width, most = r.size, r.width, len(r.digits)
    if not r.houses:  # a raw grid has no regions (ISS refuses these on it too)
        asked = (r.origin.get("regions") or (r.jigsaw[1] if r.jigsaw else None)
                 or r.same_regions)
        if asked is not None:
            raise Refusal("is only valid on a Sudoku grid, not a Raw one", asked)
        return []
    k, sized = r.region_size or (max(n, width), None)
    box = box_for(n, width, k) if r.boxes else None
    pieces = _pieces(r, k)
    if sized is not None and k != max(n, width) and (
            box or pieces or "chaos" in r.data.get("rules", [])):
        if most == n:  # cpsudoku's regions then hold every digit
            raise Refusal(f"regions of {k} cells have no cpsudoku counterpart with {n} "
                           f"digits: other sizes need more digits than a row has cells", sized)
        if k > most:
            raise Refusal(f"regions of {k} cells cannot hold {most} different digits", sized)
        if "chaos" in r.data.get("rules", []):
            raise Refusal(f"chaos regions of {k} cells have no cpsudoku counterpart", sized)
    window = k if sized is not None else most  # ISS's windows hold V cells unless sized
    if "windoku" in r.data.get("rules", []) and window != n:
        raise Refusal(f"windoku windows of {window} cells have no cpsudoku counterpart",
                       r.origin["windoku"])
    if pieces is not None and box is None and sum(map(len, pieces)) == r.ncells:
        layout, _ = r.jigsaw  # type: ignore[misc]
        r.data["regions"] = [layout[row * width:(row + 1) * width] for row in range(n)]
        return pieces
    for piece in pieces or []:  # beside boxes, or not covering the grid
        r.add("extra_regions", [f"r{c // width + 1}c{c % width + 1}" for c in piece],
              r.jigsaw[1])  # type: ignore[index]
    if box is None:  # no boxes: rows stand in as the regions
        r.data["regions"] = [DIGITS[row] * width for row in range(n)]
        return pieces or []
    if k != n or width != n:
        r.data["box"] = f"{box[0]}x{box[1]}"
    return [list(b) for b in tiles(n, width, *box)] + (pieces or [])


def _region_same_values(r: Reading, regions: list[list[int]]) -> None:
    """ISS's RegionSameValues: the largest of the rows, columns, boxes and jigsaw pieces
    hold the same digits. Same-value sets must not share cells, and the groups' digits
    differ, so equal sets along a tree of disjoint pairs say it (rows meet columns, and
    boxes join them)."""
    n, width = r.size, r.width
    groups = ([list(range(row * width, (row + 1) * width)) for row in range(n)]
              + [list(range(col, r.ncells, width)) for col in range(width)] + regions)
    most = max(map(len, groups))
    largest = list({frozenset(g): g for g in groups if len(g) == most}.values())
    joined, pairs = [largest[0]], []
    for group in joined:  # grows while it is read: a breadth-first tree
        for other in largest:
            if other not in joined and not set(group) & set(other):
                joined.append(other)
                pairs.append((group, other))
    if len(joined) < len(largest):
        raise Refusal(f"its regions of {most} cells do not join by disjoint pairs (a "
                       f"grid without boxes)", r.same_regions)  # type: ignore[arg-type]
    for pair in pairs:
        r.add("same_values", [[f"r{c // width + 1}c{c % width + 1}" for c in g] for g in pair],
              r.same_regions)  # type: ignore[arg-type]


def _pieces(r: Reading, k: int) -> list[list[int]] | None:
    """The jigsaw's pieces (cells), as ISS keeps them: those of N to V cells, which must
    hold k cells each; one piece of another size is left out (a partly drawn layout)."""
    if r.jigsaw is None:
        return None
    layout, item = r.jigsaw
    groups: dict[str, list[int]] = {}
    for cell, label in enumerate(layout):
        groups.setdefault(label, []).append(cell)
    if len(groups) == 1:
        return None  # one piece: the whole grid, no constraint
    pieces = [g for g in groups.values() if min(r.size, r.width) <= len(g) <= len(r.digits)]
    if len(groups) - len(pieces) > 1:
        raise Refusal("jigsaw pieces of inconsistent sizes", item)
    if any(len(piece) != k for piece in pieces):
        raise Refusal(f"jigsaw pieces must have {k} cells", item)
    return pieces


def _place_candidates(r: Reading) -> None:
    """Candidate sets (digits) as odd or even cells where they are exactly those, else
    as given candidates."""
    odd = {d for d in r.digits if d % 2}
    even = set(r.digits) - odd
    for name, values in r.candidates.items():
        if values in (odd, even) and name not in r.extra:
            r.data.setdefault("odd" if values == odd else "even", []).append(name)
        else:
            r.add("given_candidates", {"cell": name, "values": sorted(values)},
                  r.origin["given"])


def _place_givens(r: Reading) -> None:
    first = r.digits[0]
    grid = [[0] * r.width for _ in range(r.size)]  # values, 0 blank
    for name, digits in r.givens.items():
        if name in r.extra:  # no place in the grid: a one-digit candidate set
            r.candidates[name] = r.candidates.get(name, digits) & digits
            continue
        row, col = map(int, re.findall(r"\d+", name))
        grid[row - 1][col - 1] = min(digits) - first + 1
    _place_candidates(r)
    if any(any(row) for row in grid):
        # rows of numbers (no notation to guess) where 0 is no digit, else digits as text
        r.data["grid"] = grid if first else [symbol_line(row, ".", first) for row in grid]
    rules = r.data.get("rules", [])
    if "diagonal+" in rules and "diagonal-" in rules:  # both: cpsudoku's one rule
        rules[rules.index("diagonal+")] = "diagonal"
        rules.remove("diagonal-")


def load(text: str, source: str = "<string>") -> list[Puzzle]:
    """The puzzles of ISS text: an ISS link, or constraint strings one per line (`#`
    comment lines and blank lines between them are skipped)."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if s.startswith(("http://", "https://")):
            s = from_link(s, source, number)
        out.append(from_string(s, source, number))
    if not out:
        raise ParseError("no ISS constraint string found", source)
    return out


def split_link(url: str, source: str = "<string>", line: int | None = None) -> SplitResult:
    """A link's parts, or a ParseError naming it: urllib refuses some links outright (a
    host with an unmatched `[`, a bracketed host that is no IPv6 address) with a bare
    ValueError, which is bad input, not a fault. Every link read in `formats` goes
    through here."""
    try:
        return urlsplit(url)
    except ValueError as exc:
        raise ParseError(f"not a valid link ({exc}): {url}", source, line) from None


def from_link(url: str, source: str = "<string>", line: int | None = None) -> str:
    """The constraint string an ISS link carries in `q`."""
    parts = split_link(url, source, line)
    found = parse_qs(parts.query).get("q") or parse_qs(parts.fragment).get("q")
    if not found:
        raise ParseError("the ISS link carries no constraint string (?q=...)", source, line)
    return found[0]


def from_string(text: str, source: str = "<string>", line: int | None = None) -> Puzzle:
    """One puzzle from one ISS constraint string (through the puzzle-file loader); as
    ISS does, whitespace anywhere in a constraint string (line breaks too) is dropped."""
    from .. import puzzlefile  # the loader sits beside this package; grids never need it
    if text[:1].isspace() and text.lstrip().startswith("."):
        text = re.sub(r"\s+", "", text)  # columns then count from the string's first '.'
    if iss_shorthand.kind(text) is not None:
        data, origin = iss_shorthand.to_dict(text, source, line), dict[str, Item]()
    else:
        data, origin = to_dict(text, source, line)
    where = source if line is None else f"{source}:{line}"
    try:
        puzzle = puzzlefile.from_dict(data, where, "iss")
    except CpsudokuError as exc:
        asked = _asked_for(str(exc), origin)
        if asked is None:
            raise
        key, item = asked
        what = "rule" if key in RULE_TYPES.values() else "element"
        raise ParseError(f"{item.where()}: this version of cpsudoku has no {what} {key!r}",
                         source, line, item.column) from None
    return puzzle


def _asked_for(message: str, origin: dict[str, Item]) -> tuple[str, Item] | None:
    """The key and item behind a loader's refusal of an unknown element or rule."""
    if "unknown element" not in message and "unknown rule" not in message:
        return None
    named = [(key, item) for key, item in origin.items() if f"'{key}'" in message]
    return min(named, key=lambda pair: pair[1].number) if named else None

