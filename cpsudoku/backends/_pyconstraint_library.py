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


class Regions(pc.Constraint):
    """Regions found while solving (a chaos construction: `grid.constraints.Regions`).
    The variables are the N*N digits, then a region label per cell. A complete
    assignment is held to the definition (`holds`); on a partial one, what can no
    longer hold fails, and with forward checking a free cell loses the values that
    would break it:

    - canonical labels: a label is at most one above the highest label the cells
      before it (in reading order) can hold;
    - a label on N cells: at most N assigned, at least N that can still take it
      (then every free cell that can must); a full label leaves the free cells;
    - no digit twice in a region: a free digit loses its region's digits, a free
      label the regions that hold its digit already;
    - with as many digits as labels (V = N), every region holds every digit: each
      (label, digit) pair needs a cell that can take both, and a pair only one cell
      can take goes there (a hidden single of a region not yet known);
    - connected regions: a cell joins a region only within N - 1 steps of each of its
      cells, through cells free or of that region, and those cells must hold the
      region's cells in one piece of N cells at least."""

    def __init__(self, width: int, holds, values: int):
        self.n = width
        self.holds = holds  # the definition, over the digits then the labels
        self.every_digit = values == width  # V = N: each region holds every digit
        self.around = tuple(_neighbours(i, width) for i in range(width * width))

    def __call__(self, variables, domains, assignments, forwardcheck=False):
        m = self.n * self.n
        digits = [assignments.get(v) for v in variables[:m]]
        labels = [assignments.get(v) for v in variables[m:]]
        if None not in digits and None not in labels:
            return bool(self.holds(digits + labels))
        if all(label is None for label in labels):
            return True  # the digits alone: the grid's own constraints speak of them
        drop = _hide if forwardcheck else None
        digit_doms = [domains[v] for v in variables[:m]]
        label_doms = [domains[v] for v in variables[m:]]
        left = sum(map(len, digit_doms)) + sum(map(len, label_doms))
        while True:  # until no free cell loses a value (once without forward checking)
            if not (_canonical(labels, label_doms, drop)
                    and _region_digits(digits, labels, digit_doms, label_doms, drop)
                    and (not self.every_digit
                         or _pair_homes(digits, labels, digit_doms, label_doms, self.n, drop))
                    and self._sizes(labels, label_doms, drop)
                    and self._connected(labels, label_doms, drop)):
                return False
            before, left = left, sum(map(len, digit_doms)) + sum(map(len, label_doms))
            if drop is None or left == before:
                return True

    def preProcess(self, variables, domains, constraints, vconstraints):
        # canonical: cell i (reading order) holds a label among 1 .. i + 1
        for i, var in enumerate(variables[self.n * self.n:]):
            if not _keep_within(domains[var], 1, i + 1, _remove):
                for other in variables:  # no labelling: the library then finds nothing
                    del domains[other][:]
                return

    def _sizes(self, labels, doms, drop) -> bool:
        """Each label on N cells: N assigned at most, N that can take it at least. With
        forward checking a full label leaves the free cells, and a label that needs
        every free cell that can take it is given to them."""
        n = self.n
        placed, possible = [0] * (n + 1), [0] * (n + 1)
        for label, dom in zip(labels, doms):
            if label is not None:
                placed[label] += 1
            else:
                for value in dom:
                    possible[value] += 1
        if any(placed[k] > n or placed[k] + possible[k] < n for k in range(1, n + 1)):
            return False
        if drop is None:
            return True
        full = {k for k in range(1, n + 1) if placed[k] == n}
        needed = {k for k in range(1, n + 1) if possible[k] and placed[k] + possible[k] == n}
        for label, dom in zip(labels, doms):
            if label is not None:
                continue
            must = needed.intersection(dom)
            if len(must) > 1:  # two labels each need this cell
                return False
            for value in dom[:]:
                if value in full or (must and value not in must):
                    drop(dom, value)
            if not dom:
                return False
        return True

    def _connected(self, labels, doms, drop) -> bool:
        """Each region in one piece: see the class. Per label placed somewhere, the
        cells that may hold it are those within N - 1 steps of each of its cells
        (through cells free or of that label) joined to them; fewer than N fails."""
        n = self.n
        for k in {label for label in labels if label is not None}:
            own = [i for i, label in enumerate(labels) if label == k]
            open_ = {i for i, label in enumerate(labels)
                     if label == k or (label is None and k in doms[i])}
            near = open_
            for start in own:
                near = near & self._within(start, open_, n - 1)
            piece = self._within(own[0], near, len(near))
            if len(piece) < n or not piece.issuperset(own):
                return False
            if drop is not None:
                for i in open_ - piece:
                    drop(doms[i], k)  # free: an assigned cell of k is in the piece
                    if not doms[i]:
                        return False
        return True

    def _within(self, start: int, cells: set, steps: int) -> set:
        """The cells of `cells` at most `steps` steps from `start` through `cells`."""
        reached, layer = {start}, [start]
        for _ in range(steps):
            layer = [j for i in layer for j in self.around[i] if j in cells and j not in reached]
            if not layer:
                break
            reached.update(layer)
        return reached


def _neighbours(i: int, n: int) -> tuple[int, ...]:
    """Cell i's orthogonal neighbours on an n x n grid."""
    r, c = divmod(i, n)
    return tuple(j for j, inside in ((i - n, r > 0), (i + n, r < n - 1),
                                     (i - 1, c > 0), (i + 1, c < n - 1)) if inside)


def _canonical(labels, doms, drop) -> bool:
    """Labels in the order of their regions' first cells: each at most one above the
    highest label the cells before it can hold (free cells keep only those)."""
    top = 0  # the highest label the cells read so far can hold
    for label, dom in zip(labels, doms):
        if label is not None:
            if label > top + 1:
                return False
            top = max(top, label)
            continue
        if drop is not None and not _keep_within(dom, 1, top + 1, drop):
            return False
        top = max(top, min(top + 1, max(dom, default=0)))
    return True


def _region_digits(digits, labels, digit_doms, label_doms, drop) -> bool:
    """No digit twice in a region, among the cells whose digit and label are both
    assigned; with forward checking a free digit of a known region loses the
    region's digits, and a free label of a known digit the regions that hold it."""
    held: dict[int, set[int]] = {}  # label -> its digits placed so far
    for digit, label in zip(digits, labels):
        if digit is not None and label is not None:
            seen = held.setdefault(label, set())
            if digit in seen:
                return False
            seen.add(digit)
    if drop is None or not held:
        return True
    for digit, label, digit_dom, label_dom in zip(digits, labels, digit_doms, label_doms):
        if digit is None and label is not None and label in held:
            if not _drop_each(digit_dom, held[label], drop):
                return False
        elif label is None and digit is not None:
            if not _drop_each(label_dom, {k for k, seen in held.items() if digit in seen},
                              drop):
                return False
    return True


def _pair_homes(digits, labels, digit_doms, label_doms, n: int, drop) -> bool:
    """Every region holds every digit (V = N): each of the N*N (label, digit) pairs
    needs a cell that can take both; one that only one cell can take goes there."""
    homes: dict[tuple[int, int], int] = {}  # pair -> its one cell so far, -1: several
    for i, (digit, label) in enumerate(zip(digits, labels)):
        for k in label_doms[i] if label is None else (label,):
            for d in digit_doms[i] if digit is None else (digit,):
                homes[k, d] = -1 if (k, d) in homes else i
    if len(homes) < n * n:
        return False
    if drop is None:
        return True
    for (k, d), i in homes.items():
        if i < 0:
            continue
        if labels[i] is None and not _keep_only(label_doms[i], (k,), drop):
            return False
        if digits[i] is None and not _keep_only(digit_doms[i], (d,), drop):
            return False
    return True


def _drop_each(domain, values, drop) -> bool:
    """Drop `values` from `domain`; False when nothing is left."""
    for value in domain[:]:
        if value in values:
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
