"""Variant rules beside the houses: the generic "by rule" step and the killer 45 rule.

By rule: a candidate goes when one rule's constraints (all those sharing its
label, e.g. a cage's sum and its no-repeat) have no completion with it over the
current candidates. It reads only the constraint vocabulary, so a new rule is
explained with no new code. Automata (`Regular`) too wide to enumerate are read
through their layered graph instead: a candidate goes when no accepted word gives
it to its cell. Innies and outies: the cages inside a house leave
a known sum to the house's other cells, and cages covering a house with a few
cells sticking out give those cells a known sum.
"""

from __future__ import annotations

from functools import cache

from ...grid.constraints import AllDifferent, Constraint, Less, Regular, Sum
from ..state import Layout, State, bit_values, popcount
from ..step import make_step
from ..technique import technique

NODE_LIMIT = 50_000  # a rule too wide to enumerate is left alone (no step, never a wrong one)


@cache
def rule_groups(layout: Layout) -> tuple[tuple[str, tuple[Constraint, ...]], ...]:
    """The rules' constraints grouped by label, with the small all-different ones
    that share it (a cage's no-repeat goes with its sum)."""
    groups: dict[str, list[Constraint]] = {}
    for con in layout.rules:
        groups.setdefault(con.describe(), []).append(con)
    for con in layout.small_groups:
        if con.describe() in groups:
            groups[con.describe()].append(con)
    return tuple((label, tuple(cons)) for label, cons in groups.items())


def supported(state: State, constraints, cells: list[int]) -> dict[int, int] | None:
    """Per cell, the mask of values that appear in some completion of the constraints
    (None when the search is too wide to finish)."""
    domain = [state.cand[c] or 1 << (state.values[c] - 1) for c in cells]
    index = {c: i for i, c in enumerate(cells)}
    order = sorted(range(len(cells)), key=lambda i: bin(domain[i]).count("1"))
    assigned: list[int] = [0] * len(cells)
    support = [0] * len(cells)
    nodes = 0
    cons = [(con, [index[c] for c in con.cells]) for con in constraints]
    watch: list[list[int]] = [[] for _ in cells]
    for k, (_con, idx) in enumerate(cons):
        for i in idx:
            watch[i].append(k)

    def consistent(i: int) -> bool:
        for k in watch[i]:
            con, idx = cons[k]
            vals = [assigned[j] for j in idx]
            if isinstance(con, AllDifferent):
                seen = [v for v in vals if v]
                if len(seen) != len(set(seen)):
                    return False
            elif isinstance(con, Less):
                if any(a and b and not a < b for a, b in zip(vals, vals[1:])):
                    return False
            elif isinstance(con, Sum):
                weights = con.weights()
                lo = hi = 0
                for w, j, v in zip(weights, idx, vals):
                    if v:
                        lo += w * v
                        hi += w * v
                    else:
                        vs = bit_values(domain[j])
                        lo += min(w * vs[0], w * vs[-1])
                        hi += max(w * vs[0], w * vs[-1])
                if not lo <= con.total <= hi:
                    return False
            elif all(vals) and not con.holds(vals):
                return False
        return True

    def search(pos: int) -> bool:
        nonlocal nodes
        if pos == len(order):
            for i, v in enumerate(assigned):
                support[i] |= 1 << (v - 1)
            return True
        i = order[pos]
        for v in bit_values(domain[i]):
            nodes += 1
            if nodes > NODE_LIMIT:
                raise TimeoutError
            assigned[i] = v
            if consistent(i):
                search(pos + 1)
            assigned[i] = 0
        return False

    try:
        search(0)
    except TimeoutError:
        return None
    return {c: support[i] for i, c in enumerate(cells)}


def automaton_support(state: State, constraints, cells: list[int]) -> dict[int, int]:
    """Per cell, the values some accepted word of every automaton gives it (at every place
    an automaton reads the cell), narrowed until no automaton narrows further. Sound,
    not always complete: a value kept may still have no completion of them all."""
    doms = {c: set(bit_values(state.cand[c] or 1 << (state.values[c] - 1))) for c in cells}
    changed = True
    while changed:
        changed = False
        for con in constraints:
            kept: dict[int, set[int]] = {}
            for c, edges in zip(con.cells, con.automaton.paths([doms[c] for c in con.cells])):
                values = {v for _, v, _ in edges}
                kept[c] = kept[c] & values if c in kept else values
            for c, values in kept.items():
                if values != doms[c]:
                    doms[c] &= values
                    changed = True
    return {c: sum(1 << (v - 1) for v in doms[c]) for c in cells}


def _support(state: State, constraints, cells: list[int]) -> dict[int, int] | None:
    """The values each cell keeps: by search, or through the automata when a search over
    them cannot finish (one automaton is judged only once all its cells hold values, so
    over more than NODE_LIMIT candidate tuples the search gives up)."""
    automata = all(isinstance(con, Regular) for con in constraints)
    if automata and len(constraints) == 1:
        tuples = 1
        for c in cells:
            tuples *= popcount(state.cand[c]) or 1
        if tuples > NODE_LIMIT:
            return automaton_support(state, constraints, cells)
    found = supported(state, constraints, cells)
    if found is None and automata:
        return automaton_support(state, constraints, cells)
    return found


_SUPPORT: dict = {}  # (constraints, candidates of their cells) -> supported values


def _eliminations(state: State, constraints, label: str, remember: bool = False):
    cells = sorted({c for con in constraints for c in con.cells})
    if not any(state.cand[c] for c in cells):
        return None
    # most rules keep their candidates from one step to the next: remember the answer
    # (the rule groups live as long as their layout, so their identity is a safe key)
    key = (id(constraints), tuple(state.cand[c] or -state.values[c] for c in cells))
    if remember and key in _SUPPORT:
        support = _SUPPORT[key]
    else:
        support = _support(state, constraints, cells)
        if remember:
            if len(_SUPPORT) > 100_000:
                _SUPPORT.clear()
            _SUPPORT[key] = support
    if support is None:
        return None
    elims = [(c, v) for c in cells for v in bit_values(state.cand[c] & ~support[c])]
    return elims, cells


@technique("By Rule", 2.0, order=2.05)
def by_rule(state: State):
    """A candidate with no completion of one rule (cage, thermometer, arrow, dot...)."""
    for label, cons in rule_groups(state.layout):
        found = _eliminations(state, cons, label, remember=True)
        if found and found[0]:
            yield make_step("By Rule", 2.0, state.size, what=label, eliminations=found[0],
                            cells=found[1], groups=[label])


def _cages(state: State) -> list[tuple[frozenset[int], int]]:
    return [(frozenset(con.cells), con.total) for con in state.layout.rules
            if isinstance(con, Sum) and con.coeffs is None
            and con.describe().startswith("cage")]


@technique("Innies and Outies", 2.8)
def innies_outies(state: State):
    """The 45 rule: a house holds 1..N once, so the cells its cages leave out (innies),
    or the cells that stick out of cages covering it (outies), have a known sum."""
    cages = _cages(state)
    if not cages:
        return
    n = state.size
    full = n * (n + 1) // 2
    for house in state.layout.houses:
        cells = set(house.cells)
        inside = [(cs, t) for cs, t in cages if cs <= cells]
        rest = cells.difference(*[cs for cs, _ in inside]) if inside else cells
        if inside and 0 < len(rest) <= 4:
            total = full - sum(t for _, t in inside)
            cons = [Sum(tuple(sorted(rest)), total=total), AllDifferent(tuple(sorted(rest)))]
            found = _eliminations(state, cons, house.label)
            if found and found[0]:
                yield make_step("Innies", 2.8, n,
                                what=f"{house.label}: innies sum to {total}",
                                eliminations=found[0], cells=sorted(rest), groups=[house.label])
        touching = [(cs, t) for cs, t in cages if cs & cells]
        covered = set().union(*[cs for cs, _ in touching]) if touching else set()
        if cells <= covered:
            out = covered - cells
            if 0 < len(out) <= 4:
                total = sum(t for _, t in touching) - full
                cons = [Sum(tuple(sorted(out)), total=total)]
                found = _eliminations(state, cons, house.label)
                if found and found[0]:
                    yield make_step("Outies", 2.8, n,
                                    what=f"{house.label}: outies sum to {total}",
                                    eliminations=found[0], cells=sorted(out),
                                    groups=[house.label])
