"""The python-constraint backend: the model handed to python-constraint2's backtracking search.

Every cell is a variable over its domain (givens are single values), and so is
every auxiliary variable (a chaos construction's region labels, reported after
the cells in each solution); each constraint of the model maps onto one of the
library's constraints. The library's default solver (OptimizedBacktrackingSolver)
fixes its variable order once and is pathologically slow on Sudoku, so
`BacktrackingSolver` (forward checking; the most constrained variable first, then
the fewest values) is used instead.

That solver counts a variable's constraints before its values: a line, a
diagonal or a pair table on some cells only would make it branch on those cells
first whatever their candidates (the 159 rule, between lines, either/or: about
30 s each so). Every constraint but the sums is therefore held inside one
constraint over every variable (`ThroughAssigned`), which on each assignment
runs those through the cell just assigned (the solver inserts it last into its
assignment dict), adding to no cell's degree. Sums (cages, arrows, little
killers) keep their own: their cells first is what decides them early by their
bounds (ISS's Arrow example: 0.03 s so, a timeout otherwise).

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
  its all-different says it all;
- any other sum is reasoned on by bounds (the extremes of the free cells'
  current domains, until no bound moves), either sign of coefficient;
- the redundant sums of the killer "45 rule" (the innies and outies of unions
  of rows, columns and regions, as derived for the native engine) are added;
  being redundant, they can only prune, never change an answer.

Automata along cells (`Regular`: outside clues, lines, regex, automata) get a
constraint of the library's interface that lays out the automaton's accepted
paths over the current domains (`Automaton.paths`) on each call and, with
forward checking, hides the values no accepted path gives a free cell: no
table of value sequences is listed, so no line is refused for having too many.

`cages=False` keeps the library's ExactSumConstraint and all-different for sums.

Regions found while solving (`Regions`: a chaos construction) get a constraint of
the library's interface over the digits and the labels that rejects a partial
assignment that can no longer become a partition (labels out of canonical order,
a label on too many cells or on too few that can take it, a digit twice in a
region, a region that cannot be joined into one piece) and hides from the free
cells the values that would; a complete assignment is held to the definition.
It prunes far less than a solver's own propagators (measured on ISS's chaos
puzzles: the 6x6 ones unique in 1 to 6 s, but 174 s for the harder cell count;
none of the four 9x9 ones within 180 s).

The library has no time limit of its own. A clock constraint over every
variable is checked first on each assignment the search tries: it counts those
assignments (the `nodes` statistic) and, every few calls, raises OutOfTime
once the deadline has passed, which stops the search inside the library's
iterator.
"""

from __future__ import annotations

import math
from types import ModuleType

from ..engine.clock import OutOfTime
from ..errors import BackendError
from ..grid.constraints import AllDifferent, Allowed, Less, Regions, Regular, Sum
from ..model import Model
from ..result import Outcome
from .base import Backend, Request, nothing_to_search, out_of_time
from .stopping import load_library

# Cages whose candidate digit sets would number more (long cages on big grids:
# 12 cells of 1..25 choose 5 million) keep the bounds sum and the all-different.
MAX_CAGE_SETS = 20_000


class _Unsatisfiable(Exception):
    """A constraint that no assignment can satisfy (a sum of nothing that is not 0)."""


class PythonConstraintBackend(Backend):
    name = "python-constraint"
    description = "python-constraint2: backtracking with forward checking (BacktrackingSolver)"
    distribution = "python-constraint2"
    module = "constraint"
    native_kinds = frozenset({"alldifferent", "sum", "less", "allowed", "regular", "regions"})
    option_names = frozenset({"hidden_singles", "cages"})
    auxiliary = True

    def check_request(self, request: Request) -> None:
        super().check_request(request)
        for option in self.option_names:
            switch_of(request, option)

    def search(self, model: Model, request: Request) -> Outcome:
        if any(not dom for dom in model.all_domains):  # the library would raise on it
            return nothing_to_search()
        if load_library("constraint", request.deadline) is None:
            return out_of_time()
        lib = _library()
        problem = lib.pc.Problem(lib.pc.BacktrackingSolver())
        nvars = len(model.all_domains)  # the cells, then the auxiliary variables
        for var, dom in enumerate(model.all_domains):
            problem.addVariable(var, sorted(dom))
        clock = lib.Clock(request.deadline)
        # Over every variable, so it is called on each assignment; every degree grows
        # by one, which leaves the solver's variable order unchanged.
        problem.addConstraint(clock, list(range(nvars)))
        try:
            cages = switch_of(request, "cages")
            groups = _groups(model)
            parts = []
            for constraint, cells in _translate(lib, model, groups,
                                                switch_of(request, "hidden_singles"), cages):
                if isinstance(constraint, lib.SUMS):  # first in the order: see above
                    problem.addConstraint(constraint, cells)
                else:
                    parts.append((constraint, cells))
            parts += [pair for con in (_implied(model) if cages else ())
                      if (pair := _sum_constraint(lib, con, model, groups, set()))]
            if parts:  # over every variable too, adding to no cell's degree
                problem.addConstraint(lib.ThroughAssigned(parts), list(range(nvars)))
        except _Unsatisfiable:
            return nothing_to_search()

        solutions: list[tuple[int, ...]] = []
        exhausted = timed_out = False
        try:
            for found in problem.getSolutionIter():
                solutions.append(tuple(found[v] for v in range(nvars)))
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
    pc, domains = lib.pc, model.all_domains  # a constraint may name an auxiliary variable
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
            if len(con.cells) > 1:
                yield lib.Increasing(), list(con.cells)
        elif isinstance(con, Allowed):
            yield lib.Table(con.tuples), list(con.cells)
        elif isinstance(con, Regular):
            if not con.cells:  # the empty word: accepted, or never
                if not con.automaton.accepts(()):
                    raise _Unsatisfiable
                continue
            yield lib.Regular(con.automaton), list(con.cells)
        elif isinstance(con, Regions):
            yield lib.Regions(con.width, con.holds, model.values), list(con.cells)
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
    domains = model.all_domains
    values = frozenset().union(*(domains[c] for c in cells))
    if all(w == 1 for w in weights) and len(values) == len(cells) \
            and frozenset(cells) in groups:
        # A cage that is a permutation of its values (a 9-cell cage of 45): the sum
        # says nothing more.
        if con.total != sum(values):
            raise _Unsatisfiable
        return None
    if all(w == 1 for w in weights) and any(inside <= group for group in groups) \
            and math.comb(len(values), len(cells)) <= MAX_CAGE_SETS:
        if len(cells) < model.values:  # a unit holds V cells
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
    # a unit holds every value once: V cells, not a row of N when there are more digits
    n = model.values
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


def _library() -> ModuleType:
    """The constraint classes on the library's interface, and the library as `pc`
    (their module imports it, so it is imported on first use only)."""
    from . import _pyconstraint_library
    return _pyconstraint_library
