"""The compiled search for models with every constraint kind (`_vkernel`, C).

`engine.kernel` covers all-different models only; this one also takes the
plan's other constraints, each added by its kind's call on the kernel
(`add_sum`, `add_cage`, `add_table`, ...; `add`):

- a sum whose cells must all differ (a killer cage): its value sets, the same
  table `propagators.DistinctSum` keeps;
- any other sum (little killers, arrows, region-sum lines): its weights, its
  cells ordered in groups that must all differ (cells of one box on a little
  killer's diagonal) with their sizes, since a group's value sets add up to
  fewer totals than its cells taken one by one;
- a less chain (thermometers, greater-than): its cells alone;
- a table (kropki, anything decomposed): its tuples, flattened;
- a regular constraint (line rules): its automaton's states, start, accepting
  states and transitions;
- regions found while solving (chaos construction): the grid's width, the
  anchors and the pairs of cells same-region clues put in one region; the labels
  are variables after the cells;
- two groups holding the same values (`SameSet`): their cells, for a pass of its own;
  and two holding one value as often (`SameCount`): their cells and the value;
- a sandwich on a line holding every value once (`Sandwich`): the sets of values
  between its crusts that make its total, for a pass of its own;
- runs in those regions (chaos arrows and counts, `RegionRuns`): the offset, the
  labels' place, the arms' lengths and which are near, for a pass of their own;
- full rank (`FullRank`): the tie rule and the clues' readings and ranks, for a pass
  of its own and a branching hint (where a digit goes on an edge);
- either/or (`AnyOf`): its alternatives, each a list of the kinds above (sums to
  automata; a given as a one-cell table, an all-different group as the value sets
  it may take), for a constructive-disjunction pass.

Beside them, `counts.implied_counts` joins the automata that count values
along the same cells (counting circles, quadruples) into one constraint, and
`implied_sets` gives an all-different group smaller than a unit
whose every pair of cells is bound by a two-cell table (a renban line: pairwise
distinct and close) the value sets it can take, searched like a cage's: a value
every set holds must go to the one cell left for it, which pairwise tables
alone never see (a five-cell renban on 1..9 always holds a 5).

Same interface as `kernel.solve`; the extension is optional (`available()`).
"""

from __future__ import annotations

import itertools
import time
from functools import cache
from math import comb

from ..grid.constraints import (
    AllDifferent,
    Allowed,
    AnyOf,
    InSet,
    Less,
    OwnPass,
    RegionRuns,
    Regions,
    Regular,
    SameCount,
    SameSet,
    Sandwich,
    Sum,
    XSum,
)
from ..grid.ranks import TIES, FullRank, reading_cells
from .counts import implied_counts
from .plan import Plan, mask_of
from .propagators import MAX_COMBINATIONS, DistinctSum
from .regions import anchors, clue_weights, links, relabel

try:
    from . import _vkernel  # type: ignore[attr-defined]
except ImportError:  # built without a compiler: the pure-Python engine is used
    _vkernel = None

MAX_VALUES = 32 if _vkernel is None else _vkernel.MAX_VALUES
MAX_STATES = 1 << 20  # the most states of an automaton the extension takes

# Branching choices the kernel offers. Measured on ISS's examples with other
# constraints (nodes to two solutions): the most conflicts per candidate took
# 8,435 on 'Leven against 76,689 for the fewest candidates, 46,321 on The
# Barbed Cross against 904,564 (see docs/benchmarks.md); "conflicts-places" also
# branches on a value's two places in a unit when they have more conflicts
# (ISS's 104 puzzles the kernel searches, Sandwich snipe 18 aside, stopped at
# 10 s either way: 920,224 nodes to 676,357).
CHOICES = {"fewest": 0, "fewest-conflicts": 1, "conflicts": 2, "conflicts-places": 3}
DEFAULT_CHOICE = "conflicts-places"


def available() -> bool:
    return _vkernel is not None


def applicable(plan: Plan) -> str | None:
    """Why this kernel cannot search the plan, or None when it can (once per structure)."""
    return plan.structure.once("vkernel_refusal", lambda: _refusal(plan))


def _refusal(plan: Plan) -> str | None:
    if _vkernel is None:
        return "the C kernel for variants is not built"
    if not 1 <= plan.size <= MAX_VALUES:
        return f"the kernel handles 1 to {MAX_VALUES} values, not {plan.size}"
    for con in plan.structure.others:
        if isinstance(con, AnyOf):
            why = _alternatives_refusal(con, plan.size)
            if why is not None:
                return why
            continue
        if not isinstance(con, (Sum, Less, Allowed, Regular, Regions, FullRank)):
            return f"no compiled propagator for {con.kind} constraints"
        if (isinstance(con, Regular) and not isinstance(con, OwnPass)  # its own pass
                and con.automaton.states > MAX_STATES):
            return too_large(con)
        if isinstance(con, FullRank) and len({rank for _, rank in con.clues}) < len(con.clues):
            return "full-rank clues that share a rank (the pass orders clued readings)"
    return None


def _alternatives_refusal(con: AnyOf, n: int) -> str | None:
    for group in con.alternatives:
        for inner in group:
            if isinstance(inner, AllDifferent) and comb(n, len(inner.cells)) > MAX_COMBINATIONS:
                return f"an all-different group of {len(inner.cells)} cells in an either/or"
            if isinstance(inner, RegionRuns) or not isinstance(  # it reads region labels
                    inner, (Sum, Less, Allowed, Regular, InSet, AllDifferent)):
                return f"no compiled propagator for {inner.kind} constraints in an either/or"
            if isinstance(inner, Regular) and inner.automaton.states > MAX_STATES:
                return too_large(inner)
    return None


def too_large(con: Regular) -> str:
    """Why an automaton is beyond the native engine: the kernel's limit, and the
    Python engine's tables of it would take gigabytes."""
    return f"an automaton of more than {MAX_STATES:,} states ({con.label})"


def add(kernel, con, structure, within: int | None = None) -> None:
    """One constraint added to the kernel by its kind's call; `within`: the either/or
    whose last alternative it joins."""
    assert _vkernel is not None
    at = {} if within is None else {"within": within}
    if isinstance(con, Sum):
        combos = DistinctSum.combinations(con, structure)
        if combos is not None:
            kernel.add_cage(con.cells, combos, con.total, **at)
            return
        cells, weights, sizes = distinct_groups(con, structure)
        kernel.add_sum(cells, weights, con.total, () if len(sizes) == len(cells) else sizes,
                       **at)
    elif isinstance(con, Less):
        kernel.add_less(con.cells, **at)
    elif isinstance(con, Allowed):
        kernel.add_table(con.cells, _flat_rows(con.tuples), **at)
    elif isinstance(con, RegionRuns):  # its own pass, not its automaton's thousands of states
        base, npos = _labels(structure)
        kernel.add_runs(con.cells, con.offset, base, npos, con.arms,
                        tuple(int(a in con.near) for a in range(len(con.arms))), **at)
    elif isinstance(con, SameSet):  # its own pass, on the groups' candidates
        kernel.add_same_set(con.cells, **at)
    elif isinstance(con, SameCount):  # its own pass, on the counts' bounds
        kernel.add_same_count(con.cells, con.value, **at)
    elif isinstance(con, Sandwich) and structure.size <= MAX_SANDWICH_VALUES:
        kernel.add_sandwich(con.cells, between(structure.size, con.total), con.total, **at)
    elif isinstance(con, XSum):
        _add_x_sum(kernel, con, structure)
    elif isinstance(con, Regular):
        _read_along(kernel, con, within)
    elif isinstance(con, FullRank):  # its own pass, as ISS's handler reasons
        n = structure.size
        kernel.add_ranks(con.cells, TIES.index(con.ties), con.clues,
                         tuple(cell for r in range(4 * n) for cell in reading_cells(r, n)), **at)
    elif isinstance(con, AnyOf):
        either = kernel.add_either(con.cells)
        for group in con.alternatives:
            kernel.add_alternative(either)
            for inner in group:
                _add_alternative(kernel, inner, structure, either)
    elif isinstance(con, Regions):
        firsts = anchors(con.width, clue_weights(con, structure.others))
        kernel.add_regions(con.cells, con.width, firsts, links(con, structure.others), **at)
    else:
        raise TypeError(f"no compiled propagator for {con.kind} constraints")


def _read_along(kernel, con: Regular, within: int | None = None) -> None:
    """A regular constraint as its automaton: states, start, accepting, moves."""
    a = con.automaton
    kernel.add_automaton(con.cells, a.states, a.start, tuple(sorted(a.accepting)),
                         _flat_rows(a.transitions),
                         **({} if within is None else {"within": within}))


def _add_x_sum(kernel, con: XSum, structure) -> None:
    """An x-sum as ISS takes it: for each X, the first cell is X and the next X - 1
    cells (a row's or column's, so of different values: a cage) add up to the rest."""
    first, rest = con.cells[0], con.cells[1:]
    either = kernel.add_either(con.cells)
    for x in range(1, min(len(con.cells), structure.size) + 1):
        if x == 1:
            if con.total == 1:
                kernel.add_alternative(either)
                kernel.add_table((first,), (1,), within=either)
            continue
        if con.total < x:
            break
        part = Sum(rest[:x - 1], con.total - x)
        if DistinctSum.combinations(part, structure) != ():  # a cage of no set never holds
            kernel.add_alternative(either)
            kernel.add_table((first,), (x,), within=either)
            add(kernel, part, structure, within=either)


def _add_alternative(kernel, con, structure, either: int) -> None:
    """A constraint of an either/or's alternative: allowed digits (a given, odd cells) a
    one-cell table per cell, an all-different group a cage of every set of distinct
    values (no total), the rest as they are everywhere."""
    if isinstance(con, InSet):
        digits = tuple(sorted(v for v in con.values if 1 <= v <= structure.size))
        for cell in con.cells:
            kernel.add_table((cell,), digits, within=either)
    elif isinstance(con, AllDifferent):
        k = len(set(con.cells))
        sets = () if k < len(con.cells) else tuple(  # a cell twice: no value set fits
            mask_of(vs) for vs in itertools.combinations(range(1, structure.size + 1), k))
        kernel.add_cage(con.cells, sets, within=either)
    elif isinstance(con, (SameSet, SameCount, Sandwich, XSum)):  # an alternative's: automata
        _read_along(kernel, con, either)
    else:
        add(kernel, con, structure, within=either)


MAX_SANDWICH_VALUES = 16  # the sets between the crusts are listed up to 16x16 (16,384)


@cache
def _between_sets(n: int) -> dict[int, tuple[int, ...]]:
    """Per total, the sets of values 2..n-1 that make it (as value masks)."""
    by_total: dict[int, list[int]] = {}
    inner = range(2, n)
    for k in range(len(inner) + 1):
        for values in itertools.combinations(inner, k):
            by_total.setdefault(sum(values), []).append(mask_of(values))
    return {total: tuple(sets) for total, sets in by_total.items()}


def between(n: int, total: int) -> tuple[int, ...]:
    """The sets of values a sandwich of `total` may hold between its crusts 1 and n."""
    return _between_sets(n).get(total, ())


def _labels(structure) -> tuple[int, int]:
    """The first region label variable and how many there are (0, 0 without regions):
    a clue's pass reads the labels outside it (found once per structure)."""
    return structure.once("region labels", lambda: _find_labels(structure))


def _find_labels(structure) -> tuple[int, int]:
    for con in structure.others:
        if isinstance(con, Regions):
            labels = con.cells[len(con.cells) // 2:]
            if labels == tuple(range(labels[0], labels[0] + len(labels))):
                return labels[0], len(labels)
    return 0, 0


_ROWS: dict[int, tuple[tuple, tuple[int, ...]]] = {}  # id(rows) -> (rows, flattened)


def _flat_rows(rows: tuple) -> tuple[int, ...]:
    """A table's rows (or an automaton's transitions) in one tuple; rules share one
    rows object among many tables (anti-taxicab: 2,010 tables, 8 row sets) and one
    automaton among many clues, so each is flattened once."""
    hit = _ROWS.get(id(rows))
    if hit is not None and hit[0] is rows:
        return hit[1]
    if len(_ROWS) > 4096:
        _ROWS.clear()
    flat_ = tuple(itertools.chain.from_iterable(rows))
    _ROWS[id(rows)] = (rows, flat_)
    return flat_


def implied_sets(n: int, constraints) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Cage-like value sets of the all-different groups smaller than a unit whose
    every pair of cells a two-cell table binds: the sets of distinct values every
    pair of which some table of the group allows (a sound superset): (cells, sets) each."""
    groups = [con.cells for con in constraints
              if isinstance(con, AllDifferent) and 2 < len(con.cells) < n
              and len(set(con.cells)) == len(con.cells)
              and comb(n, len(con.cells)) <= MAX_COMBINATIONS]
    if not groups:  # the common case: no table to read
        return []
    wanted = {frozenset(p) for cells in groups for p in itertools.combinations(cells, 2)}
    pairs: dict[frozenset, frozenset] = {}  # two cells -> the unordered value pairs allowed
    for con in constraints:
        if isinstance(con, Allowed) and len(con.cells) == 2 and frozenset(con.cells) in wanted:
            key = frozenset(con.cells)
            allowed = frozenset(frozenset(t) for t in con.tuples)
            pairs[key] = pairs[key] & allowed if key in pairs else allowed
    out = []
    for cells in groups:
        k = len(cells)
        keys = [frozenset(p) for p in itertools.combinations(cells, 2)]
        if not all(key in pairs for key in keys):
            continue
        fine = frozenset().union(*(pairs[key] for key in keys))
        sets = tuple(mask_of(values) for values in itertools.combinations(range(1, n + 1), k)
                     if all(frozenset(p) in fine for p in itertools.combinations(values, 2)))
        if len(sets) < comb(n, k):
            out.append((cells, sets))
    return out


MAX_GROUP_VALUES = 16  # the kernel lists a group's value sets for grids up to 16x16


def distinct_groups(con: Sum, structure) -> tuple[tuple[int, ...], tuple[int, ...],
                                                  tuple[int, ...]]:
    """The sum's cells and weights reordered in groups of cells that share a unit
    and a weight (the largest such group first, then the largest of the rest ...;
    lone cells last, in the sum's order), and the group sizes."""
    n = structure.size
    terms = list(zip(con.cells, con.weights()))
    groups: list[list[tuple[int, int]]] = []
    if n <= MAX_GROUP_VALUES and len(set(con.cells)) == len(con.cells):
        most = max(k for k in range(1, n + 1) if comb(n, k) <= MAX_COMBINATIONS)
        while True:
            left = {cell: w for cell, w in terms}
            best: list[tuple[int, int]] = []
            for u in sorted({u for cell in left for u in structure.cell_units[cell]}):
                by_weight: dict[int, list[tuple[int, int]]] = {}
                for cell in structure.units[u]:
                    if cell in left:
                        by_weight.setdefault(left[cell], []).append((cell, left[cell]))
                for group in by_weight.values():
                    if len(group) > len(best):
                        best = group[:most]
            if len(best) < 2:
                break
            groups.append(best)
            taken = {cell for cell, _ in best}
            terms = [t for t in terms if t[0] not in taken]
    groups.extend([t] for t in terms)
    flat_ = [term for group in groups for term in group]
    return (tuple(c for c, _ in flat_), tuple(w for _, w in flat_),
            tuple(len(group) for group in groups))


def vkernel_of(plan: Plan, constraints=None):
    """The structure's kernel (checked and built by the extension once); `constraints`,
    the model's (those the structure was made from), add the implied value sets of
    its groups (`implied_sets`)."""
    return kernel_and_sources(plan, constraints)[0]


def kernel_and_sources(plan: Plan, constraints=None):
    """`vkernel_of`'s kernel and, per constraint of the kernel in its order, the model
    constraints it stands for (a joint count: the automata it replaces; an implied
    value set: its all-different group), so that what a constraint of the kernel
    does can be told by the rule it comes from."""
    assert _vkernel is not None
    s = plan.structure
    key = "vkernel" if constraints is None else "vkernel with sets"

    def build():
        counts = implied_counts(s, s.others)
        # A joint count says all its automata say, and more: they are left out
        # (ISS's Bubble Tornado, nine counting automata of 45 cells, is much faster).
        absorbed = {id(con) for _, _, automata in counts for con in automata}
        own = [con for con in s.others if id(con) not in absorbed]
        groups = {con.cells: con for con in constraints or ()
                  if isinstance(con, AllDifferent)}
        sets = implied_sets(s.size, constraints or ())
        kernel = _vkernel.VKernel(s.size, s.units, s.peers, s.intersections, nvars=s.nvars)
        for con in own:
            add(kernel, con, s)
        for cells, value_sets in sets:
            kernel.add_cage(cells, value_sets)
        for cells, data, _ in counts:  # per value its counts, then the groups' sizes
            kernel.add_count(cells, data[:s.size], data[s.size + 1:])
        sources = ([(con,) for con in own] + [(groups[cells],) for cells, _ in sets]
                   + [automata for _, _, automata in counts])
        return kernel, sources
    return s.once(key, build)


def solve(plan: Plan, max_solutions: int = 1, deadline: float | None = None,
          locked: bool | int = False, choice: str = DEFAULT_CHOICE, constraints=None):
    """As `kernel.solve`: returns (solutions, exhausted, timed_out, stats).

    `choice`: the branching cell, "fewest" candidates (the first found),
    "fewest-conflicts" (ties broken by how often a cell took part in a failure),
    "conflicts" (the most failures per candidate) or "conflicts-places" (that, or
    a value's two places in a unit when they have more failures). `constraints`:
    as for `vkernel_of`."""
    locked_depth = (1 << 30 if locked else 0) if isinstance(locked, bool) else locked
    time_limit = None if deadline is None else max(0.0, deadline - time.monotonic())
    solutions, *rest = vkernel_of(plan, constraints).solve(
        plan.domains, min(max_solutions, 1 << 62), time_limit, min(locked_depth, 1 << 30),
        CHOICES[choice])
    for con in plan.structure.others:
        if isinstance(con, Regions):  # the kernel labels its anchors' regions first
            solutions = [relabel(sol, con) for sol in solutions]
    return (solutions, *rest)
