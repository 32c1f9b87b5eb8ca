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

The work is bounded: a rule with more candidates than `MAX_CANDIDATES`, or whose
completions take more than `NODE_LIMIT` steps to enumerate, gives no links (never a
wrong one), and each rule's links are remembered per candidates of its cells.
"""

from __future__ import annotations

from ..grid.constraints import AllDifferent, Constraint, Less, Sum
from .chaincore import per_layout
from .completions import completions
from .state import Layout, State, bit_values, popcount

Lit = tuple[int, int]  # (cell, value)

MAX_CANDIDATES = 81  # a rule over more candidates than this gives no links
NODE_LIMIT = 20_000  # steps of one rule's enumeration before it gives up
MEMO_SIZE = 20_000  # rules' links remembered, by candidates of their cells

_MEMO: dict = {}  # (rule's constraints, candidates of its cells) -> its links


class Links:
    """The rules' weak links of one grid: on literal -> the candidates it turns off
    through some rule (the peers' and the cell's own left out: those are there
    already), and the rule behind each link."""

    def __init__(self) -> None:
        self.weak: dict[Lit, list[Lit]] = {}
        self.label: dict[tuple[Lit, Lit], str] = {}  # (a, b) and (b, a) -> the rule

    def __bool__(self) -> bool:
        return bool(self.weak)

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
    for label, cons, cells in _groups(layout):
        for a, b in _group_links(state, cons, cells):
            if not (a[1] == b[1] and b[0] in peers[a[0]]):  # the peers' link is there
                links.add(a, b, label)
    for lits in links.weak.values():
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
    groups: dict[str, list[Constraint]] = {}
    for con in layout.rules:
        groups.setdefault(con.describe(), []).append(con)
    for con in layout.small_groups:
        if con.describe() in groups:
            groups[con.describe()].append(con)
    ncells = layout.size * layout.size
    out = []
    for label, cons in groups.items():
        cells = tuple(sorted({c for con in cons for c in con.cells}))
        if all(c < ncells for c in cells):  # not over unknowns beside the digits
            out.append((label, tuple(cons), cells))
    return tuple(out)


def _group_links(state: State, cons: tuple[Constraint, ...],
                 cells: tuple[int, ...]) -> list[tuple[Lit, Lit]]:
    """The pairs of candidates in two open cells of the rule that no completion holds
    together."""
    cand = state.cand
    open_cells = [c for c in cells if cand[c]]
    if len(open_cells) < 2 or sum(popcount(cand[c]) for c in open_cells) > MAX_CANDIDATES:
        return []
    doms = tuple(cand[c] or 1 << (state.values[c] - 1) for c in cells)
    if not all(isinstance(con, (AllDifferent, Less, Sum)) for con in cons):
        # a constraint judged only once its cells are full (an automaton): the
        # enumeration visits every tuple, so a wide one would only run out of steps
        tuples = 1
        for m in doms:
            tuples *= popcount(m)
        if tuples > NODE_LIMIT:
            return []
    key = (id(cons), doms)
    known = _MEMO.get(key)
    if known is not None and known[0] is cons:
        return known[1]
    together = _together(cons, cells, doms)
    found: list[tuple[Lit, Lit]] = []
    if together is not None:
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
    _MEMO[key] = (cons, found)
    return found


def _together(cons: tuple[Constraint, ...], cells: tuple[int, ...],
              doms: tuple[int, ...]) -> dict[tuple[int, int], list[int]] | None:
    """Every completion of the constraints over the domains, read as (cell index i,
    value x) -> per cell index j the values j takes in some completion with i holding x;
    None when the enumeration is too wide to finish."""
    k = len(cells)
    together: dict[tuple[int, int], list[int]] = {}

    def visit(values: list[int]) -> None:
        bits = [1 << (v - 1) for v in values]
        for i, x in enumerate(values):
            seen = together.get((i, x))
            if seen is None:
                together[(i, x)] = bits[:]
            else:
                for j in range(k):
                    seen[j] |= bits[j]

    if not completions(cons, cells, doms, NODE_LIMIT, visit):
        return None
    return together
