"""The solver-independent constraint vocabulary.

Every rule of every variant lowers to these few constraints over cells
(cell index -> value 1..N). Each constraint

- `check(grid)`: tells whether a complete assignment satisfies it, with no
  help from any solver (the independent checker builds on this);
- `decompose(domains)`: rewrites it as `Allowed` tables, so a backend that has
  no native support for a kind can still run it.

`Regular` reads an automaton along its cells (see `automaton.py`): the line
rules (whispers, entropic, modular, sum lines ...) are regular languages.
`OwnPass` ones (`RegionRuns`: runs in regions found while solving; `SameSet`: two
groups holding the same digits; `SameCount`: two groups holding one digit as often
each; `Sandwich`: a sum between a line's crusts; `XSum`:
a sum of a line's first X digits) the native engine propagates without their
automata.

A backend declares which kinds it handles natively (`Backend.native_kinds`);
`lower_for` in `model.py` decomposes the rest.
Unary restrictions (`InSet`) never reach a backend: they are folded into the
cell domains when the model is built.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import ClassVar

from ..errors import BackendError
from .automaton import Automaton, along

Cells = tuple[int, ...]


@dataclass(frozen=True)
class Constraint:
    cells: Cells
    # What the constraint stands for ("row 3", "cage at r1c1"), for messages only.
    label: str = field(default="", compare=False, kw_only=True)
    kind: ClassVar[str] = "constraint"

    def describe(self) -> str:
        return self.label or f"{self.kind} over {len(self.cells)} cells"

    def check(self, grid: Sequence[int]) -> bool:
        return self.holds([grid[c] for c in self.cells])

    def holds(self, values: Sequence[int]) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def pieces(self) -> tuple[Constraint, ...]:
        """The constraint in the shared vocabulary: itself, or for a kind only some
        engines search whole (full rank), the simpler constraints that say the same."""
        return (self,)

    def decompose(self, domains: Sequence[frozenset[int]]) -> list[Constraint]:
        """Default decomposition: one table of every satisfying tuple."""
        choices = [sorted(domains[c]) for c in self.cells]
        tuples = tuple(t for t in itertools.product(*choices) if self.holds(t))
        return [Allowed(self.cells, tuples)]


@dataclass(frozen=True)
class AllDifferent(Constraint):
    """No two of the cells hold the same value (rows, columns, regions, cages, pairs)."""

    kind: ClassVar[str] = "alldifferent"

    def holds(self, values):
        return len(set(values)) == len(values)

    def decompose(self, domains):
        # Pairwise inequality tables stay small where a whole-unit table would explode.
        out = []
        for a, b in itertools.combinations(self.cells, 2):
            pairs = tuple((x, y) for x in sorted(domains[a]) for y in sorted(domains[b]) if x != y)
            out.append(Allowed((a, b), pairs))
        return out


@dataclass(frozen=True)
class Sum(Constraint):
    """sum(coeff_i * cell_i) == total. Killer cages, little killers, arrows, X/V."""

    total: int = 0
    coeffs: tuple[int, ...] | None = None  # None: all 1

    kind: ClassVar[str] = "sum"

    def weights(self) -> tuple[int, ...]:
        return self.coeffs if self.coeffs is not None else (1,) * len(self.cells)

    def holds(self, values):
        return sum(w * v for w, v in zip(self.weights(), values)) == self.total


@dataclass(frozen=True)
class Less(Constraint):
    """cells[0] < cells[1] < ... : thermometers, greater-than signs."""

    kind: ClassVar[str] = "less"

    def holds(self, values):
        return all(a < b for a, b in zip(values, values[1:]))

    def decompose(self, domains):
        out = []
        for a, b in zip(self.cells, self.cells[1:]):
            pairs = tuple((x, y) for x in sorted(domains[a]) for y in sorted(domains[b]) if x < y)
            out.append(Allowed((a, b), pairs))
        return out


@dataclass(frozen=True)
class Allowed(Constraint):
    """The cells' values form one of the listed tuples (a table constraint)."""

    tuples: tuple[tuple[int, ...], ...] = ()

    kind: ClassVar[str] = "allowed"

    def holds(self, values):
        return tuple(values) in self._tuple_set

    @cached_property
    def _tuple_set(self) -> frozenset[tuple[int, ...]]:
        # Kept: check() is called once per solution.
        return frozenset(self.tuples)

    def decompose(self, domains):
        return [self]


@dataclass(frozen=True)
class InSet(Constraint):
    """Unary restriction: each cell takes a value from `values` (even/odd cells)."""

    values: frozenset[int] = frozenset()

    kind: ClassVar[str] = "inset"

    def holds(self, values):
        return all(v in self.values for v in values)


MAX_WORDS = 20_000  # accepted sequences a Regular without a window may list as one table


@dataclass(frozen=True)
class Regular(Constraint):
    """The cells' values, read in order, form a word the automaton accepts.

    Decomposition: an automaton with a `window` k becomes one table per run of
    k consecutive cells (the values of that run on some accepted word), exact
    because its language is exactly "every run fits"; without a window, one
    table of the accepted words while they are few, else it is refused (a
    table would grow exponentially with the line)."""

    automaton: Automaton = Automaton(0, frozenset({0}), ())

    kind: ClassVar[str] = "regular"

    def holds(self, values):
        return self.automaton.accepts(values)

    def decompose(self, domains):
        doms = [domains[c] for c in self.cells]
        k = self.automaton.window
        if k is not None and len(self.cells) > k:
            return [Allowed(self.cells[i:i + k], tuple(self.automaton.runs(doms, i, k) or ()),
                            label=self.label)
                    for i in range(len(self.cells) - k + 1)]
        words = self.automaton.words(doms, MAX_WORDS)
        if words is None:
            raise BackendError(f"{self.describe()}: more than {MAX_WORDS} value sequences "
                               f"fit; too many to list as a table for this backend")
        return [Allowed(self.cells, tuple(words), label=self.label)]


@dataclass(frozen=True)
class Regions(Constraint):
    """Regions found while solving (chaos construction). `cells` holds the N*N grid
    cells, then one region label (1..N) per cell, in the same order: the labels split
    the grid into N orthogonally connected regions of N cells, each holding every
    digit once, labelled in the order of their first cells (the region of r1c1 is 1,
    the next region met in reading order 2 ...), so one partition has one labelling.

    A new kind: connectivity is a property of the whole partition, which no bounded
    set of tables states; it is not decomposed (backends without it refuse)."""

    width: int = 0  # the grid's side: N

    kind: ClassVar[str] = "regions"

    def holds(self, values):
        n = self.width
        half = len(values) // 2
        digits, labels = values[:half], values[half:]
        seen = 0
        for label in labels:  # canonical: a label first appears right after the last new one
            if label > seen + 1 or label < 1:
                return False
            seen = max(seen, label)
        members: dict[int, list[int]] = {}
        for i, label in enumerate(labels):
            members.setdefault(label, []).append(i)
        if len(members) != n:
            return False
        for cells in members.values():
            if len(cells) != n or len({digits[i] for i in cells}) != n:
                return False
            if not _connected(cells, n):
                return False
        return True

    def decompose(self, domains):
        raise BackendError(f"{self.describe()}: regions found while solving cannot be "
                           f"expressed as tables; only backends that know them search them")


@dataclass(frozen=True)
class OwnPass(Regular):
    """A regular constraint the native engine propagates with a pass of its own: its
    `automaton` (which every other backend reads) is built from the fields that say
    what the constraint is, when first read."""

    automaton: Automaton | None = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    def build(self) -> Automaton:  # pragma: no cover
        raise NotImplementedError

    def __getattribute__(self, name: str):
        if name == "automaton":
            found = object.__getattribute__(self, "__dict__").get("automaton")
            if found is None:
                found = self.build()
                object.__setattr__(self, "automaton", found)
            return found
        return object.__getattribute__(self, name)


@dataclass(frozen=True)
class RegionRuns(OwnPass):
    """Runs in regions found while solving (chaos arrows and counts). `cells` holds
    a digit, then a start cell's region label, then the labels along each arm from
    the start (the start left out), arm after arm, `arms` their lengths. The digit
    plus `offset` is 1 (the start) plus each arm's run: its first labels equal to the
    start's, up to the first other one. A count is arms of one cell each. `near`:
    arms of which one at least must have a run (the start's orthogonal neighbours,
    when each is an arm's first cell: the start's region is connected).

    Its automaton has thousands of states for a four-armed arrow, slow to build; the
    native engine has a pass of its own instead."""

    size: int = 0  # the labels (and digits): 1..size
    arms: tuple[int, ...] = ()
    offset: int = 0
    near: frozenset[int] = frozenset()

    def __post_init__(self):
        if len(self.cells) != 2 + sum(self.arms) or not all(n >= 1 for n in self.arms):
            raise ValueError(f"{self.describe()}: a digit, a start and the arms' cells")

    def build(self) -> Automaton:
        return runs_automaton(self.size, self.arms, self.offset, self.near)


@dataclass(frozen=True)
class SameSet(OwnPass):
    """Two groups of cells (the first half of `cells`, then the second), each of
    different values (each lies in a unit), hold the same values in any order; the
    values read are `values`. Its automaton's state is the first group's values not
    yet matched: 848 states for six cells of 1..9."""

    values: range = range(1, 10)

    def __post_init__(self):
        if len(self.cells) % 2:
            raise ValueError(f"{self.describe()}: two groups of as many cells")

    def build(self) -> Automaton:
        return same_set(self.values, len(self.cells) // 2)


@dataclass(frozen=True)
class SameCount(OwnPass):
    """Two groups of cells (the first half of `cells`, then the second) hold `value`
    as often each; the values read are `values`. Its automaton's state is the cells
    read and the first group's surplus of `value` (256 states for 15 cells a group);
    the native engine compares the counts' bounds instead."""

    values: range = range(1, 10)
    value: int = 1

    def __post_init__(self):
        if len(self.cells) % 2 or self.value not in self.values:
            raise ValueError(f"{self.describe()}: two groups of as many cells, and one of "
                             f"the values")

    def build(self) -> Automaton:
        return same_count(self.values, len(self.cells) // 2, self.value)


@dataclass(frozen=True)
class Sandwich(OwnPass):
    """The values between the smallest and the largest value (the crusts) of a line
    holding every value once add up to `total`. Its automaton (reading that for every
    backend) comes from the rule that made it; the native engine's own pass tries each
    place of the crusts with the sets of values between that make the total (as ISS's
    sandwich handler), cheaper than a pass over the automaton's states (up to 258 on
    9x9)."""

    total: int = 0

    def __post_init__(self):
        if object.__getattribute__(self, "automaton") is None:
            raise ValueError(f"{self.describe()}: a sandwich is made with its automaton")


@dataclass(frozen=True)
class XSum(OwnPass):
    """The first X values of a line holding every value once add up to `total`, X
    being its first value (x-sums). Its automaton (reading that for every backend)
    comes from the rule that made it; the native engine takes it as ISS does, an
    either/or over X of "the first value is X and the next X - 1, all different, add
    up to the rest", where the automaton's partial sums forget which values were used,
    so it cannot use that those cells all differ."""

    total: int = 0

    def __post_init__(self):
        if object.__getattribute__(self, "automaton") is None:
            raise ValueError(f"{self.describe()}: an x-sum is made with its automaton")


@cache
def same_set(values: range, length: int) -> Automaton:
    """2 x `length` values, each half of different values, the second half a reordering
    of the first. The state is the cells read and the set of the first half's values
    not yet matched (where the multisets would take 7,007 states on six cells of 1..9)."""
    def step(state, v: int):
        read, pending = state
        if read < length:
            return None if v in pending else (read + 1, pending | {v})
        return (read + 1, pending - {v}) if v in pending else None

    return Automaton.build((0, frozenset()), step,
                           lambda state: state == (2 * length, frozenset()), values)


@cache
def same_count(values: range, length: int, value: int) -> Automaton:
    """2 x `length` values with as many `value`s in the first half as in the second.
    The state is the cells read and the first half's surplus of `value`."""
    def step(state, v: int):
        read, surplus = state
        if read < length:
            return read + 1, surplus + (v == value)
        surplus -= v == value
        if not 0 <= surplus <= 2 * length - read - 1:
            return None
        return read + 1, surplus

    return Automaton.build((0, 0), step, lambda state: state == (2 * length, 0), values)


@cache
def runs_automaton(size: int, arms: tuple[int, ...], offset: int,
                   near: frozenset[int] = frozenset()) -> Automaton:
    """`RegionRuns` read along its cells. A state: cells read after the start, the
    start's label, cells the runs still owe, whether the current arm's run goes on,
    whether a near arm has had a run."""
    firsts = [sum(arms[:i]) for i in range(len(arms))]
    near_firsts = {firsts[a] for a in near}
    total = sum(arms)

    def step(state, value):
        if state is None:  # the digit: how many cells the runs hold, the start's too
            need = value + offset
            return ("need", need) if 1 <= need <= total + 1 else None
        if state[0] == "need":
            return 0, value, state[1] - 1, True, not near
        at, label, left, open_, met = state
        if at == total:
            return None
        open_ = open_ or at in firsts
        if open_ and value == label:
            return (at + 1, label, left - 1, True, met or at in near_firsts) if left else None
        return at + 1, label, left, False, met

    return Automaton.build(None, step, lambda state: state is not None
                           and state[0] != "need" and state[0] == total and state[2] == 0
                           and state[4], range(1, size + 1))


def orthogonal_pairs(n: int) -> list[tuple[int, int]]:
    """Each pair of orthogonal neighbours of an n x n grid once, as (i, j) with i < j
    (positions row * n + column): what regions found while solving are connected by."""
    return [(i, j) for i in range(n * n) for j in orthogonal_neighbours(i, n) if i < j]


def orthogonal_neighbours(i: int, n: int) -> list[int]:
    """The orthogonal neighbours of position i (row * n + column) on an n x n grid."""
    r, c = divmod(i, n)
    return [j for j, ok in ((i - n, r > 0), (i + n, r < n - 1), (i - 1, c > 0),
                            (i + 1, c < n - 1)) if ok]


def one_step_nearer(roots: Sequence[int], same: dict[tuple[int, int], int],
                    near: Sequence[int], n: int,
                    both: Callable[[int, int], int]) -> list[list[int]]:
    """Per position of an n x n grid, the ways it lies within one more step of its
    region's root than `near` says: it is the root, or `both` of "same region as a
    neighbour" and that neighbour being near. The levels of the distance encodings
    by which sat and mip keep regions found while solving connected."""
    return [[roots[i]] + [both(same[i, j], near[j]) for j in orthogonal_neighbours(i, n)]
            for i in range(n * n)]


def _connected(cells: list[int], width: int) -> bool:
    """Whether grid positions (row * width + column) form one orthogonal piece."""
    inside = set(cells)
    reached, todo = {cells[0]}, [cells[0]]
    while todo:
        i = todo.pop()
        r, c = divmod(i, width)
        for nb, ok in ((i - width, r > 0), (i + width, r < width - 1),
                       (i - 1, c > 0), (i + 1, c < width - 1)):
            if ok and nb in inside and nb not in reached:
                reached.add(nb)
                todo.append(nb)
    return len(reached) == len(inside)


MAX_TUPLES = 50_000  # value tuples an AnyOf may list as one table
MAX_TRIES = 200_000  # partial assignments tried while listing them


@dataclass(frozen=True)
class AnyOf(Constraint):
    """At least one group of constraints holds (either/or of rules): `cells` is the union
    of the groups' cells, `alternatives` the groups.

    A new kind: a disjunction is no conjunction of the others. CP-SAT takes it whole
    (a literal per group enforcing its constraints, at least one literal true). Elsewhere
    it becomes one table over `cells` of the value tuples that satisfy some group, each
    group's tuples listed by a depth-first search over the domains that checks each of
    its constraints once their cells have values; past MAX_TUPLES tuples (or MAX_TRIES
    tries) it is refused, as a Regular too long to list is."""

    alternatives: tuple[tuple[Constraint, ...], ...] = ()

    kind: ClassVar[str] = "anyof"

    def holds(self, values):
        at = dict(zip(self.cells, values))
        return any(all(con.holds([at[c] for c in con.cells]) for con in group)
                   for group in self.alternatives)

    def as_regular(self, values: Sequence[int]) -> Regular | None:
        """The disjunction as one automaton, when its alternatives are automata, sums
        of positive weights (cages) and allowed digits (a given, odd or even cells) on
        cells that read in one order (each automaton's and sum's cells in their order;
        lines that cross mid-way interleave). Each alternative is then one
        automaton over that line, reading its parts at once (`automaton.along`), and the
        disjunction their union (nondeterministic: the first value chooses the
        alternative), which every backend reads, where a table would list every word.
        None when the alternatives do not fit that shape."""
        automata: dict[int, Automaton] = {}  # by id: what each reads, InSets aside
        for con in (con for group in self.alternatives for con in group):
            if isinstance(con, Regular):
                automata[id(con)] = con.automaton
            elif not isinstance(con, (Sum, InSet)):
                return None
        # a line read one way in an alternative and the other way in another: both
        # read it the first way, the second's automaton reversed
        ways: dict[frozenset[int], Cells] = {}
        alternatives = []
        for group in self.alternatives:
            turned = []
            for con in group:
                way = ways.setdefault(frozenset(con.cells), con.cells)
                if isinstance(con, Regular) and way == con.cells[::-1] != con.cells:
                    con = Regular(way, automaton=con.automaton.reversed(), label=con.label)
                    automata[id(con)] = con.automaton
                turned.append(con)
            alternatives.append(tuple(turned))
        # a sum reads the same in any order: only automata fix the line's order (a sum's
        # cells come where they are first met, so a cage still reads on in its order)
        sums = [c for group in alternatives for con in group if isinstance(con, Sum)
                for c in con.cells]
        line = _one_order([con.cells for group in alternatives for con in group
                           if isinstance(con, Regular)], tuple(sums) + self.cells)
        if line is None:
            return None
        where = {c: k for k, c in enumerate(line)}
        for con in (con for group in alternatives for con in group if isinstance(con, Sum)):
            found = _sum_along(con, where, values)
            if found is None:
                return None
            automata[id(con)] = found[1]
        parts: list[Automaton] = []
        for group in alternatives:
            allowed = [frozenset(values)] * len(line)
            for con in group:
                if isinstance(con, InSet):
                    for c in con.cells:
                        allowed[where[c]] &= con.values
            read = [(_in_line_order(con, where), automata[id(con)]) for con in group
                    if id(con) in automata]
            if len(read) == 1 and read[0][0] == line and len(group) == 1:
                parts.append(read[0][1])  # the line's own automaton: nothing to combine
                continue
            part = along(line, read, allowed)
            if part is None:
                return None
            parts.append(part)
        return Regular(line, automaton=union(parts), label=self.label)

    def decompose(self, domains, tries: int | None = None):
        """One table; `tries` bounds the partial assignments each alternative may try
        (a backend that can take the AnyOf whole gives up on a table sooner)."""
        tuples: set[tuple[int, ...]] = set()
        too_many = BackendError(f"{self.describe()}: more than {MAX_TUPLES} value tuples "
                                f"satisfy an alternative; too many to list as a table for "
                                f"this backend (cpsat takes either/or whole)")
        parts = []
        for group in self.alternatives:
            own = tuple(dict.fromkeys(c for con in group for c in con.cells))
            free = [c for c in self.cells if c not in own]
            parts.append((group, own, free))
            # one way to satisfy it, times the other cells' values: known too many at once
            # (a given digit beside a skyscraper leaves nine cells free)
            if (math.prod(len(domains[c]) for c in free) > MAX_TUPLES
                    and next(self._satisfying(own, group, domains, tries or MAX_TRIES), None)):
                raise too_many
        for group, own, free in parts:
            for values in self._satisfying(own, group, domains, tries or MAX_TRIES):
                at = dict(zip(own, values))
                for rest in itertools.product(*(sorted(domains[c]) for c in free)):
                    at.update(zip(free, rest))
                    tuples.add(tuple(at[c] for c in self.cells))
                    if len(tuples) > MAX_TUPLES:
                        raise too_many
        return [Allowed(self.cells, tuple(sorted(tuples)), label=self.label)]

    def _satisfying(self, cells: Cells, group, domains, most: int):
        """Every tuple of values on `cells` satisfying all of `group`."""
        depth = {c: d for d, c in enumerate(cells)}
        due: list[list[Constraint]] = [[] for _ in cells]
        for con in group:
            due[max(depth[c] for c in con.cells)].append(con)
        choices = [sorted(domains[c]) for c in cells]
        values: dict[int, int] = {}
        tries = 0

        def extend(d: int):
            nonlocal tries
            if d == len(cells):
                yield tuple(values[c] for c in cells)
                return
            for v in choices[d]:
                tries += 1
                if tries > most:
                    raise BackendError(f"{self.describe()}: more than {most} value "
                                       f"combinations tried while listing its table for "
                                       f"this backend (cpsat takes either/or whole)")
                values[cells[d]] = v
                if all(con.holds([values[c] for c in con.cells]) for con in due[d]):
                    yield from extend(d + 1)
            values.pop(cells[d], None)

        return extend(0)


def _one_order(sequences: Sequence[Cells], rest: Cells) -> Cells | None:
    """The cells of every sequence, then `rest`, in one order keeping each sequence's
    (None when none does: a line read both ways). Of the cells free to come next, the
    one met first in the sequences comes first, so a line is read on until it crosses
    another whose cells before the crossing come first."""
    first: dict[int, int] = {}
    for cell in (c for seq in sequences for c in seq):
        first.setdefault(cell, len(first))
    for cell in rest:
        first.setdefault(cell, len(first))
    after: dict[int, set[int]] = {c: set() for c in first}
    before = dict.fromkeys(first, 0)
    for seq in sequences:
        if len(set(seq)) != len(seq):
            return None
        for a, b in zip(seq, seq[1:]):
            if b not in after[a]:
                after[a].add(b)
                before[b] += 1
    ready = [(first[c], c) for c, n in before.items() if n == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        _, cell = heapq.heappop(ready)
        order.append(cell)
        for nxt in after[cell]:
            before[nxt] -= 1
            if before[nxt] == 0:
                heapq.heappush(ready, (first[nxt], nxt))
    return tuple(order) if len(order) == len(first) else None


def _in_line_order(con: Constraint, where: dict[int, int]) -> Cells:
    """The cells a part reads along the line: an automaton's own order, a sum's cells
    (each once) in the line's order."""
    if isinstance(con, Sum):
        return tuple(sorted(set(con.cells), key=where.__getitem__))
    return con.cells


def _sum_along(con: Sum, where: dict[int, int],
               values: Sequence[int]) -> tuple[Cells, Automaton] | None:
    """A weighted sum as an automaton over its cells in the line's order (a cell listed
    twice counts its weights together), the partial sum its state; None when a
    weight is not whole."""
    weights: dict[int, int] = {}
    for c, w in zip(con.cells, con.weights()):
        if not isinstance(w, int):
            return None
        weights[c] = weights.get(c, 0) + w
    cells = _in_line_order(con, where)
    return cells, _partial_sums(tuple(weights[c] for c in cells), con.total, tuple(values))


@cache
def _partial_sums(weights: tuple[int, ...], total: int, values: tuple[int, ...]) -> Automaton:
    """The weighted sum of the values read is `total`. States: (cells read, the sum so
    far), kept only while the cells left can still bring it to the total (weights of
    either sign: an arrow's circle counts negatively)."""
    low, high = min(values), max(values)
    # reach[k]: the least and the most the cells from k on can add
    reach = [(0, 0)] * (len(weights) + 1)
    for k in range(len(weights) - 1, -1, -1):
        w = weights[k]
        a, b = sorted((w * low, w * high))
        reach[k] = (reach[k + 1][0] + a, reach[k + 1][1] + b)

    def step(state, v):
        at, partial = state
        partial += weights[at] * v
        least, most = reach[at + 1]
        return (at + 1, partial) if partial + least <= total <= partial + most else None

    return Automaton.build((0, 0), step, lambda state: state == (len(weights), total), values,
                           longest=len(weights))


def union(automata: Sequence[Automaton]) -> Automaton:
    """An automaton accepting the words any of `automata` accepts: a new start state
    0 moves as each one's start does, into that one's states (renumbered after)."""
    transitions: list[tuple[int, int, int]] = []
    accepting: set[int] = set()
    at = 1
    for a in automata:
        transitions.extend((s + at, v, t + at) for s, v, t in a.transitions)
        transitions.extend((0, v, t + at) for s, v, t in a.transitions if s == a.start)
        accepting.update(s + at for s in a.accepting)
        if a.start in a.accepting:
            accepting.add(0)
        at += a.states
    return Automaton(0, frozenset(accepting), tuple(transitions))


KINDS = ("alldifferent", "sum", "less", "allowed", "regular")
