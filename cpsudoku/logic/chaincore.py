"""The chain graph's searches compiled (`_chaincore`, C), behind the dicts of the Python ones.

The extension is optional: `available()` says whether it was built, and the chain
techniques fall back to their Python searches without it (or with
`CPSUDOKU_PURE_CHAINS=1`, which the tests use to compare the two). One call runs, for
one grid, the search from every candidate as on and as off; `Reached` reads a search
back as the distance and parent dicts of `Graph.reach_from_on` and `reach_from_off`.
The nested levels call the C side for whole parts: a grid's static chains
(`static_chains`), an assumption's propagation with the plus rules (`propagate`).
"""

from __future__ import annotations

import os
from array import array
from functools import cache
from typing import Any

from .state import Layout

try:
    from . import _chaincore  # type: ignore[attr-defined]
except ImportError:  # built without a compiler: the Python searches are used
    _chaincore = None

Lit = tuple[int, int]


def available() -> bool:
    return _chaincore is not None and not os.environ.get("CPSUDOKU_PURE_CHAINS")


def flat(rows) -> tuple[bytes, bytes]:
    """Rows of ints as the C side reads them: where each row starts, then the rows."""
    start, items = [0], []
    for row in rows:
        items.extend(row)
        start.append(len(items))
    return array("i", start).tobytes(), array("i", items).tobytes()


def per_layout(build):
    """`functools.cache` for functions of a layout, keyed by the layout itself rather
    than its hash: a frozen Layout hashes every house on each call, which the chain
    searches, asking millions of times, pay for dearly."""
    known: dict[int, tuple] = {}

    def get(layout):
        hit = known.get(id(layout))
        if hit is None or hit[0] is not layout:
            hit = known[id(layout)] = (layout, build(layout))
        return hit[1]
    get.__doc__ = build.__doc__
    return get


@per_layout
def _layout_tables(layout: Layout) -> tuple[bytes, ...]:
    """Peers (in the order the Python graph visits them), the cells' houses and the
    houses' cells, flattened for the C side once per layout."""
    peer_start, peers = flat(list(p) for p in layout.peers)
    house_start, cell_houses = flat(layout.houses_of)
    house_cells = array("i", [c for h in layout.houses for c in h.cells]).tobytes()
    return peer_start, peers, house_start, cell_houses, house_cells


# the chains `static_chains` finds, by kind: (name, SE's base rating)
STATIC_KINDS = (("Bidirectional X-Cycle", 6.5), ("Bidirectional Y-Cycle", 6.5),
                ("Bidirectional Cycle", 7.0), ("Forcing X-Chain", 6.6), ("Skyscraper", 6.6),
                ("Two-String Kite", 6.6), ("Turbot Fish", 6.6), ("Forcing Chain", 7.0))


def static_chains(layout: Layout, cand: list[int]) -> list[tuple] | None:
    """A grid's bidirectional cycles (X, Y, both kinds) and forcing chains (X, both), as
    `chains.cycles` and `chains.forcing_chain_paths` find them and in their order:
    (kind in STATIC_KINDS, complexity, removed, literals with signs) each; None when
    the C side cannot."""
    if not available() or layout.size > 16:
        return None
    return _chaincore.static_chains(cand, layout.size, *_layout_tables(layout),
                                    literals(layout.size))


class Tables:
    """Every search of one grid's graph (`None` from `of` when the C side cannot)."""

    def __init__(self, ons: list[Lit], raw: tuple[bytes, ...]):
        self.ons = ons
        self.index = {lit: i for i, lit in enumerate(ons)}
        self.size = len(ons)
        views = [memoryview(b).cast("h") for b in raw]
        self.dist, self.prev, self.via, self.rank = views[:4]
        self.off_dist, self.off_prev, self.off_via = views[4:7]
        self.nearest = views[7]

    @classmethod
    def of(cls, layout: Layout, cand: list[int], ons: list[Lit], y: bool,
           x: bool, rules: tuple[bytes, ...] = ()) -> Tables | None:
        """`rules`: the rules' links as `link_tables` flattens them (none on a classic
        grid)."""
        if not available() or layout.size > 16:  # masks as C ints, tables of MBs
            return None
        raw = _chaincore.reach_tables(cand, layout.size, *_layout_tables(layout), y, x,
                                      *rules)
        return None if raw is None else cls(ons, raw)

    def from_on(self, lit: Lit) -> tuple[Reached, Reached]:
        row = self.index[lit] * self.size
        return (Reached(self, self.dist, self.prev, self.via, self.rank, row, False),
                Reached(self, self.dist, self.prev, self.via, self.rank, row, True))

    def from_off(self, lit: Lit) -> tuple[Reached, Reached]:
        """The search from `lit` off, stopped when it reaches `lit` on."""
        row = self.index[lit] * self.size
        return (Reached(self, self.off_dist, self.off_prev, self.off_via, None, row, False),
                Reached(self, self.off_dist, self.off_prev, self.off_via, None, row, True))

    def reaches_own_on(self, lit: Lit) -> bool:
        """Whether the search from `lit` off reaches `lit` on (most do not: asked before
        the search is read as dicts)."""
        i = self.index[lit]
        return self.off_dist[i * self.size + i] >= 0

    def distances_from_on(self, lit: Lit):
        """The search from `lit` on as (its row of distances, literal -> column): a
        distance read without a dict lookup per literal."""
        row = self.index[lit] * self.size
        return self.dist[row:row + self.size], self.index

    def nearest_of(self, lit: Lit) -> Lit | None:
        """The nearest literal that `lit` turns off in the search from `lit` on."""
        i = self.nearest[self.index[lit]]
        return None if i < 0 else self.ons[i]


class Reached:
    """One search read as a dict: literal -> distance, or (with `parents`) literal ->
    (the literal it was reached from, the off literal between), None where none."""

    __slots__ = ("t", "dist", "prev", "via", "rank", "row", "parents")

    def __init__(self, t: Tables, dist, prev, via, rank, row: int, parents: bool):
        self.t, self.dist, self.prev, self.via, self.rank = t, dist, prev, via, rank
        self.row, self.parents = row, parents

    def _at(self, lit: Lit) -> int:
        i = self.t.index.get(lit)
        return -1 if i is None or self.dist[self.row + i] < 0 else self.row + i

    def get(self, lit: Lit, default=None):
        at = self._at(lit)
        return default if at < 0 else self._value(at)

    def _value(self, at: int):
        if not self.parents:
            return self.dist[at]
        ons, p, v = self.t.ons, self.prev[at], self.via[at]
        return (ons[p] if p >= 0 else None, ons[v] if v >= 0 else None)

    def __getitem__(self, lit: Lit):
        at = self._at(lit)
        if at < 0:
            raise KeyError(lit)
        return self._value(at)

    def __contains__(self, lit) -> bool:
        return self._at(lit) >= 0

    def __iter__(self):
        """The literals reached, in the order reached (on searches)."""
        row, dist, ons = self.row, self.dist, self.t.ons
        reached = [i for i in range(self.t.size) if dist[row + i] >= 0]
        if self.rank is not None:
            reached.sort(key=lambda i: self.rank[row + i])
        return (ons[i] for i in reached)


@cache
def literals(size: int) -> tuple[Lit, ...]:
    """Every (cell, value) of a grid, by cell * size + value - 1: the C side hands back
    these tuples rather than making its own."""
    return tuple((c, v) for c in range(size * size) for v in range(1, size + 1))


def propagate(lit: Lit, on: bool, source: list[int], counts: list[int], size: int,
              tables: tuple[bytes, ...], y: bool, dynamic: bool, rules, layout, plus: bool,
              links: tuple[bytes, ...] = ()) -> tuple[dict, dict, Any, frozenset, dict, dict]:
    """`forcing.Chaining`'s propagation of one assumption in C: (on, off, conflict,
    by rule, causes, nested) as `Consequences` takes them; `tables` are the layout's
    house order, peer order, houses per cell and cells per house (`flat`), then the
    plus rules' (`plusrules.core_tables`); `links`, the variant rules' weak and strong
    links (`link_tables`), if any."""
    return _chaincore.propagate(lit[0] * size + lit[1] - 1, on, source, counts, size,
                                *tables, literals(size), y, dynamic, rules, layout, plus,
                                *links)


def link_tables(weak: dict[Lit, list[Lit]], strong: dict[Lit, list[Lit]],
                size: int) -> tuple[bytes, ...]:
    """The rules' links for `propagate` and `reach_tables`: per literal (cell * size +
    value - 1), the literals its being on turns off, then those its being off turns on
    (`flat`). Remembered for the last links: every chain search of a grid asks."""
    key = (id(weak), id(strong), size)
    if _LINK_TABLES and _LINK_TABLES[0][0] == key and _LINK_TABLES[0][1] is weak \
            and _LINK_TABLES[0][2] is strong:
        return _LINK_TABLES[0][3]
    tables = _link_tables(weak, strong, size)
    _LINK_TABLES[:] = [(key, weak, strong, tables)]
    return tables


_LINK_TABLES: list[tuple] = []


def _link_tables(weak: dict[Lit, list[Lit]], strong: dict[Lit, list[Lit]],
                 size: int) -> tuple[bytes, ...]:
    index = lambda lit: lit[0] * size + lit[1] - 1  # noqa: E731
    count = size ** 3
    rows_weak: list[list[int]] = [[] for _ in range(count)]
    rows_strong: list[list[int]] = [[] for _ in range(count)]
    for lit, targets in weak.items():
        rows_weak[index(lit)] = [index(t) for t in targets]
    for lit, targets in strong.items():
        rows_strong[index(lit)] = [index(t) for t in targets]
    return (*flat(rows_weak), *flat(rows_strong))


def plus_rules(size: int, source: list[int], cand: list[int], tables: tuple[bytes, ...]):
    """`plusrules.first_rule` in C; `tables` are the cells per house, then the plus
    rules' (`plusrules.core_tables`)."""
    return _chaincore.plus_rules(source, cand, size, *tables, literals(size))
