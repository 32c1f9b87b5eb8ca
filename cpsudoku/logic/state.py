"""Pencil-mark state: candidates per cell as bitmasks over the puzzle's houses.

A house is any all-different group of N cells (rows, columns, boxes, jigsaw
regions, diagonals, windows, extra regions). Smaller all-different groups
(cages, anti-knight pairs) only make cells peers. Every other constraint is a
"rule" that the by-rule step reasons about. Bit v-1 of a mask stands for value v.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from ..grid.constraints import AllDifferent, Constraint
from ..grid.puzzle import Puzzle
from ..model import Model, build_model


@dataclass(frozen=True)
class House:
    cells: tuple[int, ...]
    label: str  # "row 3", "column 7", "box 5", "diagonal"...
    kind: str  # "row", "col", "box" (any region of the partition) or "extra"


@cache
def bit_values(mask: int) -> tuple[int, ...]:
    """The values (1-based) whose bits are set."""
    out = []
    v = 1
    while mask:
        if mask & 1:
            out.append(v)
        mask >>= 1
        v += 1
    return tuple(out)


@cache
def popcount(mask: int) -> int:
    return bin(mask).count("1")


@dataclass(frozen=True)
class Layout:
    """What never changes while solving: houses, peers, the rules beside the houses."""

    size: int
    houses: tuple[House, ...]
    houses_of: tuple[tuple[int, ...], ...]  # house indexes per cell
    peers: tuple[frozenset[int], ...]  # cells sharing an all-different constraint
    rules: tuple[Constraint, ...]  # constraints that are not all-different
    small_groups: tuple[Constraint, ...] = ()  # all-different over fewer than N cells

    def name(self, cell: int) -> str:
        return f"r{cell // self.size + 1}c{cell % self.size + 1}"

    def rules_by_label(self) -> dict[str, list[Constraint]]:
        """The rules' constraints grouped by label (a rule's pieces share it), with the
        small all-different groups of the same label (a cage's no-repeat goes with its
        sum)."""
        groups: dict[str, list[Constraint]] = {}
        for con in self.rules:
            groups.setdefault(con.describe(), []).append(con)
        for con in self.small_groups:
            if con.describe() in groups:
                groups[con.describe()].append(con)
        return groups

    def is_classic(self) -> bool:
        """Only rows, columns and one partition: SE's own setting."""
        return not self.rules and len(self.houses) == 3 * self.size and all(
            len(p) == len(self.peers[0]) for p in self.peers)


def layout_of(puzzle: Puzzle) -> Layout:
    try:
        return _cached_layout(puzzle.geometry, puzzle.rules)
    except TypeError:  # a custom rule that cannot be hashed
        return _layout(puzzle)


@lru_cache(maxsize=32)
def _cached_layout(geometry, rules) -> Layout:
    return _layout(Puzzle(geometry, (0,) * geometry.ncells, rules))


def _layout(puzzle: Puzzle) -> Layout:
    geometry = puzzle.geometry
    # on a grid that is not square with digits 1..N (a 6x9, nine digits on a 6x6) the
    # layout's size is its width, for the cells' names, and a house is a group of
    # as many cells as there are digits: only the techniques marked `any_grid` read it
    n = puzzle.size if geometry.standard else geometry.width
    whole = n if geometry.standard else geometry.values
    ncells = geometry.ncells
    houses: list[House] = []
    peers: list[set[int]] = [set() for _ in range(ncells)]
    rules: list[Constraint] = []
    small: list[Constraint] = []
    kinds = ["row"] * n + ["col"] * n + ["box"] * n
    seen: set[frozenset[int]] = set()
    for index, con in enumerate(puzzle.constraints()):
        if isinstance(con, AllDifferent):
            if len(con.cells) == whole:
                # a grid with no boxes has its rows as regions: one house each, a row (the
                # same cells twice would rate a row's single as a box's, and look classic)
                if frozenset(con.cells) not in seen:
                    seen.add(frozenset(con.cells))
                    kind = (kinds[index] if index < 3 * n else "extra") if geometry.standard \
                        else _board_kind(con.label) if geometry.grids else "box"
                    houses.append(House(tuple(con.cells), con.label or f"group {index + 1}",
                                        kind))
            else:
                small.append(con)
            for cell in con.cells:
                peers[cell].update(con.cells)
        elif con.kind != "inset":
            rules.extend(con.pieces)  # full rank: its automata, each a step of its own
    houses_of: list[list[int]] = [[] for _ in range(ncells)]
    for h, house in enumerate(houses):
        for cell in house.cells:
            houses_of[cell].append(h)
    for cell in range(ncells):
        peers[cell].discard(cell)
    return Layout(n, tuple(houses), tuple(tuple(h) for h in houses_of),
                  tuple(frozenset(p) for p in peers), tuple(rules), tuple(small))


def _board_kind(label: str) -> str:
    """A board's house by its label ("grid 2 row 3", "grid 2 column 3", "box 7"): rows
    and columns of a sub-grid rate their singles as a grid's do."""
    words = label.split()
    return {"row": "row", "column": "col"}.get(words[-2] if len(words) > 1 else "", "box")


class State:
    """Values and candidates of every cell; `place` and `eliminate` keep them consistent."""

    deadline: float | None = None  # set by the solver's run; long searches check it

    def __init__(self, layout: Layout, values: list[int], cand: list[int],
                 empty: list[int] | None = None):
        self.layout = layout
        self.size = layout.size
        self.values = values
        self.cand = cand  # 0 for a placed cell
        # empty cells per house, kept up to date by `place` (full houses are looked up often)
        self.empty = empty if empty is not None else [
            sum(1 for c in h.cells if not values[c]) for h in layout.houses]

    @classmethod
    def start(cls, puzzle: Puzzle, layout: Layout | None = None,
              model: Model | None = None) -> State:
        """Givens placed, every other cell's candidates from its domain minus its peers' givens
        (the domains of `model`, the puzzle's model if it is built already)."""
        layout = layout or layout_of(puzzle)
        model = model if model is not None else build_model(puzzle)
        cand = [0] * len(puzzle.givens)
        # the grid cells only: a rule's unknowns beside the digits (region labels) come
        # after them in the model and have no pencil marks
        for cell, domain in enumerate(model.domains[:len(cand)]):
            if not puzzle.givens[cell]:
                cand[cell] = sum(1 << (v - 1) for v in domain)
        state = cls(layout, [0] * len(cand), cand)
        for cell, v in enumerate(puzzle.givens):
            if v:
                state.place(cell, v)
        # a board's cells outside every sub-grid: no house, no peer, the one value the
        # model fixes them to; placed from the start, as nothing to explain
        for cell in puzzle.geometry.absent:
            state.place(cell, min(model.domains[cell]))
        return state

    def copy(self) -> State:
        return State(self.layout, self.values[:], self.cand[:], self.empty[:])

    def place(self, cell: int, value: int) -> None:
        if not self.values[cell]:
            for h in self.layout.houses_of[cell]:
                self.empty[h] -= 1
        self.values[cell] = value
        self.cand[cell] = 0
        keep = ~(1 << (value - 1))
        cand = self.cand
        for peer in self.layout.peers[cell]:
            cand[peer] &= keep

    def eliminate(self, cell: int, value: int) -> None:
        self.cand[cell] &= ~(1 << (value - 1))

    def solved(self) -> bool:
        return all(self.values)

    def broken(self) -> bool:
        """A blank cell with no candidate left."""
        return any(not v and not c for v, c in zip(self.values, self.cand))

    def positions(self, house: House, value: int) -> list[int]:
        b = 1 << (value - 1)
        cand = self.cand
        return [c for c in house.cells if cand[c] & b]

    def name(self, cell: int) -> str:
        return self.layout.name(cell)
