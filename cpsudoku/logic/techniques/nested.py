"""Nested forcing chains (9.5 and up): dynamic forcing chains whose inner steps are chains.

SE's levels, each tried only when the ones before found nothing, each a dynamic
forcing chain search (contradiction, double, cell, region) that, when an assumption's
singles run out, asks the grid it leaves for more, the first of these that applies:
locked candidates, hidden pairs, naked pairs, X-wings (as the 9.0 "plus" level), then

- 9.5 (+ Forcing Chains): forcing X- and XY-chains and bidirectional cycles;
- 10.0 (+ Multiple Forcing Chains): those, then cell and region forcing chains;
- 10.5 (+ Dynamic Forcing Chains): dynamic forcing chains;
- 11.0 (+ Dynamic Forcing Chains (+ Forcing Chains)): dynamic forcing chains, then
  the 9.5 level itself, so that chains nest two deep.

What an inner chain removes joins the outer chain, with the candidates the outer
chain struck out that made the inner chain's singles singles as its reasons; the
step's complexity counts each inner chain's own, once. Inner searches are remembered
per grid, across outer searches and levels.
"""

from __future__ import annotations

from .. import chaincore
from ..chain import Branch, literal_text, path_branch
from ..state import Layout, State
from ..technique import technique
from .chains import cycles, forcing_chain_paths, length_term
from .forcing import ForcingSearch, InnerHint, Lit, hidden_needs, inner_hints

NAMES = {2: " (+ Forcing Chains)", 3: " (+ Multiple Forcing Chains)",
         4: " (+ Dynamic Forcing Chains)", 5: " (+ Dynamic Forcing Chains (+ Forcing Chains))"}
RATINGS = {2: 9.5, 3: 10.0, 4: 10.5, 5: 11.0}

MEMO_SIZE = 5000  # inner searches remembered (kept small: their steps, not their chains)
_MEMO: dict = {}  # (kind, layout, grid) -> what an inner search found there


def _remembered(kind: str, layout: Layout, cand: list[int], build):
    """An inner search's findings on a grid, shared by every outer search and level:
    the assumptions of one outer search often leave the same grid, and a level asks
    the grids the level before it asked (10.5 and 11.0 both start with dynamic chains)."""
    key = (kind, id(layout), tuple(cand))
    known = _MEMO.get(key)
    if known is None or known[0] is not layout:
        if len(_MEMO) >= MEMO_SIZE:
            _MEMO.clear()
        known = _MEMO[key] = (layout, build())
    return known[1]


def _grid(layout: Layout, cand: list[int], deadline: float | None = None) -> State:
    """An assumption's grid as a state of its own; `deadline` is the outer search's, so
    that an inner search stops with it."""
    grid = State(layout, [0] * len(cand), cand[:], [])
    grid.deadline = deadline
    return grid


def _static_chains(layout: Layout, cand: list[int],
                   deadline: float | None = None) -> list[tuple]:
    """SE's "forcing chains and cycles" on a grid, easiest first: (rating, complexity,
    name, removed, literals with signs, branch)."""
    found = _compiled_chains(layout, cand)
    if found is None:
        found = _searched_chains(layout, cand, deadline)
    found.sort(key=lambda t: (t[0], t[1]))
    return [(rating, cx, name, removed, path, lambda path=path: _branches(path, layout.size))
            for rating, cx, name, removed, path in found]


def _branches(path: list[tuple[Lit, bool]], size: int) -> list[Branch]:
    """A static chain as its step shows it, read from its literals."""
    return [path_branch([literal_text(lit, on, size) for lit, on in path])]


def _compiled_chains(layout: Layout, cand: list[int]) -> list[tuple] | None:
    """`_searched_chains` in C, or None when the C side cannot."""
    found = chaincore.static_chains(layout, cand)
    if found is None:
        return None
    out = []
    for kind, cx, removed, path in found:
        name, base = chaincore.STATIC_KINDS[kind]
        out.append((base + length_term(cx), cx, name, removed, path))
    return out


def _searched_chains(layout: Layout, cand: list[int],
                     deadline: float | None = None) -> list[tuple]:
    """The chain techniques' own searches, in the order they find: (rating, complexity,
    name, removed, path) each."""
    state = _grid(layout, cand, deadline)
    found = cycles(state, True, False, 6.5, "Bidirectional X-Cycle")
    found += cycles(state, False, True, 6.5, "Bidirectional Y-Cycle")
    found += cycles(state, True, True, 7.0, "Bidirectional Cycle")
    found += forcing_chain_paths(state, False, 6.6, "Forcing X-Chain")
    found += forcing_chain_paths(state, True, 7.0, "Forcing Chain")
    out = []
    for chain in found:
        removed = list(chain.eliminations)
        for c, v in chain.placements:
            removed += [(c, u) for u in range(1, layout.size + 1)
                        if u != v and cand[c] >> (u - 1) & 1]
        out.append((chain.rating, chain.cx, chain.name, removed, chain.path))
    return out


def _link_cause(layout: Layout, cand: list[int], off: Lit, on: Lit) -> int:
    """Why `off` makes `on` a single: -1 the cell's last candidate, else the first
    house (box, row, column) where the value has those two places only."""
    if off[0] == on[0]:
        return -1
    v = on[1]
    bit = 1 << (v - 1)
    rank = {"box": 0, "row": 1, "col": 2}
    shared = [h for h in layout.houses_of[on[0]] if h in layout.houses_of[off[0]]]
    for h in sorted(shared, key=lambda h: rank.get(layout.houses[h].kind, 3)):
        if sum(1 for q in layout.houses[h].cells if cand[q] & bit) == 2:
            return h
    return -1


def _static_hints(layout: Layout, source: list[int], cand: list[int],
                  deadline: float | None = None) -> list[InnerHint]:
    out = []
    for rating, cx, name, removed, path, chain in _remembered(
            "static", layout, cand, lambda: _static_chains(layout, cand, deadline)):
        needs: dict[Lit, None] = {}
        closed = path[0] == path[-1]  # a cycle: its first literal follows from its last
        pairs = list(zip(path, path[1:])) + ([(path[-2], path[0])] if closed else [])
        for (a, a_on), (b, b_on) in pairs:
            if b_on and not a_on:
                cause = _link_cause(layout, cand, a, b)
                needs.update(dict.fromkeys(hidden_needs(layout, source, cand, b, cause)))
        if needs and removed:
            out.append(InnerHint((name, tuple(removed), cx), rating, cx, removed,
                                 tuple(needs), chain))
    return out


def _search_hints(kind: str, make):
    """Inner hints of a forcing-chain search of `kind`, made by make(state)."""
    def hints(layout: Layout, source: list[int], cand: list[int],
              deadline: float | None = None) -> list[InnerHint]:
        grid = cand[:]

        def build():
            found = make(_grid(layout, grid, deadline)).inner_found()
            again: list[ForcingSearch] = []  # the chains, searched again only when shown

            def branches(index: int):
                # remembered past this search: its deadline would be stale by then
                if not again:
                    again.append(make(_grid(layout, grid)))
                return again[0].branches_of(index)
            return found, branches
        found, branches = _remembered(kind, layout, grid, build)
        return inner_hints(found, layout, source, grid, branches)
    return hints


_multiple = _search_hints("multiple", lambda s: ForcingSearch(
    s, 8.0, True, False, True, False, ""))
_dynamic = _search_hints("dynamic", lambda s: ForcingSearch(
    s, 8.5, True, True, True, False, "Dynamic "))
_level2 = _search_hints("level 2", lambda s: ForcingSearch(
    s, 9.5, True, True, True, False, "Dynamic ", rules_of(2, s.deadline), NAMES[2],
    plus=True))

INNER = {2: (_static_hints,), 3: (_static_hints, _multiple), 4: (_dynamic,),
         5: (_dynamic, _level2)}


def rules_of(level: int, deadline: float | None = None):
    """What an assumption's grid yields at a nesting level when its singles run out and
    the plus rules find nothing: the removals of the first inner technique that has
    some, with the candidates they need gone and their inner chains. The inner searches
    stop (OutOfTime) once `deadline` passes."""
    inner = INNER[level]

    def rules(layout: Layout, source: list[int], cand: list[int]) -> list[tuple]:
        for producer in inner:
            out: list[tuple] = []
            for hint in producer(layout, source, cand, deadline):
                for lit in sorted(hint.removed):
                    out.append((lit, hint.needs, hint))
            if out:
                return out
        return []
    return rules


def _level(level: int):
    def find(state: State):
        yield from ForcingSearch(state, RATINGS[level], True, True, True, False, "Dynamic ",
                                 rules_of(level, state.deadline), NAMES[level],
                                 plus=True).steps()
    find.__doc__ = f"Dynamic forcing chains{NAMES[level]}."
    return find


for _n in (2, 3, 4, 5):
    # needs_unique: on a puzzle with several solutions no chain finishes it, and the
    # search would run through every level, each slower than the last, only for the
    # solver to stop where nothing applies
    technique(f"Dynamic Forcing Chains{NAMES[_n]}", RATINGS[_n], needs_unique=True,
              stage=f"nested {_n}", deep=True)(_level(_n))
