"""Variant rules beside the houses: the shared machinery of the rule steps, the generic
"by rule" step and the killer 45 rule.

A rule is all the constraints sharing its label (a cage's sum and its no-repeat),
joined by the no-repeat of the houses among its own cells (two cells of a cage in one
row differ even where the cage would allow a repeat). The families of reasoning a
player names (sums, order, pair relations, consecutive sets) have modules of their
own, each with a rating and a reason that shows the evidence; "by rule" is the
fallback for every rule: a candidate goes when the rule has no completion with it
over the current candidates. A rule too wide to enumerate is read constraint by
constraint instead (bounds of sums and orders, an automaton's layered graph, tables),
weaker but sound. The killer set theory (innies and outies, cage pointing) has a
module of its own, `settheory`.
"""

from __future__ import annotations

from functools import cache

from ...grid.constraints import AllDifferent, Allowed, Constraint, Less, Regular, Sum
from ..completions import completions
from ..state import Layout, State, bit_values, popcount
from ..step import cell_name, make_step
from ..technique import technique

NODE_LIMIT = 20_000  # past it a rule is read constraint by constraint (`propagated`)
BY_RULE = 2.5  # above every family's rating: the fallback never hides an easier reason

Group = tuple[Constraint, ...]


@cache
def rule_groups(layout: Layout) -> tuple[tuple[str, Group], ...]:
    """The rules' constraints grouped by label, with the small all-different ones that
    share it (a cage's no-repeat goes with its sum) and the no-repeat of every house or
    small group among the rule's cells (labelled by that house)."""
    out = []
    for label, cons in layout.rules_by_label().items():
        cells = {c for con in cons for c in con.cells}
        known = {frozenset(con.cells) for con in cons if isinstance(con, AllDifferent)}
        extra = []
        others = [(h.cells, h.label) for h in layout.houses]
        others += [(g.cells, g.describe()) for g in layout.small_groups]
        for other_cells, other_label in others:
            common = tuple(c for c in other_cells if c in cells)
            if len(common) > 1 and not any(frozenset(common) <= k for k in known):
                known.add(frozenset(common))
                extra.append(AllDifferent(common, label=other_label))
        out.append((label, tuple(cons) + tuple(extra)))
    return tuple(out)


def own(cons: Group) -> list[Constraint]:
    """The rule's own constraints, without the houses' no-repeat added to it."""
    label = cons[0].describe()
    return [con for con in cons if con.describe() == label]


_FAMILY: dict[int, tuple[Group, str]] = {}


def family(cons: Group) -> str:
    """Which family of reasoning reads the rule: "set" (different consecutive digits),
    "order" (thermometers, greater-than), "pair" (relations between two cells, lines
    read pair by pair), "sum" (cages, arrows, little killers), or "other"."""
    known = _FAMILY.get(id(cons))
    if known is not None and known[0] is cons:
        return known[1]
    mine = [con for con in own(cons) if not isinstance(con, AllDifferent)]
    cells = cells_of(own(cons))
    k = len(cells)
    if not mine:
        kind = "other"
    elif (any(isinstance(con, AllDifferent) and len(set(con.cells)) == k for con in own(cons))
          and all(isinstance(con, Allowed) and len(con.cells) == 2
                  and set(con.tuples) == _run_pairs(_top(con), k) for con in mine)):
        kind = "set"
    elif all(isinstance(con, Less) for con in mine):
        kind = "order"
    elif all(len(set(con.cells)) == 2 == len(con.cells) or
             (isinstance(con, Regular) and con.automaton.window == 2
              and len(set(con.cells)) == len(con.cells)) for con in mine):
        kind = "pair"
    elif all(isinstance(con, Sum) for con in mine):
        kind = "sum"
    else:
        kind = "other"
    _FAMILY[id(cons)] = (cons, kind)
    return kind


@cache
def _run_pairs(top: int, k: int) -> frozenset[tuple[int, int]]:
    """Two different digits of a run of k consecutive ones (a renban's pair table)."""
    return frozenset((a, b) for a in range(1, top + 1) for b in range(1, top + 1)
                     if a != b and abs(a - b) < k)


def _top(con) -> int:
    return max(max(t) for t in con.tuples) if con.tuples else 0


def groups_of(state: State, kind: str):
    """The rules of one family that still have an empty cell."""
    for label, cons in rule_groups(state.layout):
        if family(cons) == kind and any(state.cand[c] for c in cells_of(cons)):
            yield label, cons


def cells_of(cons) -> list[int]:
    return sorted({c for con in cons for c in con.cells})


def domain(state: State, cell: int) -> int:
    """A cell's candidates, or its value's bit once placed."""
    return state.cand[cell] or 1 << (state.values[cell] - 1)


# ------------------------------------------------------------------- words

def digit(value: int) -> str:
    return str(value) if value <= 9 else chr(55 + value)


def join(items, word: str = "and") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def digits_text(values, word: str = "and") -> str:
    """Digits with their runs shortened: `1..4 and 9`."""
    values = sorted(set(values))
    runs: list[list[int]] = []
    for v in values:
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return join([f"{digit(r[0])}..{digit(r[-1])}" if len(r) > 2 else digit(v)
                 for r in runs for v in (r if len(r) <= 2 else r[:1])], word)


def names(cells, size: int, most: int = 6) -> str:
    """Cells by name; a long list by its ends (`r1c1..r1c9`, as the rule reads them)."""
    cells = list(cells)
    if len(cells) > most:
        return f"{cell_name(cells[0], size)}..{cell_name(cells[-1], size)}"
    return join([cell_name(c, size) for c in cells])


def removals_text(elims, size: int) -> str:
    """What goes, by digits: `3 in r1c3`, `4 or 5 in r2c2 and r2c3`."""
    by_cell: dict[int, list[int]] = {}
    for c, v in sorted(elims):
        by_cell.setdefault(c, []).append(v)
    by_values: dict[tuple[int, ...], list[int]] = {}
    for c, vs in by_cell.items():
        by_values.setdefault(tuple(vs), []).append(c)
    return join([f"{digits_text(vs, 'or')} in {names(cs, size)}"
                 for vs, cs in by_values.items()], "and")


def ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


# ------------------------------------------------------------------- search

def supported(state: State, constraints, cells: list[int],
              combos: tuple[Sum, set] | None = None) -> dict[int, int] | None:
    """Per cell, the mask of values that appear in some completion of the constraints
    (None when the search is too wide to finish). `combos`: a sum and a set that
    collects the sorted values its cells take in every completion."""
    domain_ = [domain(state, c) for c in cells]
    # a search that gave up on as many candidates or more is as wide again: not tried
    # anew until candidates have gone
    key = (tuple(map(id, constraints)), tuple(cells))
    total = sum(popcount(m) for m in domain_)
    gave_up = _GAVE_UP.get(key)
    if (gave_up is not None and total >= gave_up[1]
            and all(a is b for a, b in zip(gave_up[0], constraints))):
        return None
    support = [0] * len(cells)
    collect = None if combos is None else ([cells.index(c) for c in combos[0].cells],
                                           combos[1])

    def visit(values: list[int]) -> None:
        for i, v in enumerate(values):
            support[i] |= 1 << (v - 1)
        if collect is not None:
            collect[1].add(tuple(sorted(values[j] for j in collect[0])))

    if not completions(constraints, cells, domain_, NODE_LIMIT, visit):
        if len(_GAVE_UP) > 10_000:
            _GAVE_UP.clear()
        _GAVE_UP[key] = (tuple(constraints), total)
        return None
    return {c: support[i] for i, c in enumerate(cells)}


# (the constraints' ids, the cells) -> (the constraints, the candidates a search gave up on)
_GAVE_UP: dict[tuple, tuple[tuple, int]] = {}


def sum_bounds(con: Sum, doms: dict[int, int], peers) -> dict[int, tuple[int, int]] | None:
    """Per cell of the sum, the least and the most the rest of it adds (the cells of one
    weight that are all peers count as different digits); None when a cell is listed
    twice or the rest cannot be filled."""
    if len(set(con.cells)) != len(con.cells):
        return None
    weights = dict(zip(con.cells, con.weights()))
    out = {}
    for cell in con.cells:
        lo = hi = 0
        by_weight: dict[int, list[int]] = {}
        for c in con.cells:
            if c != cell:
                by_weight.setdefault(weights[c], []).append(c)
        for w, cs in by_weight.items():
            if len(cs) > 1 and all(b in peers[a] for a in cs for b in cs if a != b):
                pool = sorted(set().union(*(bit_values(doms[c]) for c in cs)))
                if len(pool) < len(cs):
                    return None
                least, most = sum(pool[:len(cs)]), sum(pool[-len(cs):])
            else:
                least = sum(bit_values(doms[c])[0] for c in cs)
                most = sum(bit_values(doms[c])[-1] for c in cs)
            lo += min(w * least, w * most)
            hi += max(w * least, w * most)
        out[cell] = (lo, hi)
    return out


def propagated(state: State, constraints, cells: list[int]) -> dict[int, int] | None:
    """The values each cell keeps when each constraint is read on its own, over and
    over until none narrows further: sums and orders by their bounds, automata by
    their layered graph, no-repeats by the placed digits, tables by their rows, any
    other constraint by a search over its own cells. Sound but weaker than a search
    over them all; None when the rule cannot hold."""
    doms = {c: domain(state, c) for c in cells}
    peers = state.layout.peers
    changed = True
    while changed:
        changed = False
        for con in constraints:
            keep: dict[int, int] = {}
            if isinstance(con, Sum):
                bounds = sum_bounds(con, doms, peers)
                if bounds is not None:
                    for (c, w) in zip(con.cells, con.weights()):
                        lo, hi = bounds[c]
                        keep[c] = sum(1 << (v - 1) for v in bit_values(doms[c])
                                      if lo <= con.total - w * v <= hi)
            elif isinstance(con, Less):
                for a, b in zip(con.cells, con.cells[1:]):
                    keep[b] = keep.get(b, doms[b]) & ~((1 << bit_values(doms[a])[0]) - 1)
                for a, b in reversed(list(zip(con.cells, con.cells[1:]))):
                    top = bit_values(keep.get(b, doms[b]) or doms[b])[-1]
                    keep[a] = keep.get(a, doms[a]) & ((1 << (top - 1)) - 1)
            elif isinstance(con, Regular):
                paths = con.automaton.paths([bit_values(doms[c]) for c in con.cells])
                for c, edges in zip(con.cells, paths):
                    mask = sum(1 << (v - 1) for v in {v for _, v, _ in edges})
                    keep[c] = keep.get(c, doms[c]) & mask
            elif isinstance(con, AllDifferent):
                for c in con.cells:
                    if popcount(doms[c]) == 1:
                        for o in con.cells:
                            if o != c:
                                keep[o] = keep.get(o, doms[o]) & ~doms[c]
            elif isinstance(con, Allowed):
                rows = [t for t in con.tuples
                        if all(doms[c] >> (v - 1) & 1 for c, v in zip(con.cells, t))]
                for k, c in enumerate(con.cells):
                    keep[c] = keep.get(c, doms[c]) & sum(1 << (t[k] - 1) for t in set(rows))
            else:
                own_cells = sorted(set(con.cells))
                sub = _Doms(state, doms)
                found = supported(sub, [con], own_cells)  # type: ignore[arg-type]
                if found is not None:
                    keep.update(found)
            for c, mask in keep.items():
                mask &= doms[c]
                if mask != doms[c]:
                    if not mask:
                        return None
                    doms[c] = mask
                    changed = True
    return doms


def automaton_support(state: State, constraints, cells: list[int]) -> dict[int, int]:
    """Per cell, the values some accepted word of every automaton gives it (at every place
    an automaton reads the cell), narrowed until no automaton narrows further. Sound,
    not always complete: a value kept may still have no completion of them all."""
    doms = {c: set(bit_values(domain(state, c))) for c in cells}
    changed = True
    while changed:
        changed = False
        for con in constraints:
            if not isinstance(con, Regular):
                continue
            kept: dict[int, set[int]] = {}
            for c, edges in zip(con.cells, con.automaton.paths([doms[c] for c in con.cells])):
                values = {v for _, v, _ in edges}
                kept[c] = kept[c] & values if c in kept else values
            for c, values in kept.items():
                if values != doms[c]:
                    doms[c] &= values
                    changed = True
    return {c: sum(1 << (v - 1) for v in doms[c]) for c in cells}


class _Doms:
    """A state's stand-in whose candidates are narrowed domains (for a search over one
    constraint in the middle of `propagated`)."""

    def __init__(self, state: State, doms: dict[int, int]):
        self.layout = state.layout
        self.cand = [doms.get(c, m) for c, m in enumerate(state.cand)]
        self.values = state.values


_SUPPORT: dict = {}  # (kind of reading, constraints, candidates) -> what it found


def remembered(what: str, state: State, cons: Group, find):
    """`find(state, cons)`, remembered for these candidates of the rule's cells (most rules keep
    their candidates from one step to the next; the groups live as long as their
    layout, so their identity is a safe key)."""
    cells = cells_of(cons)
    key = (what, id(cons), tuple(state.cand[c] or -state.values[c] for c in cells))
    if key not in _SUPPORT:
        if len(_SUPPORT) > 100_000:
            _SUPPORT.clear()
        _SUPPORT[key] = find(state, cons)
    return _SUPPORT[key]


def support_of(state: State, cons, cells: list[int]) -> tuple[dict[int, int] | None, bool]:
    """The values each cell keeps, and whether a whole search found them (else each
    constraint on its own did: a wide rule still gives its easy removals).

    Not searched whole: a rule of automata (lines, outside clues) whose cells' value
    tuples pass the node limit, since an automaton is judged only once all its cells
    hold values."""
    mine = [con for con in own(cons) if not isinstance(con, AllDifferent)]
    wide = bool(mine) and all(isinstance(con, Regular) for con in mine)
    if wide:
        tuples = 1
        for c in cells:
            tuples *= popcount(state.cand[c]) or 1
        wide = tuples > NODE_LIMIT
    found = None if wide else supported(state, cons, cells)
    if found is not None:
        return found, True
    return propagated(state, cons, cells), False


def removals(state: State, cells, support) -> list[tuple[int, int]]:
    return [(c, v) for c in cells for v in bit_values(state.cand[c] & ~support[c])]


def rule_step(name: str, rating: float, state: State, label: str, elims, cells,
              reason: str):
    """A rule's step: `Name: label => removals`, with its reason as one sentence."""
    reason = reason[0].upper() + reason[1:]
    return make_step(name, rating, state.size, what=label, eliminations=elims, cells=cells,
                     groups=[label], reason=reason if reason.endswith(".") else reason + ".")


def generic_reason(state: State, label: str, cons, elims, whole: bool) -> str:
    """No filling of the rule allows the removed candidates."""
    cells = [c for con in own(cons) for c in con.cells]
    cells = list(dict.fromkeys(cells))
    line = any(isinstance(con, Regular) for con in own(cons))
    what = (f"the line through {names(cells, state.size)}" if line
            else f"{names(cells, state.size)}")
    how = ("" if whole else
           " (each of its parts read on its own: the whole rule is too wide to search)")
    return (f"{label}: no filling of {what} that keeps the rule, the candidates and no "
            f"repeat in a house allows {removals_text(elims, state.size)}{how}")


def _whole_support(state: State, cons: Group):
    return support_of(state, cons, cells_of(cons))


@technique("By Rule", BY_RULE)
def by_rule(state: State):
    """A candidate with no completion of one rule (cage, thermometer, arrow, dot...):
    the fallback of every family, with the evidence no more than the search."""
    for label, cons in rule_groups(state.layout):
        cells = cells_of(cons)
        if not any(state.cand[c] for c in cells):
            continue
        support, whole = remembered("rule", state, cons, _whole_support)
        if support is None:
            continue
        elims = removals(state, cells, support)
        if elims:
            yield rule_step("By Rule", BY_RULE, state, label, elims, cells,
                            generic_reason(state, label, cons, elims, whole))

