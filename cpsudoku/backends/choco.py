"""The choco backend: the model handed to the Choco solver (a classic CP solver) through pychoco.

One integer variable per cell over its domain; all-different with Régin's
arc-consistent filtering ("AC": domain consistency, where CP-SAT learns
clauses instead); sums as `scalar` constraints (any coefficients); `<` as
`arithm`; tables with Choco's compact-table algorithm. Search is Choco's
default (dom/wdeg with restarts on the cell variables).

Each `solve()` of Choco's solver returns the next solution, so counting
enumerates up to `max_solutions`. The time limit is Choco's own
(`limit_time`), given what is left of the request's budget after building.
pychoco holds the interpreter while Choco searches: a Ctrl-C is taken when
the current `solve()` returns (after each solution, or at the time limit),
and then stops the batch like any other (nothing of this puzzle is kept).
"""

from __future__ import annotations

import time
from typing import ClassVar

from ..constraints import AllDifferent, Allowed, Less, Sum
from ..model import Model
from ..result import Outcome
from .base import Backend, Request, nothing_to_search, out_of_time
from .stopping import load_library


class ChocoBackend(Backend):
    name: ClassVar[str] = "choco"
    description: ClassVar[str] = ("pychoco: the Choco CP solver, domain-consistent all-different, "
                                  "scalar sums, compact tables")
    distribution: ClassVar[str | None] = "pychoco"
    extra: ClassVar[str | None] = "choco"
    module: ClassVar[str | None] = "pychoco"
    native_kinds: ClassVar[frozenset[str]] = frozenset({"alldifferent", "sum", "less", "allowed"})

    def search(self, model: Model, request: Request) -> Outcome:
        if any(not dom for dom in model.domains):
            return nothing_to_search()
        deadline = request.deadline
        pychoco = load_library("pychoco", deadline)
        if pychoco is None:
            return out_of_time()
        from pychoco import backend as choco_c  # loaded with pychoco

        cp = pychoco.Model("cpsudoku")
        cells = [_variable(cp, cell, dom, model.size) for cell, dom in enumerate(model.domains)]
        if not all([_post(cp, con, cells) for con in model.constraints]):
            return nothing_to_search()
        solver = cp.get_solver()
        solutions: list[tuple[int, ...]] = []
        exhausted = timed_out = False
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                return out_of_time()
            solver.limit_time(f"{left:.3f}s")
        while len(solutions) < request.max_solutions:
            if not solver.solve():
                # TERMINATED: the whole tree was explored; STOPPED: the time limit.
                exhausted = solver.get_search_state() == "TERMINATED"
                timed_out = not exhausted
                break
            solutions.append(tuple(v.get_value() for v in cells))
        handle = solver._handle
        # pychoco 0.4's Solver.get_node_count is shadowed by a copy returning the time.
        return Outcome(solutions, exhausted=exhausted, timed_out=timed_out,
                       stats={"nodes": choco_c.get_node_count(handle),
                              "backtracks": solver.get_backtrack_count(),
                              "fails": solver.get_fail_count()})


def _variable(cp, cell: int, dom: frozenset[int], size: int):
    name = f"r{cell // size + 1}c{cell % size + 1}"
    values = sorted(dom)
    if values[-1] - values[0] + 1 == len(values):
        return cp.intvar(values[0], values[-1], name=name)
    return cp.intvar(values, name=name)


def _post(cp, con, cells) -> bool:
    """Post `con` on the Choco model; False when it can never hold (no tuple, 0 == 5)."""
    if isinstance(con, AllDifferent):
        if len(con.cells) > 1:
            cp.all_different([cells[c] for c in con.cells], "AC").post()
    elif isinstance(con, Sum):
        terms: dict[int, int] = {}
        for c, w in zip(con.cells, con.weights()):
            terms[c] = terms.get(c, 0) + w  # Choco refuses a variable twice in one scalar
        terms = {c: w for c, w in terms.items() if w}
        if not terms:
            return con.total == 0
        cp.scalar([cells[c] for c in terms], list(terms.values()), "=", con.total).post()
    elif isinstance(con, Less):
        for a, b in zip(con.cells, con.cells[1:]):
            cp.arithm(cells[a], "<", cells[b]).post()
    elif isinstance(con, Allowed):
        if not con.tuples:
            return False
        cp.table([cells[c] for c in con.cells], [list(t) for t in con.tuples]).post()
    else:  # pragma: no cover - lower_for decomposes every other kind
        raise TypeError(f"unexpected constraint kind {con.kind!r}")
    return True
