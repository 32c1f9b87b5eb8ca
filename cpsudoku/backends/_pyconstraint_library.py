"""The constraints on python-constraint's interface that the python-constraint backend
adds to the library's own (`cpsudoku.backends.pyconstraint` says what each is for).

This module imports the library when it is imported: the backend imports it on
first use, so that `import cpsudoku` does not load python-constraint.
"""

from __future__ import annotations

import itertools
import time

import constraint as pc

from ..engine.clock import OutOfTime

CHECK_EVERY = 16  # assignments between two looks at the clock (each costs far more)
EXACT_CELLS = 5  # free cells up to which a cage finds each value's support exactly


class Clock(pc.Constraint):
    """Never prunes: counts the assignments tried and watches the deadline."""

    def __init__(self, deadline: float | None):
        self.deadline = deadline
        self.calls = 0

    def __call__(self, variables, domains, assignments, forwardcheck=False):
        self.calls += 1
        if self.deadline is not None and self.calls % CHECK_EVERY == 0 \
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


class Regular(pc.Constraint):
    """An automaton read along the cells (a `Regular`: outside clues, lines, regex,
    automata). Each call lays out the automaton's accepted paths over the current
    domains, an assigned cell holding its value only (`Automaton.paths`, Pesant's
    layered graph); no path fails. With forward checking, a free cell loses the
    values no accepted path gives it. A cell met twice along the cells keeps only
    values some path gives it at every place it is met."""

    def __init__(self, automaton):
        self.automaton = automaton

    def __call__(self, variables, domains, assignments, forwardcheck=False):
        layers = [(assignments[v],) if v in assignments else domains[v] for v in variables]
        kept = _path_values(self.automaton, variables, layers)
        if kept is None:
            return False
        if forwardcheck:
            for var, values in kept.items():
                if var not in assignments and not _keep_only(domains[var], values, _hide):
                    return False
        return True

    def preProcess(self, variables, domains, constraints, vconstraints):
        kept = _path_values(self.automaton, variables, [domains[v] for v in variables])
        for var in variables:
            if kept is None or not _keep_only(domains[var], kept[var], _remove):
                for other in variables:  # no word fits: the library then finds nothing
                    del domains[other][:]
                return


def _path_values(automaton, variables, layers) -> dict | None:
    """Per variable, the values some accepted path over `layers` gives it (at
    every place the variable is met); None when no word is accepted."""
    paths = automaton.paths(layers)
    if paths and not paths[0]:
        return None
    kept: dict = {}
    for var, edges in zip(variables, paths):
        values = {v for _, v, _ in edges}
        kept[var] = kept[var] & values if var in kept else values
    return kept


def _keep_only(domain, values, drop) -> bool:
    """Drop from `domain` what is not in `values`; False when nothing is left."""
    for value in domain[:]:
        if value not in values:
            drop(domain, value)
    return bool(domain)


class Increasing(pc.Constraint):
    """Cells in strictly increasing order (a thermometer, a greater-than sign). Each
    cell's lowest value is the least it holds above the cell before it, its highest
    the greatest below the cell after it (assigned cells holding their value):
    exactly the values of some increasing run along the chain. With forward
    checking a free cell keeps only those; a cell left with none fails."""

    def __call__(self, variables, domains, assignments, forwardcheck=False):
        layers = [(assignments[v],) if v in assignments else domains[v] for v in variables]
        bounds = _chain_bounds(layers)
        if bounds is None:
            return False
        if forwardcheck:
            for var, (low, high) in zip(variables, bounds):
                if var not in assignments and not _keep_within(domains[var], low, high, _hide):
                    return False
        return True

    def preProcess(self, variables, domains, constraints, vconstraints):
        bounds = _chain_bounds([domains[v] for v in variables])
        for var, (low, high) in zip(variables, bounds or [(1, 0)] * len(variables)):
            if not _keep_within(domains[var], low, high, _remove):
                for other in variables:  # no increasing run: the library finds nothing
                    del domains[other][:]
                return


def _chain_bounds(layers) -> list[tuple[int, int]] | None:
    """(lowest, highest) value per place of an increasing run through `layers`."""
    lows, floor = [], None
    for values in layers:
        fits = [v for v in values if floor is None or v > floor]
        if not fits:
            return None
        floor = min(fits)
        lows.append(floor)
    highs, ceiling = [], None
    for values, low in zip(reversed(layers), reversed(lows)):
        fits = [v for v in values if low <= v and (ceiling is None or v < ceiling)]
        if not fits:
            return None
        ceiling = max(fits)
        highs.append(ceiling)
    return list(zip(lows, reversed(highs)))


def _keep_within(domain, low: int, high: int, drop) -> bool:
    """Drop from `domain` the values outside low..high; False when nothing is left."""
    for value in domain[:]:
        if not low <= value <= high:
            drop(domain, value)
    return bool(domain)


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


class ThroughAssigned(pc.Constraint):
    """Constraints held inside one over every variable, so that they add to no
    variable's degree: the solver orders variables by their number of constraints
    before their domain size, and constraints on some cells only (a line, a
    diagonal, a pair table) would make it branch there first whatever their
    candidates (measured: 159 or between-lines from about 30 s to 0.2 s). On each
    assignment only the parts through the cell just assigned are run: the solver
    inserts each assignment last in its dict."""

    def __init__(self, parts):
        self.parts = list(parts)
        self.through: dict[int, list] = {}
        for part in self.parts:
            for cell in dict.fromkeys(part[1]):
                self.through.setdefault(cell, []).append(part)

    def __call__(self, variables, domains, assignments, forwardcheck=False):
        if not assignments:
            return True
        for constraint, cells in self.through.get(next(reversed(assignments)), ()):
            if not constraint(cells, domains, assignments, forwardcheck):
                return False
        return True

    def preProcess(self, variables, domains, constraints, vconstraints):
        for part in self.parts:
            constraint, cells = part
            # Lists of its own: the library's preProcess of a one-cell constraint
            # filters the domain and then removes the constraint from them.
            own = [part]
            constraint.preProcess(cells, domains, own, {cell: [part] for cell in cells})
            if not own:  # done for good: no need to run it again
                for cell in dict.fromkeys(cells):
                    self.through[cell].remove(part)


SUMS = (Cage, LinearSum, ExactSum)  # given to the solver as they are (see the backend)


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
