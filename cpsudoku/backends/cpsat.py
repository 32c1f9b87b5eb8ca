"""The CP-SAT backend: the model handed to OR-Tools' CP-SAT solver.

One integer variable per cell over its domain, `add_all_different` per
all-different group, linear equalities for sums, chains of `<` for less, and
tables (`add_allowed_assignments`) for allowed tuples, and for regular constraints
(made deterministic first) a chain of tables over (state, value, next state).

One worker by default: on models this small, CP-SAT's parallel portfolio costs
more to start than it saves. Counting solutions (max_solutions >= 2) always
uses one worker, whatever `workers` says: with several, the same solution can
be reported twice. OR-Tools is imported inside `search` (it takes about half a
second), so importing cpsudoku never loads it.

CP-SAT would take SIGINT for itself and report a Ctrl-C as a search stopped
early (read as a timeout, and the batch would go on): `catch_sigint_signal` is
off and the solve runs through `stopping.run_stoppable`, where a Ctrl-C calls
`stop_search` and goes on up as KeyboardInterrupt.
"""

from __future__ import annotations

import time

from ..errors import BackendError
from ..grid.constraints import AllDifferent, Allowed, Less, Regular, Sum
from ..model import Model
from ..result import Outcome
from .base import Backend, Request, nothing_to_search, out_of_time
from .stopping import load_library, run_stoppable


class CpSatBackend(Backend):
    name = "cpsat"
    description = ("OR-Tools CP-SAT: clause learning with all-different, linear "
                   "and table constraints")
    distribution = "ortools"
    module = "ortools"
    native_kinds = frozenset({"alldifferent", "sum", "less", "allowed", "regular"})
    option_names = frozenset({"workers"})

    def check_request(self, request: Request) -> None:
        super().check_request(request)
        workers_of(request)

    def search(self, model: Model, request: Request) -> Outcome:
        if any(not dom for dom in model.domains):
            return nothing_to_search()
        deadline = request.deadline
        if deadline is not None and deadline - time.monotonic() <= 0:
            return out_of_time()

        setup_started = time.monotonic()
        cp_model = load_library("ortools.sat.python.cp_model", deadline)
        if cp_model is None:
            return out_of_time()
        cells = _build(cp_model, model)
        setup_s = time.monotonic() - setup_started
        if deadline is not None and deadline - time.monotonic() <= 0:
            return out_of_time()
        solver = cp_model.CpSolver()
        counting = request.max_solutions >= 2
        workers = 1 if counting else workers_of(request)
        solver.parameters.num_workers = workers
        solver.parameters.catch_sigint_signal = False
        if deadline is not None:
            # What is left of the request's budget, after model building.
            solver.parameters.max_time_in_seconds = max(deadline - time.monotonic(), 1e-3)

        if counting:
            solver.parameters.enumerate_all_solutions = True
            collector = _collector(cp_model, cells, request.max_solutions)
            status, _ = run_stoppable(lambda: solver.solve(cells.model, collector),
                                      solver.stop_search, deadline)
            solutions = collector.solutions
            # OPTIMAL or INFEASIBLE after enumeration: every solution was seen. FEASIBLE:
            # stopped early, by the collector (enough found) or by the time limit.
            exhausted = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
            timed_out = not exhausted and len(solutions) < request.max_solutions
        else:
            status, _ = run_stoppable(lambda: solver.solve(cells.model),
                                      solver.stop_search, deadline)
            solutions = []
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                solutions.append(tuple(solver.value(v) for v in cells.vars))
            exhausted = status == cp_model.INFEASIBLE
            timed_out = status == cp_model.UNKNOWN
        if status == cp_model.MODEL_INVALID:  # pragma: no cover - a bug in _build
            raise BackendError(f"CP-SAT rejected the model: {cells.model.validate()}")
        branches = solver.num_branches
        return Outcome(solutions, exhausted=exhausted, timed_out=timed_out,
                       stats={"nodes": branches, "branches": branches,
                              "conflicts": solver.num_conflicts,
                              "solver_wall_s": round(solver.wall_time, 6), "workers": workers},
                       setup_s=setup_s)


def workers_of(request: Request) -> int:
    """The `workers` option as a positive int (default 1)."""
    raw = request.options.get("workers", 1)
    try:
        workers = int(raw)
        if isinstance(raw, float) and raw != workers:
            raise ValueError
    except (TypeError, ValueError):
        raise BackendError(f"backend 'cpsat': workers must be a whole number, "
                           f"not {raw!r}") from None
    if workers < 1:
        raise BackendError(f"backend 'cpsat': workers must be at least 1, not {workers}")
    return workers


class _Cells:
    def __init__(self, model, variables):
        self.model = model
        self.vars = variables


def _build(cp_model, model: Model) -> _Cells:
    cp = cp_model.CpModel()
    n = model.size
    variables = []
    for cell, dom in enumerate(model.domains):
        name = f"r{cell // n + 1}c{cell % n + 1}"
        lo, hi = min(dom), max(dom)
        if hi - lo + 1 == len(dom):
            variables.append(cp.new_int_var(lo, hi, name))
        else:
            variables.append(cp.new_int_var_from_domain(
                cp_model.Domain.from_values(sorted(dom)), name))
    for con in model.constraints:
        if isinstance(con, AllDifferent):
            cp.add_all_different([variables[c] for c in con.cells])
        elif isinstance(con, Sum):
            cp.add(sum(w * variables[c] for c, w in zip(con.cells, con.weights())) == con.total)
        elif isinstance(con, Less):
            for a, b in zip(con.cells, con.cells[1:]):
                cp.add(variables[a] < variables[b])
        elif isinstance(con, Allowed):
            cp.add_allowed_assignments([variables[c] for c in con.cells], con.tuples)
        elif isinstance(con, Regular):
            _add_regular(cp_model, cp, con, [variables[c] for c in con.cells], model.domains)
        else:  # pragma: no cover - lower_for decomposes every other kind
            raise TypeError(f"unexpected constraint kind {con.kind!r}")
    return _Cells(cp, variables)


def _add_regular(cp_model, cp, con: Regular, cells: list, domains) -> None:
    """A regular constraint as a chain of tables (state, value, next state), one per cell,
    each listing the moves on some accepted word. `add_automaton` would do, but when
    enumerating it reports one assignment many times over (two outside clues on one row:
    36 solutions reported 102 times): its hidden variables are not fixed by the cells'."""
    dfa = con.automaton.deterministic()
    layers = dfa.paths([domains[c] for c in con.cells])
    if not all(layers):
        cp.add_bool_or([])  # no word is accepted
        return
    state = None  # the start state: no variable needed
    for i, (cell, moves) in enumerate(zip(cells, layers)):
        if i == len(cells) - 1:
            if state is None:
                cp.add_allowed_assignments([cell], sorted({(v,) for _, v, _ in moves}))
            else:
                cp.add_allowed_assignments([state, cell], sorted({(s, v) for s, v, _ in moves}))
            return
        targets = sorted({t for _, _, t in moves})
        nxt = cp.new_int_var_from_domain(cp_model.Domain.from_values(targets), "")
        if state is None:
            cp.add_allowed_assignments([cell, nxt], sorted({(v, t) for _, v, t in moves}))
        else:
            cp.add_allowed_assignments([state, cell, nxt], sorted(set(moves)))
        state = nxt


def _collector(cp_model, cells: _Cells, limit: int):
    """A solution callback that keeps solutions and stops the search at `limit`."""

    class Collector(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.solutions: list[tuple[int, ...]] = []

        def on_solution_callback(self):
            self.solutions.append(tuple(self.value(v) for v in cells.vars))
            if len(self.solutions) >= limit:
                self.stop_search()

    return Collector()
