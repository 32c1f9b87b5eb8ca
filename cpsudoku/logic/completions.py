"""Completions of one rule over the candidates: the one enumeration that the by-rule
steps (which values some completion gives a cell) and the rules' weak links (which
pairs of values no completion holds together) both read.

Cells are tried fewest candidates first; each constraint is checked as soon as one of
its cells is set (a sum by the bounds its open cells still allow, an order and a
no-repeat on the cells set so far, anything else once all its cells are set).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..grid.constraints import AllDifferent, Constraint, Less, Sum
from .state import bit_values, popcount


def completions(constraints: Sequence[Constraint], cells: Sequence[int],
                domains: Sequence[int], node_limit: int,
                visit: Callable[[list[int]], None]) -> bool:
    """Call `visit(values)` (one value per cell of `cells`, in their order) for every
    completion of `constraints` over `domains` (a bit mask per cell); False when the
    enumeration passed `node_limit` values tried (some completions then went unseen)."""
    index = {c: i for i, c in enumerate(cells)}
    order = sorted(range(len(cells)), key=lambda i: popcount(domains[i]))
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


class _TooWide(Exception):
    """The enumeration passed its node limit."""
