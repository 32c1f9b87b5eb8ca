"""The python-constraint backend: the model handed to python-constraint2's backtracking search.

Every cell is a variable over its domain (givens are single values); each
constraint of the model maps onto one of the library's constraints. The
library's default solver (OptimizedBacktrackingSolver) fixes its variable order
once and is pathologically slow on Sudoku, so `BacktrackingSolver` (fewest
values first, forward checking) is used instead.

The library's AllDifferentConstraint only removes an assigned value from its
peers, which leaves hard 9x9 puzzles at seconds each (over 7 s for some of
top95). Groups that must hold every one of their values (rows, columns,
regions: as many cells as values) get a constraint of the same library
interface that also places a value with a single possible cell ("hidden
single"); `hidden_singles=False` keeps the library's own constraint everywhere.

The library has no time limit of its own. A clock constraint over every
variable is checked first on each assignment the search tries: it counts those
assignments (the `nodes` statistic) and, every few calls, raises a private
exception once the deadline has passed, which stops the search inside the
library's iterator.
"""

from __future__ import annotations

import time
from functools import cache
from types import SimpleNamespace

from ..constraints import AllDifferent, Allowed, Less, Sum
from ..errors import BackendError
from ..model import Model
from ..result import Outcome
from .base import Backend, Request

_CHECK_EVERY = 16  # assignments between two looks at the clock (each costs far more)


class _OutOfTime(Exception):
    """Raised inside the library's search when the deadline has passed."""


class _Unsatisfiable(Exception):
    """A constraint that no assignment can satisfy (a sum of nothing that is not 0)."""


class PythonConstraintBackend(Backend):
    name = "python-constraint"
    description = "python-constraint2: backtracking with forward checking (BacktrackingSolver)"
    distribution = "python-constraint2"
    native_kinds = frozenset({"alldifferent", "sum", "less", "allowed"})
    option_names = frozenset({"hidden_singles"})

    def check_request(self, request: Request) -> None:
        super().check_request(request)
        hidden_singles_of(request)

    def search(self, model: Model, request: Request) -> Outcome:
        if any(not dom for dom in model.domains):  # the library would raise on it
            return Outcome([], exhausted=True, stats={"nodes": 0})
        lib = _library()
        problem = lib.pc.Problem(lib.pc.BacktrackingSolver())
        ncells = len(model.domains)
        for cell, dom in enumerate(model.domains):
            problem.addVariable(cell, sorted(dom))
        clock = lib.Clock(request.deadline)
        # Over every variable, so it is called on each assignment; every degree grows
        # by one, which leaves the solver's variable order unchanged.
        problem.addConstraint(clock, list(range(ncells)))
        hidden_singles = hidden_singles_of(request)
        try:
            for con in model.constraints:
                _add(lib, problem, con, model.domains, hidden_singles)
        except _Unsatisfiable:
            return Outcome([], exhausted=True, stats={"nodes": 0})

        solutions: list[tuple[int, ...]] = []
        exhausted = timed_out = False
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


def hidden_singles_of(request: Request) -> bool:
    raw = request.options.get("hidden_singles", True)
    if isinstance(raw, str):
        text = raw.strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
    elif raw in (True, False):  # also 1 and 0
        return bool(raw)
    raise BackendError(f"backend 'python-constraint': hidden_singles must be true or false, "
                       f"not {raw!r}")


def _add(lib, problem, con, domains, hidden_singles: bool) -> None:
    pc = lib.pc
    if isinstance(con, AllDifferent):
        values = frozenset().union(*(domains[c] for c in con.cells))
        if hidden_singles and len(values) == len(con.cells):
            problem.addConstraint(lib.Permutation(values), list(con.cells))
        else:
            problem.addConstraint(pc.AllDifferentConstraint(), list(con.cells))
    elif isinstance(con, Sum):
        cells, weights = _merged_terms(con)
        if not cells:  # 0 == total: always true, or never
            if con.total != 0:
                raise _Unsatisfiable
            return
        plain = all(w == 1 for w in weights)
        problem.addConstraint(lib.ExactSum(con.total, None if plain else weights), cells)
    elif isinstance(con, Less):
        for a, b in zip(con.cells, con.cells[1:]):
            problem.addConstraint(pc.FunctionConstraint(_less), [a, b])
    elif isinstance(con, Allowed):
        problem.addConstraint(lib.Table(con.tuples), list(con.cells))
    else:  # pragma: no cover - lower_for decomposes every other kind
        raise TypeError(f"unexpected constraint kind {con.kind!r}")


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


@cache
def _library() -> SimpleNamespace:
    """The library, and the constraint classes built on its interface (defined
    once, on first use, so that importing this module does not load it)."""
    import constraint as pc

    class Clock(pc.Constraint):
        """Never prunes: counts the assignments tried and watches the deadline."""

        def __init__(self, deadline: float | None):
            self.deadline = deadline
            self.calls = 0

        def __call__(self, variables, domains, assignments, forwardcheck=False):
            self.calls += 1
            if self.deadline is not None and self.calls % _CHECK_EVERY == 0 \
                    and time.monotonic() > self.deadline:
                raise _OutOfTime
            return True

        def preProcess(self, variables, domains, constraints, vconstraints):
            pass  # nothing to prune, and it must stay for the whole search

    class Permutation(pc.Constraint):
        """All-different over cells that must use every one of `values`. Besides
        forward checking (an assigned value leaves the free cells), a value that
        fits in one free cell only is given to it (its other values are hidden,
        so the fewest-values order picks it next); one that fits nowhere fails."""

        def __init__(self, values: frozenset[int]):
            self.values = values

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
            homes: dict[int, object] = {}  # value -> its only free cell so far, or None: several
            for var in free:
                domain = domains[var]
                taken = [value for value in domain if value in placed]
                if taken:
                    for value in taken:
                        domain.hideValue(value)
                    if not domain:
                        return False
                for value in domain:
                    homes[value] = None if value in homes else var
            if len(homes) + len(placed) < len(self.values):
                return False  # some value fits nowhere
            for value, home in homes.items():
                if home is not None:
                    domain = domains[home]
                    if len(domain) > 1:
                        for other in domain[:]:
                            if other != value:
                                domain.hideValue(other)
                    elif domain[0] != value:  # already the single home of another value
                        return False
            return True

    class Table(pc.Constraint):
        """Allowed tuples, with forward checking: a free cell keeps only the values
        some tuple still compatible with the assignment supports."""

        def __init__(self, tuples):
            self.tuples = tuples

        def __call__(self, variables, domains, assignments, forwardcheck=False):
            fixed = [(i, assignments[v]) for i, v in enumerate(variables) if v in assignments]
            live = [t for t in self.tuples if all(t[i] == val for i, val in fixed)]
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

    class ExactSum(pc.ExactSumConstraint):
        """The library's exact sum, safe when a domain is empty (its preProcess
        takes every domain's min and max and would raise there; the empty domain
        then makes the library find no solution)."""

        def preProcess(self, variables, domains, constraints, vconstraints):
            if len(variables) == 1:  # a unary sum: filter the domain, drop the constraint
                pc.Constraint.preProcess(self, variables, domains, constraints, vconstraints)
            elif all(domains[v] for v in variables):
                super().preProcess(variables, domains, constraints, vconstraints)

    return SimpleNamespace(pc=pc, Clock=Clock, Permutation=Permutation, Table=Table,
                           ExactSum=ExactSum)
