"""The python-constraint backend: the model handed to python-constraint2's backtracking search.

Every cell is a variable over its domain (givens are single values); each
constraint of the model maps onto one of the library's constraints. The
library's default solver (OptimizedBacktrackingSolver) fixes its variable order
once and is pathologically slow on Sudoku, so `BacktrackingSolver` (forward
checking; the most constrained variable first, then the fewest values) is used
instead.

The library's AllDifferentConstraint only removes an assigned value from its
peers, which leaves hard 9x9 puzzles at seconds each (over 7 s for some of
top95). Groups that must hold every one of their values (rows, columns,
regions: as many cells as values) get a constraint of the same library
interface that also places a value with a single possible cell ("hidden
single"); `hidden_singles=False` keeps the library's own constraint everywhere.

Sums, with `cages=True` (the default), also get constraints of the library's
interface, because its ExactSumConstraint prunes only values above the total
left and fails on killers (six of the seven killers of the data set take over
30 s, most over a minute):

- a plain sum over cells that must differ (a killer cage: a sum and an
  all-different over the same cells; or a sum inside a row) becomes one cage
  constraint, which replaces the cage's all-different. It lists the digit sets
  that make the total once; on each call it keeps the sets holding every value
  assigned so far that the free cells can still fill, and forward checking
  leaves each free cell only values of a surviving set;
- a cage holding each of its values once (a 9-cell cage of 45) gets nothing:
  its all-different says it all, and one more constraint on its cells would
  make the solver branch there first (see below);
- any other sum is reasoned on by bounds (the extremes of the free cells'
  current domains, until no bound moves), either sign of coefficient;
- the redundant sums of the killer "45 rule" (the innies and outies of unions
  of rows, columns and regions, as derived for the native engine) are added
  as one more constraint over every variable. The solver orders variables by
  their number of constraints before their domain size, so constraints on
  some cells only would override the fewest-values order (measured: several
  times more nodes). On each assignment it runs only the sums through the
  cell just assigned (the solver inserts it last into its assignment dict);
  being redundant, they can only prune, never change an answer.

`cages=False` keeps the library's ExactSumConstraint and all-different for sums.

The library has no time limit of its own. A clock constraint over every
variable is checked first on each assignment the search tries: it counts those
assignments (the `nodes` statistic) and, every few calls, raises OutOfTime
once the deadline has passed, which stops the search inside the library's
iterator.
"""

from __future__ import annotations

import itertools
import math
import time
from functools import cache
from types import SimpleNamespace

from ..engine.clock import OutOfTime
from ..errors import BackendError
from ..grid.constraints import AllDifferent, Allowed, Less, Sum
from ..model import Model
from ..result import Outcome
from .base import Backend, Request, nothing_to_search, out_of_time
from .stopping import load_library

_CHECK_EVERY = 16  # assignments between two looks at the clock (each costs far more)
# Cages whose candidate digit sets would number more (long cages on big grids:
# 12 cells of 1..25 choose 5 million) keep the bounds sum and the all-different.
MAX_CAGE_SETS = 20_000
EXACT_CELLS = 5  # free cells up to which a cage finds each value's support exactly


class _Unsatisfiable(Exception):
    """A constraint that no assignment can satisfy (a sum of nothing that is not 0)."""


class PythonConstraintBackend(Backend):
    name = "python-constraint"
    description = "python-constraint2: backtracking with forward checking (BacktrackingSolver)"
    distribution = "python-constraint2"
    module = "constraint"
    native_kinds = frozenset({"alldifferent", "sum", "less", "allowed"})
    option_names = frozenset({"hidden_singles", "cages"})

    def check_request(self, request: Request) -> None:
        super().check_request(request)
        for option in self.option_names:
            switch_of(request, option)

    def search(self, model: Model, request: Request) -> Outcome:
        if any(not dom for dom in model.domains):  # the library would raise on it
            return nothing_to_search()
        if load_library("constraint", request.deadline) is None:
            return out_of_time()
        lib = _library()
        problem = lib.pc.Problem(lib.pc.BacktrackingSolver())
        ncells = len(model.domains)
        for cell, dom in enumerate(model.domains):
            problem.addVariable(cell, sorted(dom))
        clock = lib.Clock(request.deadline)
        # Over every variable, so it is called on each assignment; every degree grows
        # by one, which leaves the solver's variable order unchanged.
        problem.addConstraint(clock, list(range(ncells)))
        try:
            cages = switch_of(request, "cages")
            groups = _groups(model)
            for constraint, cells in _translate(lib, model, groups,
                                                switch_of(request, "hidden_singles"), cages):
                problem.addConstraint(constraint, cells)
            implied = [pair for con in (_implied(model) if cages else ())
                       if (pair := _sum_constraint(lib, con, model, groups, set()))]
            if implied:  # over every variable too, so the variable order stays as it was
                problem.addConstraint(lib.Implied(implied), list(range(ncells)))
        except _Unsatisfiable:
            return nothing_to_search()

        solutions: list[tuple[int, ...]] = []
        exhausted = timed_out = False
        try:
            for found in problem.getSolutionIter():
                solutions.append(tuple(found[c] for c in range(ncells)))
                if len(solutions) >= request.max_solutions:
                    break
            else:
                exhausted = True
        except OutOfTime:
            timed_out = True
        return Outcome(solutions, exhausted=exhausted, timed_out=timed_out,
                       stats={"nodes": clock.calls})


def switch_of(request: Request, option: str) -> bool:
    """An on/off option (on unless set): a bool, 1/0, or true/false, yes/no, on/off."""
    raw = request.options.get(option, True)
    if isinstance(raw, str):
        text = raw.strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
    elif raw in (True, False):  # also 1 and 0
        return bool(raw)
    raise BackendError(f"backend 'python-constraint': {option} must be true or false, "
                       f"not {raw!r}")


def _translate(lib, model: Model, groups, hidden_singles: bool, cages: bool):
    """(library constraint, its cells) for every constraint of the model."""
    pc, domains = lib.pc, model.domains
    absorbed: set[frozenset[int]] = set()  # all-different groups a cage constraint enforces
    for con in model.constraints:
        if not isinstance(con, Sum):
            continue
        if cages:
            pair = _sum_constraint(lib, con, model, groups, absorbed)
            if pair:
                yield pair
            continue
        cells, weights = _merged_terms(con)
        if not cells:  # 0 == total: always true, or never
            if con.total != 0:
                raise _Unsatisfiable
            continue
        plain = all(w == 1 for w in weights)
        yield lib.ExactSum(con.total, None if plain else weights), cells
    for con in model.constraints:
        if isinstance(con, AllDifferent):
            if frozenset(con.cells) in absorbed and len(set(con.cells)) == len(con.cells):
                continue
            values = frozenset().union(*(domains[c] for c in con.cells))
            if hidden_singles and len(values) == len(con.cells):
                yield lib.Permutation(values), list(con.cells)
            else:
                yield pc.AllDifferentConstraint(), list(con.cells)
        elif isinstance(con, Less):
            for a, b in zip(con.cells, con.cells[1:]):
                yield pc.FunctionConstraint(_less), [a, b]
        elif isinstance(con, Allowed):
            yield lib.Table(con.tuples), list(con.cells)
        elif not isinstance(con, Sum):  # pragma: no cover - lower_for decomposes every other kind
            raise TypeError(f"unexpected constraint kind {con.kind!r}")


def _sum_constraint(lib, con: Sum, model: Model, groups, absorbed: set[frozenset[int]]):
    """The cage constraint for a plain sum over cells that must differ (a killer
    cage, a sum inside a row), else the bounds sum; (constraint, cells). A group
    of exactly the cage's cells, shorter than a unit, goes into `absorbed`: the
    cage constraint enforces it (full units keep their hidden singles). None for
    a sum of nothing that is 0."""
    cells, weights = _merged_terms(con)
    if not cells:  # 0 == total: always true, or never
        if con.total != 0:
            raise _Unsatisfiable
        return None
    inside = set(cells)
    values = frozenset().union(*(model.domains[c] for c in cells))
    if all(w == 1 for w in weights) and len(values) == len(cells) \
            and frozenset(cells) in groups:
        # A cage that is a permutation of its values (a 9-cell cage of 45): the sum
        # says nothing more. Kept, it would add one constraint to its cells only,
        # and the solver, ordering by number of constraints before domain size,
        # would branch on them first whatever their candidates (timeouts, where
        # the sum left out solves at once).
        if con.total != sum(values):
            raise _Unsatisfiable
        return None
    if all(w == 1 for w in weights) and any(inside <= group for group in groups) \
            and math.comb(len(values), len(cells)) <= MAX_CAGE_SETS:
        if len(cells) < model.size:
            absorbed.add(frozenset(cells))
        return lib.Cage(con.total, len(cells), values), cells
    return lib.LinearSum(con.total, weights), cells


def _groups(model: Model) -> list[frozenset[int]]:
    """The cell sets of the model's all-different constraints (no cell repeated)."""
    return [frozenset(con.cells) for con in model.constraints
            if isinstance(con, AllDifferent) and len(set(con.cells)) == len(con.cells)]


def _implied(model: Model) -> list[Sum]:
    """The redundant sums of the "45 rule" (innies and outies of unions of units)."""
    from ..engine.plan import implied_sums
    n = model.size
    units, labels, seen = [], [], set()
    for con in model.constraints:
        key = frozenset(con.cells)
        if isinstance(con, AllDifferent) and len(key) == n and key not in seen:
            seen.add(key)
            units.append(tuple(con.cells))
            labels.append(con.describe())
    return implied_sums(n, units, labels, model.constraints)


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
                raise OutOfTime
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

    class Cage(pc.Constraint):
        """Different values summing to `total` (a killer cage). The digit sets that
        make the total are listed once; each call keeps those holding every value
        assigned so far whose other values the free cells can still take, and
        forward checking leaves each free cell only values of a surviving set."""

        def __init__(self, total: int, size: int, values):
            self.combos = tuple(sum(1 << v for v in combo)
                                for combo in itertools.combinations(sorted(values), size)
                                if sum(combo) == total)

        def __call__(self, variables, domains, assignments, forwardcheck=False):
            placed = 0
            free = []
            for var in variables:
                value = assignments.get(var)
                if value is None:
                    free.append(var)
                else:
                    bit = 1 << value
                    if placed & bit:
                        return False
                    placed |= bit
            rests = [combo ^ placed for combo in self.combos if combo & placed == placed]
            if not rests:
                return False
            if not forwardcheck or not free:
                return True
            return _narrow(free, domains, rests, _hide)

        def preProcess(self, variables, domains, constraints, vconstraints):
            if not _narrow(variables, domains, self.combos, _remove):
                for var in variables:  # no digit set fits: the library then finds nothing
                    del domains[var][:]

    class LinearSum(pc.Constraint):
        """sum(weight * value) == total, by bounds: forward checking hides from each
        free cell the values that the other free cells' current extremes cannot
        balance, until no bound moves."""

        def __init__(self, total: int, weights):
            self.total = total
            self.weights = weights

        def __call__(self, variables, domains, assignments, forwardcheck=False):
            rest = self.total
            free = []
            for var, w in zip(variables, self.weights):
                value = assignments.get(var)
                if value is None:
                    free.append((domains[var], w))
                else:
                    rest -= w * value
            if not free:
                return rest == 0
            return _balance(free, rest, _hide if forwardcheck else None)

        def preProcess(self, variables, domains, constraints, vconstraints):
            free = [(domains[var], w) for var, w in zip(variables, self.weights)]
            if all(dom for dom, _ in free) and not _balance(free, self.total, _remove):
                for dom, _ in free:
                    del dom[:]

    class Implied(pc.Constraint):
        """Redundant sums (the 45 rule) held over every variable, so that they add
        to no cell's degree (the solver orders by degree before domain size). On
        each assignment only the sums through the cell just assigned are run: the
        solver inserts each assignment last in its dict. Being redundant, they
        can only prune more; the model's own constraints decide every answer."""

        def __init__(self, parts):
            self.parts = parts
            self.through: dict[int, list] = {}
            for part in parts:
                for cell in part[1]:
                    self.through.setdefault(cell, []).append(part)

        def __call__(self, variables, domains, assignments, forwardcheck=False):
            if not assignments:
                return True
            for constraint, cells in self.through.get(next(reversed(assignments)), ()):
                if not constraint(cells, domains, assignments, forwardcheck):
                    return False
            return True

        def preProcess(self, variables, domains, constraints, vconstraints):
            for constraint, cells in self.parts:
                constraint.preProcess(cells, domains, constraints, vconstraints)

    return SimpleNamespace(pc=pc, Clock=Clock, Permutation=Permutation, Table=Table,
                           ExactSum=ExactSum, Cage=Cage, LinearSum=LinearSum, Implied=Implied)


def _hide(domain, value) -> None:
    domain.hideValue(value)  # undone when the search backtracks


def _remove(domain, value) -> None:
    domain.remove(value)  # for good: before the search starts


def _narrow(free, domains, rests, drop) -> bool:
    """Cage forward checking: the free cells must take exactly the values of one
    of `rests` (bit masks), a different one each. Each free cell keeps the
    values it takes in some way of doing so: found exactly for a few free cells,
    else approximated (see `_covers`). False when no way is left."""
    doms = [domains[var] for var in free]
    masks = [sum(1 << v for v in dom) for dom in doms]
    if len(masks) <= EXACT_CELLS:
        kept = _supports(masks, rests)
    else:
        kept = _covers(masks, rests)
    if kept is None:
        return False
    for dom, mask in zip(doms, kept):
        for value in dom[:]:
            if not mask >> value & 1:
                drop(dom, value)
    return True


def _supports(masks, rests):
    """For each cell, the values it holds in some assignment of all the values of
    a set in `rests` to the cells, one each, within their masks; None if none."""
    kept = [0] * len(masks)
    last = len(masks)
    chosen: list[int] = []

    def place(i, left):
        if i == last:
            for j, bit in enumerate(chosen):
                kept[j] |= bit
            return
        options = masks[i] & left
        while options:
            bit = options & -options
            options ^= bit
            chosen.append(bit)
            place(i + 1, left ^ bit)
            chosen.pop()

    for rest in rests:
        place(0, rest)
    return kept if any(kept) else None


def _covers(masks, rests):
    """A cheaper `_supports` for long cages: a set survives if every cell can take
    one of its values and its values are all covered; each cell keeps the values
    of the surviving sets, and a cell left with one value takes it from the
    others. Repeats until nothing changes; None when no set survives."""
    while True:
        fits = []
        for rest in rests:
            covered = 0
            for mask in masks:
                inside = mask & rest
                if not inside:
                    break
                covered |= inside
            else:
                if covered == rest:
                    fits.append(rest)
        if not fits:
            return None
        union = 0
        for rest in fits:
            union |= rest
        kept = [mask & union for mask in masks]
        singles = 0
        for mask in kept:
            if mask & (mask - 1) == 0:  # one value left (or none)
                if singles & mask or not mask:
                    return None
                singles |= mask
        if singles:
            kept = [mask if mask & (mask - 1) == 0 else mask & ~singles for mask in kept]
        if kept == masks:
            return kept
        masks, rests = kept, fits


def _balance(free, rest: int, drop) -> bool:
    """Bounds reasoning for sum(weight * value) == rest over free (domain, weight)
    pairs; prunes with `drop` unless it is None. False when the sum cannot be met."""
    while True:
        lows = [min(w * v for v in dom) for dom, w in free]
        highs = [max(w * v for v in dom) for dom, w in free]
        low, high = sum(lows), sum(highs)
        if not low <= rest <= high:
            return False
        if drop is None:
            return True
        changed = False
        for (dom, w), lo, hi in zip(free, lows, highs):
            floor, ceiling = rest - (high - hi), rest - (low - lo)
            if floor <= lo and hi <= ceiling:
                continue
            for value in dom[:]:
                if not floor <= w * value <= ceiling:
                    drop(dom, value)
                    changed = True
            if not dom:
                return False
        if not changed:
            return True
