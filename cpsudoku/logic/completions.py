"""Completions of one rule over the candidates: the one enumeration that the by-rule
steps (which values some completion gives a cell) and the rules' weak links (which
pairs of values no completion holds together) both read.

Cells are tried fewest candidates first; each constraint is checked as soon as one of
its cells is set (a sum by the bounds its open cells still allow, an order and a
no-repeat on the cells set so far, anything else once all its cells are set).
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Sequence

from ..grid.automaton import Automaton
from ..grid.constraints import AllDifferent, Allowed, Constraint, Less, Regular, Sum
from .state import bit_values, popcount

try:  # the same search compiled; without a compiler the Python one below
    from . import _completions  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _completions = None

NO_LIMIT = 1 << 62


class TooMany(Exception):
    """A rule's completions passed the number asked for."""


def compiled() -> bool:
    """Whether the compiled search is used (CPSUDOKU_PURE_COMPLETIONS turns it off)."""
    return _completions is not None and not os.environ.get("CPSUDOKU_PURE_COMPLETIONS")


def completions(constraints: Sequence[Constraint], cells: Sequence[int],
                domains: Sequence[int], node_limit: int,
                visit: Callable[[list[int]], None], max_rows: int | None = None) -> bool:
    """Call `visit(values)` (one value per cell of `cells`, in their order) for every
    completion of `constraints` over `domains` (a bit mask per cell); False when the
    enumeration passed `node_limit` values tried (some completions then went unseen,
    and those seen may not have been visited). Past `max_rows` completions, `TooMany`
    is raised."""
    index = {c: i for i, c in enumerate(cells)}
    order = sorted(range(len(cells)), key=lambda i: popcount(domains[i]))
    if compiled() and all(m < 1 << 31 for m in domains):
        return _compiled(constraints, index, domains, order, node_limit, visit,
                         NO_LIMIT if max_rows is None else max_rows)
    rows = 0
    if max_rows is not None:
        inner = visit

        def visit(values: list[int]) -> None:
            nonlocal rows
            if rows >= max_rows:
                raise TooMany
            rows += 1
            inner(values)
    assigned = [0] * len(cells)
    checks = [(con, [index[c] for c in con.cells]) for con in constraints]
    watch: list[list[int]] = [[] for _ in cells]
    for n, (_con, idx) in enumerate(checks):
        for i in idx:
            watch[i].append(n)
    nodes = 0

    def consistent(i: int) -> bool:
        for n in watch[i]:
            con, idx = checks[n]
            vals = [assigned[j] for j in idx]
            if isinstance(con, AllDifferent):
                seen = [v for v in vals if v]
                if len(seen) != len(set(seen)):
                    return False
            elif isinstance(con, Less):
                if any(a and b and not a < b for a, b in zip(vals, vals[1:])):
                    return False
            elif isinstance(con, Sum):  # the total still reachable from the open cells
                lo = hi = 0
                for w, j, v in zip(con.weights(), idx, vals):
                    if v:
                        lo += w * v
                        hi += w * v
                    else:
                        vs = bit_values(domains[j])
                        lo += min(w * vs[0], w * vs[-1])
                        hi += max(w * vs[0], w * vs[-1])
                if not lo <= con.total <= hi:
                    return False
            elif all(vals) and not con.holds(vals):
                return False
        return True

    def search(pos: int) -> None:
        nonlocal nodes
        if pos == len(order):
            visit(assigned)
            return
        i = order[pos]
        for v in bit_values(domains[i]):
            nodes += 1
            if nodes > node_limit:
                raise _TooWide
            assigned[i] = v
            if consistent(i):
                search(pos + 1)
            assigned[i] = 0

    try:
        search(0)
    except _TooWide:
        return False
    return True


def _compiled(constraints: Sequence[Constraint], index: dict[int, int],
              domains: Sequence[int], order: list[int], node_limit: int,
              visit: Callable[[list[int]], None], max_rows: int) -> bool:
    k = len(index)
    status, rows = _completions.completions(
        k, tuple(domains), tuple(order), tuple(_check(con, index) for con in constraints),
        node_limit, max_rows)
    if status == 2:
        raise TooMany
    if status == 0:  # past the node limit the caller reads none of them
        values = list(rows)
        for start in range(0, len(values), k):
            visit(values[start:start + k])
    return status == 0


def _check(con: Constraint, index: dict[int, int]) -> tuple:
    """A constraint as the compiled search reads it: (kind, cell indexes, extra), the
    kinds checked as the Python `consistent` checks them."""
    idx = tuple(index[c] for c in con.cells)
    if isinstance(con, AllDifferent):
        return 0, idx, None
    if isinstance(con, Less):
        return 1, idx, None
    if isinstance(con, Sum):
        return 2, idx, (tuple(con.weights()), con.total)
    if isinstance(con, Allowed) and idx:
        rows = _packed(con, _table_rows)
        if rows is not None:
            return 3, idx, rows
    if isinstance(con, Regular):
        return 5, idx, _packed(con.automaton, _moves)
    return 4, idx, con.holds


def _packed(thing, pack):
    """`pack(thing)`, remembered by the thing itself: a rule's tables and automata are
    read again on every enumeration of the rule."""
    known = _PACKED.get(id(thing))
    if known is None or known[0] is not thing:
        if len(_PACKED) > 4096:
            _PACKED.clear()
        known = _PACKED[id(thing)] = (thing, pack(thing))
    return known[1]


_PACKED: dict[int, tuple] = {}  # id -> (the table or automaton, its packed form)


def _table_rows(con: Allowed) -> bytes | None:
    """A table's rows, one byte a value; None when a value does not fit a byte."""
    if not all(0 < v < 256 for t in con.tuples for v in t):
        return None
    return bytes(v for t in con.tuples for v in t)


def _moves(automaton: Automaton) -> tuple[int, int, bytes, bytes, bytes]:
    """An automaton as the compiled search reads it: (states, start, where the next
    states of state * 32 + value start, the next states, accepting per state), the
    values past 0..31 left out (no cell takes them)."""
    states = automaton.states
    rows: list[list[int]] = [[] for _ in range(states * VALUES)]
    for (s, v), targets in automaton.moves.items():
        if 0 <= v < VALUES:
            rows[s * VALUES + v] = list(targets)
    start, to = [0], []
    for row in rows:
        to.extend(row)
        start.append(len(to))
    return (states, automaton.start, array("i", start).tobytes(), array("i", to).tobytes(),
            bytes(1 if s in automaton.accepting else 0 for s in range(states)))


VALUES = 32  # the compiled search's moves per state, by value 0..31


class _TooWide(Exception):
    """The enumeration passed its node limit."""
