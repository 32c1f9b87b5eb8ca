"""The dlx backend: exact cover by Knuth's Algorithm X with dancing links.

A row is one choice "cell c takes value v" (one per value of the cell's
domain). It covers the item of its cell, and per all-different group through
the cell the item (group, v). An item must be covered exactly once (primary)
when it must be: every cell, and every value of a group with as many cells as
values (rows, columns, boxes, jigsaw regions, diagonals, extra regions); at
most once (secondary, Knuth's generalisation) otherwise: a group with more
values than cells (a killer cage's digits, an anti-knight pair, a row when the
grid has more digits than a row has cells).

Sums, orderings and tables are not exact cover: `lower_for` declines them with
one line, as `naive` declines what it cannot do.

The links are flat integer lists (left, right, up, down, item of each node)
rather than objects: in CPython that is several times faster. The search
chooses the primary item with the fewest rows left (Knuth's MRV heuristic).
"""

from __future__ import annotations

import sys
import time
from typing import ClassVar

from ..engine.clock import OutOfTime, check_clock
from ..grid.constraints import AllDifferent
from ..model import Model
from ..result import Outcome
from .base import Backend, Request, nothing_to_search, out_of_time

CHECK_CLOCK_EVERY = 64  # nodes between two looks at the clock (a 25x25 node: ~0.1 ms)


class DlxBackend(Backend):
    name: ClassVar[str] = "dlx"
    description: ClassVar[str] = ("exact cover: Knuth's Algorithm X with dancing links "
                                  "(all-different groups only)")
    native_kinds: ClassVar[frozenset[str]] = frozenset({"alldifferent"})

    def search(self, model: Model, request: Request) -> Outcome:
        try:
            links = _Links(model, request.deadline)
        except OutOfTime:
            return out_of_time()
        ncells = len(model.domains)
        grid = [0] * ncells
        deadline = request.deadline
        solutions: list[tuple[int, ...]] = []
        nodes = 0
        L, R, U, D, C, S = links.L, links.R, links.U, links.D, links.C, links.S
        row_of = links.row_of
        chosen: list[int] = []

        def cover(i: int) -> None:
            L[R[i]], R[L[i]] = L[i], R[i]
            j = D[i]
            while j != i:
                k = R[j]
                while k != j:
                    U[D[k]], D[U[k]] = U[k], D[k]
                    S[C[k]] -= 1
                    k = R[k]
                j = D[j]

        def uncover(i: int) -> None:
            j = U[i]
            while j != i:
                k = L[j]
                while k != j:
                    S[C[k]] += 1
                    U[D[k]] = D[U[k]] = k
                    k = L[k]
                j = U[j]
            L[R[i]] = R[L[i]] = i

        def solve() -> bool:
            """Search on; True once enough solutions are found."""
            nonlocal nodes
            head = 0
            if R[head] == head:
                for node in chosen:
                    cell, value = row_of[node]
                    grid[cell] = value
                solutions.append(tuple(grid))
                return len(solutions) >= request.max_solutions
            best, fewest = -1, 1 << 30
            i = R[head]
            while i != head:
                if S[i] < fewest:
                    best, fewest = i, S[i]
                    if fewest <= 1:
                        break
                i = R[i]
            if fewest == 0:
                return False
            cover(best)
            r = D[best]
            while r != best:
                nodes += 1
                if deadline is not None and nodes % CHECK_CLOCK_EVERY == 0 \
                        and time.monotonic() > deadline:
                    raise OutOfTime
                chosen.append(r)
                j = R[r]
                while j != r:
                    cover(C[j])
                    j = R[j]
                done = solve()
                j = L[r]
                while j != r:
                    uncover(C[j])
                    j = L[j]
                chosen.pop()
                if done:
                    uncover(best)
                    return True
                r = D[r]
            uncover(best)
            return False

        # Givens are chosen before the search: their rows cover their items for good.
        if links.impossible:
            return nothing_to_search()
        for node in links.given_rows:
            for j in _row_nodes(node, R):
                if links.removed[C[j]]:
                    # Two givens on one item: a contradiction find_conflicts missed.
                    return nothing_to_search()
            for j in _row_nodes(node, R):
                cover(C[j])
                links.removed[C[j]] = True
            chosen.append(node)
        if sys.getrecursionlimit() < ncells + 200:
            sys.setrecursionlimit(ncells + 200)
        exhausted, timed_out = True, False
        try:
            exhausted = not solve()
        except OutOfTime:
            exhausted, timed_out = False, True
        return Outcome(solutions, exhausted, timed_out, {"nodes": nodes})


def _row_nodes(node: int, R: list[int]) -> list[int]:
    out = [node]
    j = R[node]
    while j != node:
        out.append(j)
        j = R[j]
    return out


class _Links:
    """The dancing-links matrix of a model: node 0 is the root, nodes 1..items
    the item headers (primary ones linked into the root's row, secondary ones
    each linked to itself), then one node per (row, item) pair."""

    def __init__(self, model: Model, deadline: float | None = None):
        domains = model.domains
        ncells = len(domains)
        # A cell with no value, or a group naming a cell twice, has no cover at all.
        self.impossible = any(not dom for dom in domains)
        groups = []
        for con in model.constraints:
            if not isinstance(con, AllDifferent):  # pragma: no cover - lower_for declined it
                raise TypeError(f"unexpected constraint kind {con.kind!r}")
            cells = tuple(dict.fromkeys(con.cells))
            self.impossible |= len(cells) != len(con.cells)
            values = frozenset().union(*(domains[c] for c in cells))
            groups.append((cells, values, len(values) == len(cells)))
        # Items: cells first (primary), then (group, value) pairs.
        item_of: dict[tuple[int, int], int] = {}
        primary = [True] * ncells
        for g, (_, values, exact) in enumerate(groups):
            for v in sorted(values):
                item_of[(g, v)] = ncells + len(item_of)
                primary.append(exact)
        nitems = len(primary)
        groups_of: list[list[int]] = [[] for _ in range(ncells)]
        for g, (cells, _, _) in enumerate(groups):
            for c in cells:
                groups_of[c].append(g)
        # Headers are nodes 1..nitems; item k (0-based) is node k + 1.
        size = nitems + 1
        self.L = L = list(range(-1, size - 1))
        self.R = R = list(range(1, size + 1))
        self.U = U = list(range(size))
        self.D = D = list(range(size))
        self.C = C = list(range(size))
        self.S = [0] * size
        prim = [k + 1 for k in range(nitems) if primary[k]]
        ring = [0] + prim
        for a, b in zip(ring, ring[1:] + ring[:1]):
            R[a], L[b] = b, a
        for k in range(nitems):
            if not primary[k]:
                L[k + 1] = R[k + 1] = k + 1
        self.row_of: list[tuple[int, int]] = [(-1, 0)] * size  # node -> (cell, value)
        self.given_rows: list[int] = []
        self.removed = [False] * size
        for cell, dom in enumerate(domains):
            if cell % 64 == 0:
                check_clock(deadline)
            for value in sorted(dom):
                items = [cell] + [item_of[(g, value)] for g in groups_of[cell]]
                first = len(L)
                for n, item in enumerate(items):
                    node = first + n
                    header = item + 1
                    L.append(first + (n - 1) % len(items))
                    R.append(first + (n + 1) % len(items))
                    U.append(U[header])
                    D.append(header)
                    C.append(header)
                    D[U[header]] = node
                    U[header] = node
                    self.S[header] += 1
                    self.row_of.append((cell, value))
                if len(dom) == 1:
                    self.given_rows.append(first)
