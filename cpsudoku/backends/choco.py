"""The choco backend: the model handed to the Choco solver (a classic CP solver) through pychoco.

One integer variable per cell over its domain; all-different with Régin's
arc-consistent filtering ("AC": domain consistency, where CP-SAT learns
clauses instead); sums as `scalar` constraints (any coefficients); `<` as
`arithm`; tables with Choco's compact-table algorithm; regular constraints as
Choco's `regular` over a deterministic automaton. Search is Choco's
default (dom/wdeg with restarts on the cell variables).

Each `solve()` of Choco's solver returns the next solution, so counting
enumerates up to `max_solutions`. The time limit is Choco's own
(`limit_time`), given what is left of the request's budget after building.
pychoco holds the interpreter while Choco searches (no signal is taken, no
other thread runs), so the search runs in a child process (`solver_process`)
that stays up between puzzles: a Ctrl-C kills it at once, and a search that
overruns its deadline is killed there.
"""

from __future__ import annotations

import time
from typing import ClassVar

from ..grid.constraints import AllDifferent, Allowed, Less, Regular, Sum
from ..grid.geometry import cell_name
from ..model import Model
from ..result import Outcome
from .base import Backend, Request, nothing_to_search
from .solver_process import search_in_child

PRELOAD = ("pychoco", "pychoco.backend")  # imported once by the child process


class ChocoBackend(Backend):
    name: ClassVar[str] = "choco"
    description: ClassVar[str] = ("pychoco: the Choco CP solver, domain-consistent all-different, "
                                  "scalar sums, compact tables")
    distribution: ClassVar[str | None] = "pychoco"
    extra: ClassVar[str | None] = "choco"
    module: ClassVar[str | None] = "pychoco"
    native_kinds: ClassVar[frozenset[str]] = frozenset({"alldifferent", "sum", "less", "allowed",
                                                         "regular"})

    def search(self, model: Model, request: Request) -> Outcome:
        if any(not dom for dom in model.domains):
            return nothing_to_search()
        # Only what the search reads: the puzzle's rules may be classes the child
        # cannot import (a rule defined in a script).
        payload = (model.width, model.domains, model.constraints, request.max_solutions,
                   request.deadline)
        solutions, end = search_in_child(PRELOAD, f"{__name__}:solve_in_child", payload,
                                         request.deadline)
        if end is None:  # killed at the deadline (or still importing pychoco)
            end = {"exhausted": False, "timed_out": True, "stats": {}}
        return Outcome(solutions, exhausted=end["exhausted"], timed_out=end["timed_out"],
                       stats=end["stats"])


def solve_in_child(payload, send) -> dict:
    """Build the Choco model and search, in the child process: each solution is sent
    as found; returns how the search ended."""
    import pychoco
    from pychoco import backend as choco_c

    width, domains, constraints, max_solutions, deadline = payload
    cp = pychoco.Model("cpsudoku")
    cells = [_variable(cp, cell, dom, width) for cell, dom in enumerate(domains)]
    if not all([_post(cp, con, cells) for con in constraints]):
        return {"exhausted": True, "timed_out": False, "stats": {}}
    solver = cp.get_solver()
    if deadline is not None:
        left = deadline - time.monotonic()
        if left <= 0:
            return {"exhausted": False, "timed_out": True, "stats": {}}
        solver.limit_time(f"{left:.3f}s")
    found = 0
    exhausted = timed_out = False
    while found < max_solutions:
        if not solver.solve():
            # TERMINATED: the whole tree was explored; STOPPED: the time limit.
            exhausted = solver.get_search_state() == "TERMINATED"
            timed_out = not exhausted
            break
        send(tuple(v.get_value() for v in cells))
        found += 1
    # pychoco 0.4's Solver.get_node_count is shadowed by a copy returning the time.
    stats = {"nodes": choco_c.get_node_count(solver._handle),
             "backtracks": solver.get_backtrack_count(), "fails": solver.get_fail_count()}
    return {"exhausted": exhausted, "timed_out": timed_out, "stats": stats}


def _variable(cp, cell: int, dom: frozenset[int], width: int):
    name = cell_name(cell, width)
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
    elif isinstance(con, Regular):
        dfa = con.automaton.deterministic()
        if not dfa.accepting:
            return False
        cp.regular([cells[c] for c in con.cells], _finite_automaton(dfa)).post()
    else:  # pragma: no cover - lower_for decomposes every other kind
        raise TypeError(f"unexpected constraint kind {con.kind!r}")
    return True


def _finite_automaton(dfa):
    """Choco's FiniteAutomaton of a deterministic `Automaton`."""
    from pychoco.objects.automaton.finite_automaton import FiniteAutomaton

    fa = FiniteAutomaton()
    for _ in range(dfa.states):
        fa.add_state()
    fa.set_initial_state(dfa.start)
    fa.set_final(*sorted(dfa.accepting))
    for s, v, t in dfa.transitions:
        fa.add_transition(s, t, v)
    return fa
