"""The python-constraint backend: the model handed to python-constraint2's backtracking search.

Every cell is a variable whose domain is already reduced by the givens; each
constraint of the model maps onto one of the library's constraints. The
library's default solver (OptimizedBacktrackingSolver) fixes its variable order
once and is pathologically slow on Sudoku, so `BacktrackingSolver` (dynamic
most-constrained / fewest-values order, forward checking) is used instead.

The library has no time limit of its own. A `_Clock` constraint over every
variable is checked first on each assignment the search tries: it counts those
assignments (the `nodes` statistic) and, every few calls, raises a private
exception once the deadline has passed, which stops the search inside the
library's iterator.
"""

from __future__ import annotations

import time

from ..constraints import AllDifferent, Allowed, Less, Sum
from ..model import Model
from ..result import Outcome
from .base import Backend, Request

_CHECK_EVERY = 64  # assignments between two looks at the clock


class _OutOfTime(Exception):
    """Raised inside the library's search when the deadline has passed."""


class _Unsatisfiable(Exception):
    """A constraint that no assignment can satisfy (a sum of nothing that is not 0)."""


def _clock_constraint(base, deadline: float | None):
    """A constraint that never prunes: it counts assignments and watches the deadline."""

    class Clock(base):
        def __init__(self):
            self.calls = 0

        def __call__(self, variables, domains, assignments, forwardcheck=False):
            self.calls += 1
            if deadline is not None and self.calls % _CHECK_EVERY == 0 \
                    and time.monotonic() > deadline:
                raise _OutOfTime
            return True

        def preProcess(self, variables, domains, constraints, vconstraints):
            pass  # nothing to prune, and it must stay in place for the whole search

    return Clock()


def _permutation_constraint(base, values: frozenset[int]):
    """All-different over cells that must use every one of `values` (a row,
    column or region: as many cells as values). Besides the library's forward
    checking (an assigned value leaves its peers), a value that fits in only one
    free cell is given to it (its other values are hidden, so the library's
    fewest-values order picks it next), and a value that fits nowhere fails."""

    class Permutation(base):
        def __call__(self, variables, domains, assignments, forwardcheck=False):
            placed = set()
            free = []
            for var in variables:
                if var in assignments:
                    value = assignments[var]
                    if value in placed:
                        return False
                    placed.add(value)
                else:
                    free.append(var)
            if not forwardcheck or not free:
                return True
            for var in free:
                domain = domains[var]
                for value in placed:
                    if value in domain:
                        domain.hideValue(value)
                if not domain:
                    return False
            for value in values:
                if value in placed:
                    continue
                home = None
                for var in free:
                    if value in domains[var]:
                        if home is not None:
                            break
                        home = var
                else:
                    if home is None:
                        return False
                    domain = domains[home]
                    if len(domain) > 1:
                        for other in domain[:]:
                            if other != value:
                                domain.hideValue(other)
            return True

    return Permutation()


def _allowed_constraint(base, tuples):
    """A table constraint with forward checking: values of unassigned cells that
    no tuple compatible with the current assignment supports are hidden."""

    class Table(base):
        def __call__(self, variables, domains, assignments, forwardcheck=False):
            fixed = [(i, assignments[v]) for i, v in enumerate(variables) if v in assignments]
            live = [t for t in tuples if all(t[i] == val for i, val in fixed)]
            if not live:
                return False
            if forwardcheck and len(fixed) < len(variables):
                for i, var in enumerate(variables):
                    if var in assignments:
                        continue
                    supported = {t[i] for t in live}
                    domain = domains[var]
                    for value in domain[:]:
                        if value not in supported:
                            domain.hideValue(value)
                    if not domain:
                        return False
            return True

    return Table()


def _sum_constraint(pc, total: int, weights: list[int] | None):
    """The library's ExactSumConstraint, made safe when a domain is empty: its
    preProcess takes the min and max of every domain and would raise there. An
    empty domain makes the problem unsolvable, which the library then reports
    by finding no solution."""

    class SafeExactSum(pc.ExactSumConstraint):
        def preProcess(self, variables, domains, constraints, vconstraints):
            if len(variables) == 1:  # a unary sum: filter the domain and drop the constraint
                pc.Constraint.preProcess(self, variables, domains, constraints, vconstraints)
            elif all(domains[v] for v in variables):
                super().preProcess(variables, domains, constraints, vconstraints)

    return SafeExactSum(total, weights)


def _merged_terms(con: Sum) -> tuple[list[int], list[int]]:
    """Cells and coefficients with repeated cells merged and zero terms dropped
    (the library keys its bounds by variable, so a cell must appear once)."""
    weights: dict[int, int] = {}
    for cell, w in zip(con.cells, con.weights()):
        weights[cell] = weights.get(cell, 0) + w
    cells = [c for c, w in weights.items() if w]
    return cells, [weights[c] for c in cells]


def _less(a, b):
    return a < b


class PythonConstraintBackend(Backend):
    name = "python-constraint"
    description = "python-constraint2: backtracking with forward checking (BacktrackingSolver)"
    distribution = "python-constraint2"
    native_kinds = frozenset({"alldifferent", "sum", "less", "allowed"})
    # hidden_singles=False keeps the library's own AllDifferentConstraint everywhere
    # (forward checking only): far slower on hard puzzles, there for comparison.
    option_names = frozenset({"hidden_singles"})

    def search(self, model: Model, request: Request) -> Outcome:
        if any(not dom for dom in model.domains):
            return Outcome([], exhausted=True, stats={"nodes": 0})
        import constraint as pc

        problem = pc.Problem(pc.BacktrackingSolver())
        for cell, dom in enumerate(model.domains):
            problem.addVariable(cell, sorted(dom))
        clock = _clock_constraint(pc.Constraint, request.deadline)
        # Over every variable, so it is called on each assignment and leaves the
        # degree-based variable order unchanged (every degree grows by one).
        problem.addConstraint(clock, list(range(len(model.domains))))
        hidden_singles = bool(request.options.get("hidden_singles", True))
        try:
            for con in model.constraints:
                self._add(pc, problem, con, model.domains, hidden_singles)
        except _Unsatisfiable:
            return Outcome([], exhausted=True, stats={"nodes": 0})

        solutions: list[tuple[int, ...]] = []
        exhausted = timed_out = False
        ncells = len(model.domains)
        try:
            for found in problem.getSolutionIter():
                solutions.append(tuple(found[c] for c in range(ncells)))
                if len(solutions) >= request.max_solutions:
                    break
            else:
                exhausted = True
        except _OutOfTime:
            timed_out = True
        return Outcome(solutions, exhausted=exhausted, timed_out=timed_out,
                       stats={"nodes": clock.calls})

    @staticmethod
    def _add(pc, problem, con, domains, hidden_singles: bool) -> None:
        if isinstance(con, AllDifferent):
            values = frozenset().union(*(domains[c] for c in con.cells))
            if hidden_singles and len(values) == len(con.cells):
                problem.addConstraint(_permutation_constraint(pc.Constraint, values),
                                      list(con.cells))
            else:
                problem.addConstraint(pc.AllDifferentConstraint(), list(con.cells))
        elif isinstance(con, Sum):
            cells, weights = _merged_terms(con)
            if not cells:  # 0 == total: always true or never
                if con.total != 0:
                    raise _Unsatisfiable
                return
            plain = all(w == 1 for w in weights)
            problem.addConstraint(_sum_constraint(pc, con.total, None if plain else weights),
                                  cells)
        elif isinstance(con, Less):
            for a, b in zip(con.cells, con.cells[1:]):
                problem.addConstraint(pc.FunctionConstraint(_less), [a, b])
        elif isinstance(con, Allowed):
            problem.addConstraint(_allowed_constraint(pc.Constraint, con.tuples), list(con.cells))
        else:  # pragma: no cover - lower_for decomposes every other kind
            raise TypeError(f"unexpected constraint kind {con.kind!r}")
