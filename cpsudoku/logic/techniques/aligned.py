"""Aligned pair exclusion (6.2) and aligned triplet exclusion (7.5).

Take two (or three) cells and every combination of their candidates. A combination is
impossible when two of the cells see each other and get the same value, or when a cell
seen by all of them ("excluder", holding at most as many candidates as there are base
cells) would be left with none. A candidate that appears in no possible combination
is removed. SE looks only at excluders with 2..k candidates and wants two of them.
"""

from __future__ import annotations

import os
from functools import lru_cache
from itertools import combinations, product

from ..chaincore import flat, per_layout
from ..state import Layout, State, bit_values, popcount
from ..step import cells_text, make_step
from ..technique import technique

try:  # the same search compiled; without a compiler the Python one below
    from .. import _aligned  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _aligned = None


def compiled() -> bool:
    """Whether the compiled search is used (CPSUDOKU_PURE_ALIGNED turns it off)."""
    return _aligned is not None and not os.environ.get("CPSUDOKU_PURE_ALIGNED")


def _base_cells(state: State, degree: int) -> dict[int, frozenset[int]]:
    """Cell -> its excluders, for cells that have some (SE skips cells next to a single)."""
    cand, peers = state.cand, state.layout.peers
    out = {}
    for c, m in enumerate(cand):
        if popcount(m) < 2:
            continue
        seen = [p for p in peers[c] if cand[p]]
        if any(popcount(cand[p]) == 1 for p in seen):
            continue
        excl = frozenset(p for p in seen if popcount(cand[p]) <= degree)
        if excl:
            out[c] = excl
    return out


def _exclusion(state: State, cells: tuple[int, ...], excluders: list[int]):
    """Eliminations among `cells` given their common excluders."""
    cand, peers = state.cand, state.layout.peers
    union = 0
    for c in cells:
        union |= cand[c]
    # only an excluder whose candidates the base cells can all take can be emptied
    ex_masks = [cand[e] for e in excluders if not cand[e] & ~union]
    if not ex_masks:
        return []
    linked = tuple((i, j) for i, j in combinations(range(len(cells)), 2)
                   if cells[j] in peers[cells[i]])
    full = tuple(cand[c] for c in cells)
    allowed = _allowed(full, linked, tuple(sorted(set(ex_masks))))
    return [(c, v) for i, c in enumerate(cells) for v in bit_values(cand[c] & ~allowed[i])]


@lru_cache(maxsize=1 << 16)
def _allowed(full: tuple[int, ...], linked, ex_masks) -> tuple[int, ...]:
    """Per cell, the values some possible combination gives it (remembered: from one step
    to the next most cells and excluders are unchanged)."""
    allowed = [0] * len(full)
    for values in product(*(bit_values(m) for m in full)):
        if any(values[i] == values[j] for i, j in linked):
            continue
        mask = 0
        for v in values:
            mask |= 1 << (v - 1)
        if any(not m & ~mask for m in ex_masks):
            continue
        for i, v in enumerate(values):
            allowed[i] |= 1 << (v - 1)
        if tuple(allowed) == full:
            break
    return tuple(allowed)


def _steps(state: State, degree: int, name: str, rating: float, groups):
    n = state.size
    for cells, excluders, elims in _found(state, degree, groups):
        yield make_step(name, rating, n,
                        what=f"{cells_text(cells, n)} (excluders {cells_text(excluders, n)})",
                        eliminations=elims, cells=list(cells) + excluders)


def _found(state: State, degree: int, groups):
    """(cells, excluders, eliminations) of every group that removes something, in the
    order of `groups`."""
    if compiled():
        return _aligned.aligned(state.cand, *_peer_rows(state.layout), degree)
    return ((cells, excluders, elims)
            for cells, excluders in groups(_base_cells(state, degree), state.cand)
            if (elims := _exclusion(state, cells, excluders)))


@per_layout
def _peer_rows(layout: Layout) -> tuple[bytes, bytes]:
    """Each cell's peers, in the order `_base_cells` reads them, for the C side."""
    return flat(list(p) for p in layout.peers)


def _pairs(base: dict[int, frozenset[int]], cand: list[int]):
    """(pair of base cells, their common excluders) where SE wants two or more."""
    seeing: dict[int, list[int]] = {}
    for c, excl in base.items():
        for e in excl:
            seeing.setdefault(e, []).append(c)
    pairs: set[tuple[int, int]] = set()
    for cells in seeing.values():
        pairs.update(combinations(sorted(cells), 2))
    for a, b in sorted(pairs):
        common = base[a] & base[b]
        if len(common) >= 2:
            yield (a, b), sorted(common)


def _triples(base: dict[int, frozenset[int]], cand: list[int]):
    """SE's triples: a pair, and a third base cell that is an excluder of one of the two;
    kept when one of their common excluders holds only values the three can take."""
    keys = base.keys()
    done = set()
    for (a, b), common in _pairs(base, cand):
        ab = cand[a] | cand[b]
        shared = frozenset(common)
        for c in sorted((base[a] | base[b]) & keys):
            excluders = base[c] & shared
            if len(excluders) < 2 or c == a or c == b:
                continue
            union = ab | cand[c]
            if all(cand[e] & ~union for e in excluders):
                continue
            key = tuple(sorted((a, b, c)))
            if key not in done:
                done.add(key)
                yield key, sorted(excluders)


@technique("Aligned Pair Exclusion", 6.2, stage="aligned pair")
def aligned_pair_exclusion(state: State):
    yield from _steps(state, 2, "Aligned Pair Exclusion", 6.2, _pairs)


@technique("Aligned Triplet Exclusion", 7.5, stage="aligned triplet")
def aligned_triplet_exclusion(state: State):
    yield from _steps(state, 3, "Aligned Triplet Exclusion", 7.5, _triples)

