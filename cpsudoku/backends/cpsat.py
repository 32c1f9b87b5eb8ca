"""The CP-SAT backend: the model handed to OR-Tools' CP-SAT solver.

One integer variable per cell over its domain, `add_all_different` per
all-different group, linear equalities for sums, chains of `<` for less, and
tables (`add_allowed_assignments`) for allowed tuples, and for regular constraints
(made deterministic first) a chain of tables over (state, value, next state); an
either/or (`AnyOf`) is a literal per alternative enforcing its constraints, one true.

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
from typing import Any

from ..errors import BackendError
from ..grid.constraints import AllDifferent, Allowed, AnyOf, InSet, Less, Regions, Regular, Sum
from ..grid.geometry import cell_name
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
    native_kinds = frozenset({"alldifferent", "sum", "less", "allowed", "regular", "regions",
                              "anyof"})
    option_names = frozenset({"workers"})
    auxiliary = True

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
    ncells = len(model.domains)
    variables = []
    for cell, dom in enumerate(model.all_domains):
        name = cell_name(cell, model.width) if cell < ncells else f"aux{cell - ncells}"
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
            _add_regular(cp_model, cp, con, [variables[c] for c in con.cells], model.all_domains)
        elif isinstance(con, Regions):
            _add_regions(cp, con, [variables[c] for c in con.cells], model.values)
        elif isinstance(con, AnyOf):
            _add_any_of(cp_model, cp, con, variables, model.all_domains)
        else:  # pragma: no cover - lower_for decomposes every other kind
            raise TypeError(f"unexpected constraint kind {con.kind!r}")
    return _Cells(cp, variables)


def _add_any_of(cp_model, cp, con: AnyOf, variables: list, domains, within=None) -> None:
    """At least one alternative holds: a literal per alternative enforces its constraints,
    and one of them is true. Inside an enclosing alternative (`within`, its literal) the
    literals imply it, so that they are all false when it is. A literal may be false while
    its alternative holds: enumeration then meets one assignment of the cells more than
    once, and the collector keeps it once."""
    chosen = [cp.new_bool_var("") for _ in con.alternatives]
    at_least = cp.add_bool_or(chosen)
    if within is not None:
        at_least.only_enforce_if(within)
        for literal in chosen:
            cp.add_implication(literal, within)
    for literal, group in zip(chosen, con.alternatives):
        for part in group:
            _add_enforced(cp_model, cp, part, variables, domains, literal)


def _add_enforced(cp_model, cp, con, variables: list, domains, literal) -> None:
    """One constraint of an alternative, holding when `literal` is true."""
    cells = [variables[c] for c in con.cells]
    if isinstance(con, AllDifferent):
        for i, a in enumerate(cells):
            for b in cells[i + 1:]:
                cp.add(a != b).only_enforce_if(literal)
    elif isinstance(con, Sum):
        cp.add(sum(w * v for v, w in zip(cells, con.weights())) == con.total
               ).only_enforce_if(literal)
    elif isinstance(con, Less):
        for a, b in zip(cells, cells[1:]):
            cp.add(a < b).only_enforce_if(literal)
    elif isinstance(con, Allowed):
        cp.add_allowed_assignments(cells, con.tuples).only_enforce_if(literal)
    elif isinstance(con, InSet):
        allowed = cp_model.Domain.from_values(sorted(con.values))
        for v in cells:
            cp.add_linear_expression_in_domain(v, allowed).only_enforce_if(literal)
    elif isinstance(con, Regular):
        _add_regular(cp_model, cp, con, cells, domains, literal)
    elif isinstance(con, AnyOf):
        _add_any_of(cp_model, cp, con, variables, domains, literal)
    else:  # pragma: no cover - an alternative holds only the vocabulary's kinds
        raise TypeError(f"unexpected constraint kind {con.kind!r} in an alternative")


def _add_regular(cp_model, cp, con: Regular, cells: list, domains, literal=None) -> None:
    """A regular constraint as a chain of tables (state, value, next state), one per cell,
    each listing the moves on some accepted word. `add_automaton` would do, but when
    enumerating it reports one assignment many times over (two outside clues on one row:
    36 solutions reported 102 times): its hidden variables are not fixed by the cells'.
    With a `literal` (an alternative of an AnyOf) the tables hold when it is true, and
    the states are pinned when it is false, for the same reason."""
    def add(table):
        if literal is not None:
            table.only_enforce_if(literal)

    dfa = con.automaton.deterministic()
    layers = dfa.paths([domains[c] for c in con.cells])
    if not all(layers):
        add(cp.add_bool_or([]))  # no word is accepted
        return
    state = None  # the start state: no variable needed
    for i, (cell, moves) in enumerate(zip(cells, layers)):
        if i == len(cells) - 1:
            if state is None:
                add(cp.add_allowed_assignments([cell], sorted({(v,) for _, v, _ in moves})))
            else:
                add(cp.add_allowed_assignments([state, cell],
                                               sorted({(s, v) for s, v, _ in moves})))
            return
        targets = sorted({t for _, _, t in moves})
        nxt = cp.new_int_var_from_domain(cp_model.Domain.from_values(targets), "")
        if literal is not None:
            cp.add(nxt == targets[0]).only_enforce_if(~literal)
        if state is None:
            add(cp.add_allowed_assignments([cell, nxt], sorted({(v, t) for _, v, t in moves})))
        else:
            add(cp.add_allowed_assignments([state, cell, nxt], sorted(set(moves))))
        state = nxt


def _add_regions(cp, con: Regions, cells: list, values: int) -> None:
    """Regions found while solving. Each cell's (label, digit) pair is one of N*V, all
    different: every region has N cells, all different (each digit once when V = N).
    Connectivity: each cell's distance to its region's root (the region's first cell
    in reading order) is one more than its nearest same-region neighbour's. Every
    helper variable is a function of the digits and the partition, so enumerating
    reports each solution once."""
    n = con.width
    digits, labels = cells[:n * n], cells[n * n:]
    pairs = []
    for digit, label in zip(digits, labels):
        pair = cp.new_int_var(1, n * values, "")
        cp.add(pair == values * label + digit - values)
        pairs.append(pair)
    cp.add_all_different(pairs)
    # the same as 0/1 choices, which CP-SAT's linear reasoning reads better: label k
    # holds digit v in one cell at most, exactly one when N cells take all V values
    is_label = [[cp.new_bool_var("") for _ in range(n)] for _ in labels]
    is_digit = [[cp.new_bool_var("") for _ in range(values)] for _ in digits]
    for i in range(n * n):
        cp.add_map_domain(labels[i], is_label[i], 1)
        cp.add_map_domain(digits[i], is_digit[i], 1)
    for k in range(n):
        cp.add(sum(is_label[i][k] for i in range(n * n)) == n)
        for v in range(values):
            both = []
            for i in range(n * n):
                b = cp.new_bool_var("")
                cp.add_implication(b, is_label[i][k])
                cp.add_implication(b, is_digit[i][v])
                cp.add_bool_or([~is_label[i][k], ~is_digit[i][v], b])
                both.append(b)
            if values == n:
                cp.add_exactly_one(both)
            else:
                cp.add_at_most_one(both)
    # canonical labels: highest[i] is the highest label among cells 0..i; a root opens
    # the next label
    roots: list = []
    highest: list = []
    for i, label in enumerate(labels):
        root = cp.new_bool_var("")
        if i == 0:
            cp.add(label == 1)
            cp.add(root == 1)
            top = label
        else:
            before = highest[-1]
            cp.add(label <= before + 1)
            cp.add(label == before + 1).only_enforce_if(root)
            cp.add(label <= before).only_enforce_if(~root)
            top = cp.new_int_var(1, n, "")
            cp.add_max_equality(top, [before, label])
        roots.append(root)
        highest.append(top)
    cp.add(highest[-1] == n)
    distance = [cp.new_int_var(0, n - 1, "") for _ in labels]
    same: dict[tuple[int, int], Any] = {}
    for i in range(n * n):
        r, c = divmod(i, n)
        for j in ((i + 1) if c < n - 1 else None, (i + n) if r < n - 1 else None):
            if j is not None:
                b = same[i, j] = same[j, i] = cp.new_bool_var("")
                cp.add(labels[i] == labels[j]).only_enforce_if(b)
                cp.add(labels[i] != labels[j]).only_enforce_if(~b)
    for i in range(n * n):
        cp.add(distance[i] == 0).only_enforce_if(roots[i])
        via = []
        for j in (k for k in (i - n, i + n, i - 1, i + 1) if (i, k) in same):
            step = cp.new_int_var(0, n, "")  # the neighbour's distance, n if another region
            cp.add(step == distance[j]).only_enforce_if(same[i, j])
            cp.add(step == n).only_enforce_if(~same[i, j])
            via.append(step)
        nearest = cp.new_int_var(0, n, "")
        cp.add_min_equality(nearest, via)
        cp.add(distance[i] == nearest + 1).only_enforce_if(~roots[i])


def _collector(cp_model, cells: _Cells, limit: int):
    """A solution callback that keeps solutions and stops the search at `limit`."""

    class Collector(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.solutions: list[tuple[int, ...]] = []
            self.seen: set[tuple[int, ...]] = set()

        def on_solution_callback(self):
            found = tuple(self.value(v) for v in cells.vars)
            if found in self.seen:  # an either/or's literals in another combination
                return
            self.seen.add(found)
            self.solutions.append(found)
            if len(self.solutions) >= limit:
                self.stop_search()

    return Collector()
