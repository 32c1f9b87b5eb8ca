"""Weak links from the variant rules: pairs of candidates one rule forbids together.

Houses and peers say that two candidates cannot both hold (the same value twice in a
house, two values in one cell). A variant rule says more: two cells of a cage whose
digits sum too high together, whisper neighbours closer than the line's difference,
a thermometer's later cell not above an earlier one. For each rule (all the
constraints sharing its label, as the by-rule step groups them) and each candidate
pair of its candidates a=x, b=y in two of its cells, the pair is weakly linked when
no completion of the rule over the current candidates holds both: "a=x -> b<>y".
One enumeration of the rule's completions marks every pair they hold together. The
chains and forcing chains follow these links as they follow a house's, and name the
rule where they do.

The same enumeration gives the rules' strong links: two candidates a=x, b=y of which
every completion holds one ("a<>x -> b=y"): a digit a cage must hold with only two
cells left for it, a cell the rule leaves two values. The chains alternate them with
weak links as they do a house's conjugate pairs, and name the rule there too.

A rule too wide to enumerate (a big cage, a long line, a sandwich) is read one
constraint at a time instead, weaker but sound: a sum forbids a pair when its other
cells cannot reach the total beside it, an automaton (lines, sandwiches, x-sums) when
its layered graph with the two cells fixed has no accepted word. Only weak links come
from there.

The work is bounded: a rule with more candidates than `MAX_CANDIDATES`, or whose
completions take more than `NODE_LIMIT` steps to enumerate or number more than
`MAX_COMPLETIONS`, is read as a wide one (its constraints one at a time) or gives no links (never a
wrong one), and each rule's links are remembered per candidates of its cells.
"""

from __future__ import annotations

from ..grid.constraints import AllDifferent, Constraint, Less, Regular, Sum
from .chaincore import per_layout
from .completions import TooMany, completions
from .state import Layout, State, bit_values, popcount

Lit = tuple[int, int]  # (cell, value)

MAX_CANDIDATES = 81  # a rule over more candidates than this gives no links
NODE_LIMIT = 20_000  # steps of one rule's enumeration before it gives up
WIDE_LIMIT = 400_000  # layered-graph edges one wide rule's links may read
STRONG_COMPLETIONS = 5_000  # completions past which a rule's strong links are not sought
MAX_COMPLETIONS = 2 * STRONG_COMPLETIONS  # past these the rule is read as a wide one
MEMO_SIZE = 20_000  # rules' links remembered, by candidates of their cells

_MEMO: dict = {}  # (rule's constraints, candidates of its cells) -> its links


class Links:
    """The rules' links of one grid. Weak: on literal -> the candidates it turns off
    through some rule (the peers' and the cell's own left out: those are there
    already), and the rule behind each link. Strong: off literal -> the candidates it
    turns on through some rule, and the rule behind each."""

    def __init__(self) -> None:
        self.weak: dict[Lit, list[Lit]] = {}
        self.label: dict[tuple[Lit, Lit], str] = {}  # (a, b) and (b, a) -> the rule
        self.strong: dict[Lit, list[Lit]] = {}
        self.strong_label: dict[tuple[Lit, Lit], str] = {}  # (a, b) and (b, a) -> the rule

    def __bool__(self) -> bool:
        return bool(self.weak or self.strong)

    def add_strong(self, a: Lit, b: Lit, label: str) -> None:
        if (a, b) in self.strong_label:
            return
        self.strong_label[(a, b)] = self.strong_label[(b, a)] = label
        self.strong.setdefault(a, []).append(b)
        self.strong.setdefault(b, []).append(a)

    def add(self, a: Lit, b: Lit, label: str) -> None:
        if (a, b) in self.label:  # a second rule forbidding the pair adds nothing
            return
        self.label[(a, b)] = self.label[(b, a)] = label
        self.weak.setdefault(a, []).append(b)
        self.weak.setdefault(b, []).append(a)

    def of(self, lit: Lit, same_value: bool = False) -> list[Lit]:
        """What `lit` turns off through the rules (only the same value's places, for
        the single-value chains)."""
        out = self.weak.get(lit, [])
        return [b for b in out if b[1] == lit[1]] if same_value else out


_EMPTY = Links()


def rule_links(state: State) -> Links:
    """The weak links every rule of the puzzle gives over the state's candidates (none
    on a puzzle without rules: the classic chains stay as they are)."""
    layout = state.layout
    if not layout.rules:
        return _EMPTY
    key = (id(layout), tuple(state.cand))
    known = _LAST.get(key)
    if known is not None and known[0] is layout:
        return known[1]
    links = Links()
    peers = layout.peers
    cand = state.cand
    for label, cons, cells in _groups(layout):
        weak, strong = _group_links(state, cons, cells)
        for a, b in weak:
            if not (a[1] == b[1] and b[0] in peers[a[0]]):  # the peers' link is there
                links.add(a, b, label)
        for a, b in strong:
            if a[0] == b[0] and popcount(cand[a[0]]) == 2:
                continue  # a bivalue cell: its own link is there
            links.add_strong(a, b, label)
    for lits in links.weak.values():
        lits.sort()
    for lits in links.strong.values():
        lits.sort()
    if len(_LAST) >= 8:
        _LAST.clear()
    _LAST[key] = (layout, links)
    return links


_LAST: dict = {}  # the last grids asked: every chain technique of a step asks the same


@per_layout
def _groups(layout: Layout) -> tuple[tuple[str, tuple[Constraint, ...], tuple[int, ...]], ...]:
    """The rules' constraints grouped by label (a rule's pieces share it), with the
    small all-different groups of the same label (a cage's no-repeat goes with its
    sum): (label, constraints, their cells) each."""
    ncells = len(layout.houses_of)
    out = []
    for label, cons in layout.rules_by_label().items():
        cells = tuple(sorted({c for con in cons for c in con.cells}))
        if all(c < ncells for c in cells):  # not over unknowns beside the digits
            out.append((label, tuple(cons), cells))
    return tuple(out)


Pairs = list[tuple[Lit, Lit]]


def _domain(state: State, cell: int) -> int:
    """A cell's candidates, or its value's bit once filled. A nested search's grid
    knows its candidates only: a filled cell there may hold any value, which leaves
    fewer links, each still sound."""
    if state.cand[cell]:
        return state.cand[cell]
    value = state.values[cell]
    return 1 << (value - 1) if value else (1 << state.size) - 1


def _group_links(state: State, cons: tuple[Constraint, ...],
                 cells: tuple[int, ...]) -> tuple[Pairs, Pairs]:
    """The pairs of candidates in two open cells of the rule that no completion holds
    together (weak), and the pairs of open candidates of which every completion holds
    one (strong)."""
    cand = state.cand
    open_cells = [c for c in cells if cand[c]]
    if len(open_cells) < 2:
        return [], []
    doms = tuple(_domain(state, c) for c in cells)
    key = (id(cons), doms)
    known = _MEMO.get(key)
    if known is not None and known[0] is cons:
        return known[1]
    wide = sum(popcount(cand[c]) for c in open_cells) > MAX_CANDIDATES
    if not wide and not all(isinstance(con, (AllDifferent, Less, Sum)) for con in cons):
        # a constraint judged only once its cells are full (an automaton): the
        # enumeration visits every tuple, so a wide one would only run out of steps
        tuples = 1
        for m in doms:
            tuples *= popcount(m)
        wide = tuples > NODE_LIMIT
    found: Pairs = []
    strong: Pairs = []
    enumerated = None if wide else _together(cons, cells, doms)
    if enumerated is None:
        found = _wide_links(state, cons)
    else:
        together, strong_ix = enumerated
        strong = [((cells[i], x), (cells[j], y)) for (i, x), (j, y) in strong_ix]
        where = {c: i for i, c in enumerate(cells)}
        for a in open_cells:
            i = where[a]
            for x in bit_values(cand[a]):
                seen = together.get((i, x))
                if seen is None:
                    continue  # a=x has no completion: the rule's own step removes it
                for b in open_cells:
                    if b > a:  # each pair once: the links go both ways
                        found.extend(((a, x), (b, y))
                                     for y in bit_values(cand[b] & ~seen[where[b]]))
    if len(_MEMO) >= MEMO_SIZE:
        _MEMO.clear()
    _MEMO[key] = (cons, (found, strong))
    return found, strong


def _together(cons: tuple[Constraint, ...], cells: tuple[int, ...],
              doms: tuple[int, ...]):
    """Every completion of the constraints over the domains, read as (cell index i,
    value x) -> per cell index j the values j takes in some completion with i holding x;
    and the pairs of (cell index, value) of open cells of which every completion holds
    one (none sought past `STRONG_COMPLETIONS` completions). None when the enumeration
    is too wide to finish."""
    k = len(cells)
    # each completion packed in one integer, a field of `width` bits per cell, so that
    # what a literal sees is one OR per completion rather than one per cell
    width = max(doms).bit_length()
    packed: dict[tuple[int, int], int] = {}
    open_ix = [i for i in range(k) if popcount(doms[i]) > 1]
    # the strong pairs still possible: every completion seen so far holds one of the
    # two. The first completion leaves only pairs with one of its values; each next one
    # strikes out the pairs it holds neither of, so the list is short after a few.
    strong: list[tuple[tuple[int, int], tuple[int, int]]] | None = None
    count = 0

    def visit(values: list[int]) -> None:
        nonlocal strong, count
        whole = 0
        for j, v in enumerate(values):
            whole |= 1 << (v - 1 + width * j)
        for i, x in enumerate(values):
            packed[i, x] = packed.get((i, x), 0) | whole
        count += 1
        if strong is None:
            lits = [(i, v) for i in open_ix for v in bit_values(doms[i])]
            held = [(i, values[i]) for i in open_ix]
            pairs = {(min(h, o), max(h, o)) for h in held for o in lits if o != h}
            strong = sorted(pairs)
        elif strong and count <= STRONG_COMPLETIONS:
            strong = [(p, q) for p, q in strong
                      if values[p[0]] == p[1] or values[q[0]] == q[1]]

    try:
        if not completions(cons, cells, doms, NODE_LIMIT, visit, MAX_COMPLETIONS):
            return None
    except TooMany:
        return None
    field = (1 << width) - 1
    together = {lit: [whole >> (width * j) & field for j in range(k)]
                for lit, whole in packed.items()}
    if strong is None or count > STRONG_COMPLETIONS:
        return together, []
    # a literal every completion holds is the rule's own placement, not a link
    support: dict[int, list[int]] = {}
    for i, x in together:
        support.setdefault(i, []).append(x)
    always = {(i, xs[0]) for i, xs in support.items() if len(xs) == 1}
    return together, [(p, q) for p, q in strong
                      if p not in always and q not in always and p in together
                      and q in together]


def _wide_links(state: State, cons: tuple[Constraint, ...]) -> Pairs:
    """The weak links of a rule too wide to enumerate, each of its sums and automata
    read on its own (never a wrong link; fewer than the whole rule gives)."""
    found: Pairs = []
    budget = [WIDE_LIMIT]
    for con in cons:
        if isinstance(con, Sum):
            found += _sum_links(state, con)
        elif isinstance(con, Regular):
            found += _automaton_links(state, con, budget)
    return found


def _sum_links(state: State, con: Sum) -> Pairs:
    """Pairs a=x, b=y of a sum's cells beside which its other cells cannot reach the
    total: each other cell counts between its least and most candidate, and cells of one
    weight that are all peers count as different digits."""
    cells = con.cells
    if len(set(cells)) != len(cells):
        return []
    cand, peers = state.cand, state.layout.peers
    weights = dict(zip(cells, con.weights()))
    doms = {c: _domain(state, c) for c in cells}
    open_cells = [c for c in cells if cand[c]]
    found: Pairs = []
    for ai, a in enumerate(open_cells):
        for b in open_cells[ai + 1:]:
            rest = [c for c in cells if c != a and c != b]
            by_weight: dict[int, list[int]] = {}
            for c in rest:
                by_weight.setdefault(weights[c], []).append(c)
            groups = [(w, cs, len(cs) > 1 and all(q in peers[p] for p in cs for q in cs
                                                   if p != q))
                      for w, cs in by_weight.items()]
            wa, wb = weights[a], weights[b]
            for x in bit_values(cand[a]):
                for y in bit_values(cand[b]):
                    if b in peers[a] and x == y:
                        continue  # the peers' link
                    if not _reachable(con.total - wa * x - wb * y, groups, doms, (x, y),
                                      peers, a, b):
                        found.append(((a, x), (b, y)))
    return found


def _reachable(total: int, groups, doms: dict[int, int], taken: tuple[int, int],
               peers, a: int, b: int) -> bool:
    """Whether `total` lies between the least and the most the other cells add, by
    weight groups (a group of mutual peers takes different digits, none of them a value
    of a or b that all its cells see)."""
    lo = hi = 0
    for w, cs, distinct in groups:
        if distinct:
            pool = 0
            for c in cs:
                pool |= doms[c]
            for c0, v in ((a, taken[0]), (b, taken[1])):
                if all(c0 in peers[c] for c in cs):
                    pool &= ~(1 << (v - 1))
            vals = bit_values(pool)
            if len(vals) < len(cs):
                return False
            least, most = sum(vals[:len(cs)]), sum(vals[-len(cs):])
        else:
            least = most = 0
            for c in cs:
                m = doms[c]
                for c0, v in ((a, taken[0]), (b, taken[1])):
                    if c0 in peers[c] and popcount(m) > 1:
                        m &= ~(1 << (v - 1))
                if not m:
                    return False
                vs = bit_values(m)
                least += vs[0]
                most += vs[-1]
        lo += min(w * least, w * most)
        hi += max(w * least, w * most)
    return lo <= total <= hi


def _automaton_links(state: State, con: Regular, budget: list[int]) -> Pairs:
    """Pairs a=x, b=y no accepted word of the automaton holds: with a fixed to x, the
    layered graph's accepted words give b its other values. A cell read at several
    places keeps a value some word gives it at each (never fewer than the truth)."""
    cand = state.cand
    seq = con.cells
    doms = [set(bit_values(_domain(state, c))) for c in seq]
    open_cells = sorted({c for c in seq if cand[c]})
    cost = len(con.automaton.transitions) * len(seq)
    found: Pairs = []
    for a in open_cells:
        for x in bit_values(cand[a]):
            budget[0] -= cost
            if budget[0] < 0:
                return found
            fixed = [{x} if c == a else d for c, d in zip(seq, doms)]
            paths = con.automaton.paths(fixed)
            if not paths or not paths[0]:
                continue  # a=x has no word: the rule's own step removes it
            kept: dict[int, int] = {}
            for c, edges in zip(seq, paths):
                mask = 0
                for _, v, _ in edges:
                    mask |= 1 << (v - 1)
                kept[c] = kept[c] & mask if c in kept else mask
            for b in open_cells:
                if b > a:
                    found.extend(((a, x), (b, y)) for y in bit_values(cand[b] & ~kept[b]))
    return found
