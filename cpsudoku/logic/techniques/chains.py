"""Forcing chains on SE's scale.

Candidates are literals: "r1c1 is 5" (on) and "r1c1 is not 5" (off). An on
literal turns off the cell's other candidates (y-links) and the value in every
peer; an off literal turns on the other candidate of a bivalue cell (y) or the
other place of a value with two places in a house (x). SE rates:

- forcing X-chain 6.6, forcing chain (x and y links) 7.0: a candidate that implies
  its own negation is removed, one whose negation implies it is placed;
- bidirectional cycles 6.5 (one kind of link) and 7.0 (both).

Chains that follow every consequence at once (Nishio, cell, region and dynamic
forcing chains) are in `forcing`.

On a puzzle with variant rules, the rules' weak links (`links`) join the peers': an
on literal also turns off every candidate a rule forbids beside it, and the chain
names the rule there (`r1c1=5 -> r1c2<>4 [cage 3]`). The rules' strong links join the
cells' and houses': an off literal turns on the candidate a rule then needs
(`r1c2<>7 -> r1c3=7 [cage 3]`). The single-value chains and
the cycles of one kind of link take the rules' links between one value's places only.

Each adds SE's length term: +0.1 each time the number of implications in the
chain passes 4, 6, 8, 12, 16, 24, 32 ...
"""

from __future__ import annotations

from collections import deque

from ...engine.clock import check_clock
from .. import chaincore
from ..chain import Branch
from ..chaincore import Tables
from ..links import Links, rule_links
from ..state import State, bit_values, popcount
from ..step import Step, cell_name, make_step
from ..technique import technique


def length_term(complexity: int) -> float:
    added, ceil, odd = 0.0, 4, False
    length = complexity - 2
    while length > ceil:
        added += 0.1
        ceil = ceil * 4 // 3 if odd else ceil * 3 // 2
        odd = not odd
    return round(added, 1)


# ---------------------------------------------------------------- static graph

_GRAPHS: dict = {}


def graph(state: State, y: bool, x: bool = True) -> Graph:
    """The implication graph of a state, shared by the chain techniques asked in one step."""
    key = (id(state.layout), tuple(state.cand), y, x, chaincore.available())
    g = _GRAPHS.get(key)
    if g is None:
        if len(_GRAPHS) >= 6:
            _GRAPHS.clear()
        g = _GRAPHS[key] = Graph(state, y, x)
    return g


class _Weak(dict):
    """On literal -> the off literals it forces: its cell's other candidates (y links),
    the value's other places among its peers, then what the rules forbid beside it."""

    def __init__(self, cand: list[int], peers, y: bool, rules: Links, same_value: bool):
        super().__init__()
        self.cand, self.peers, self.y = cand, peers, y
        self.rules, self.same_value = rules, same_value

    def __missing__(self, lit):
        c, v = lit
        cand = self.cand
        offs = [(c, w) for w in bit_values(cand[c]) if w != v] if self.y else []
        bit = 1 << (v - 1)
        offs.extend((p, v) for p in self.peers[c] if cand[p] & bit)
        if self.rules:
            offs.extend(self.rules.of(lit, self.same_value))
        self[lit] = offs
        return offs


class _Sorted(dict):
    """The same links, in candidate order."""

    def __init__(self, weak: _Weak):
        super().__init__()
        self.weak = weak

    def __missing__(self, lit):
        found = self[lit] = sorted(self.weak[lit])
        return found


class _Hops(dict):
    """On literal -> (next on literal, the off literal between) for every weak link
    followed by a strong one: one hop of the searches, listed once per graph."""

    def __init__(self, weak: _Weak, strong: dict):
        super().__init__()
        self.weak, self.strong = weak, strong

    def __missing__(self, lit):
        strong = self.strong
        found = self[lit] = [(b, off) for off in self.weak[lit] for b in strong.get(off, ())]
        return found


class Graph:
    """Static implications between on-literals (on -> off -> on), per state."""

    def __init__(self, state: State, y: bool, x: bool = True):
        n = state.size
        self.state, self.n, self.y, self.x = state, n, y, x
        cand, peers, houses = state.cand, state.layout.peers, state.layout.houses
        self.ons = [(c, v) for c, m in enumerate(cand) for v in bit_values(m)]
        # strong: off literal (cell, v) -> on literals it forces
        strong: dict[tuple[int, int], list[tuple[int, int]]] = {}
        if y:
            for c, m in enumerate(cand):
                if popcount(m) == 2:
                    a, b = bit_values(m)
                    strong.setdefault((c, a), []).append((c, b))
                    strong.setdefault((c, b), []).append((c, a))
        for house in houses if x else ():
            places: dict[int, list[int]] = {}
            for c in house.cells:
                for v in bit_values(cand[c]):
                    places.setdefault(v, []).append(c)
            for v in sorted(places):
                pos = places[v]
                if len(pos) == 2:
                    p, q = pos
                    strong.setdefault((p, v), []).append((q, v))
                    strong.setdefault((q, v), []).append((p, v))
        # the rules' strong links, by the kinds of link asked for: one value's places (x),
        # one cell's values (y), both for a link between two cells and two values
        self.rules = rule_links(state)
        self.strong_rules: dict[tuple[tuple[int, int], tuple[int, int]], str] = {}
        for off, ons in self.rules.strong.items() if self.rules else ():
            for on in ons:
                kind_ok = x if off[0] != on[0] and off[1] == on[1] else \
                    y if off[0] == on[0] else x and y
                known = strong.setdefault(off, [])
                if kind_ok and on not in known:
                    known.append(on)
                    self.strong_rules[(off, on)] = self.rules.strong_label[(off, on)]
        self.strong = strong
        # weak: on literal -> off literals it forces (built as the searches reach them)
        self.weak = _Weak(cand, peers, y, self.rules, not (x and y))
        self._reached: dict = {}
        # the way back: off literals that force an on literal, on literals that force an off
        self.forced_by: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for off, ons in strong.items():
            for on in ons:
                self.forced_by.setdefault(on, []).append(off)
        # weak links go both ways: what turns an off literal off is what it turns off
        self.turned_off_by = _Sorted(self.weak)
        self.hops = _Hops(self.weak, strong)
        self._tables: Tables | None = None  # the compiled searches, when first asked
        self._tables_asked = False

    def tables(self) -> Tables | None:
        """Every search of this graph run at once in C, or None (Python searches)."""
        if not self._tables_asked:
            self._tables_asked = True
            rules = (chaincore.link_tables(self.rules.weak, self.rules.strong,
                                           self.state.size) if self.rules else ())
            self._tables = Tables.of(self.state.layout, self.state.cand, self.ons, self.y,
                                     self.x, rules)
        return self._tables

    def built_tables(self) -> Tables | None:
        """The compiled searches if some search asked for them already, else None."""
        return self._tables

    def link_text(self, on, off) -> str:
        """' [rule]' when the weak link from `on` to `off` is a rule's, else ''."""
        label = self.rules.label.get((on, off)) if self.rules else None
        return f" [{label}]" if label else ""

    def strong_text(self, off, on) -> str:
        """' [rule]' when the strong link from `off` to `on` is a rule's, else ''."""
        label = self.strong_rules.get((off, on))
        return f" [{label}]" if label else ""

    def uses_rules(self, lits) -> bool:
        """Whether a chain (literals with signs) goes through a rule's link."""
        return bool(self.rules) and any(
            (a, b) in self.rules.label if a_on and not b_on else
            (a, b) in self.strong_rules if b_on and not a_on else False
            for (a, a_on), (b, b_on) in zip(lits, lits[1:]))

    def reach_from_on(self, start, lazy: bool = False):
        """BFS over on-literals from an on literal: on -> (distance in on-hops, parent, via).
        Remembered: cycles, chains and multiple chains all start from every candidate.
        `lazy`: the Python search from this literal alone unless the compiled searches
        from every literal are there already (the cheaper for a few literals)."""
        tables = self.built_tables() if lazy else self.tables()
        if tables is not None:
            return tables.from_on(start)
        known = self._reached.get(start)
        if known is None:
            known = self._reached[start] = self._reach_from_on(start)
        return known

    def nearest_turned_off(self, src):
        """The literal nearest to `src` in its search that turns `src` off (weak links go
        both ways: one of those `src` turns off), the first reached on a tie; or None."""
        tables = self.tables()
        if tables is not None:
            return tables.nearest_of(src)
        return _nearest(self.reach_from_on(src)[0], self.weak[src])

    def _reach_from_on(self, start):
        return self._spread({start: 0}, {start: (None, None)})

    def reach_from_off(self, off, until=None):
        """The same search from an off literal (its strong partners are one hop away),
        stopped as soon as it reaches `until`, if given."""
        tables = self.tables() if until == off else None
        if tables is not None:
            return tables.from_off(off)
        partners = self.strong.get(off, ())
        return self._spread(dict.fromkeys(partners, 1), dict.fromkeys(partners, (None, off)),
                            until)

    def _spread(self, dist: dict, parent: dict, until=None):
        if until in dist:
            return dist, parent
        queue = deque(dist)
        hops = self.hops
        while queue:
            a = queue.popleft()
            d = dist[a] + 1
            for b, off in hops[a]:
                if b not in dist:
                    dist[b] = d
                    parent[b] = (a, off)
                    if b == until:  # breadth first: nothing found later is nearer
                        return dist, parent
                    queue.append(b)
        return dist, parent


def _path_names(n: int, parent, end, start_text: str, g: Graph | None = None) -> list[str]:
    """['r1c1=5', 'r1c4<>5', 'r3c4=5', ...] from the parents of an on-literal, a rule's
    weak or strong link followed by the rule (`g`'s)."""
    parts = []
    node = end
    while node is not None:
        prev, via = parent[node]
        strong = g.strong_text(via, node) if g is not None and via is not None else ""
        parts.append(f"{cell_name(node[0], n)}={node[1]}{strong}")
        if via is not None:
            rule = g.link_text(prev, via) if g is not None and prev is not None else ""
            parts.append(f"{cell_name(via[0], n)}<>{via[1]}{rule}")
        node = prev
    parts.reverse()
    if parts and parts[0] != start_text:
        parts.insert(0, start_text)
    return parts


def _branch(names: list[str]) -> Branch:
    """A chain's branch: its line names the rules it goes through, its links are the
    bare literals (what the play page and the chain data read)."""
    plain = [name.split(" [", 1)[0] for name in names]
    return Branch(" -> ".join(names), list(zip(plain, plain[1:])))


def _common_name(n: int, parent, end) -> str:
    """The usual names of a single-value chain with two strong links (SE: turbot fish)."""
    mid, second = parent[end]
    first = parent[mid][1]
    kinds = []
    for p, q in ((first[0], mid[0]), (second[0], end[0])):
        kinds.append("row" if p // n == q // n else "col" if p % n == q % n else "box")
    if kinds[0] == kinds[1] and kinds[0] != "box":
        return "Skyscraper"
    if sorted(kinds) == ["col", "row"]:
        return "Two-String Kite"
    return "Turbot Fish"


def _path_lits(parent, end, start) -> list[tuple[tuple[int, int], bool]]:
    """The literals of a chain, with their signs, from its start to `end`."""
    out = []
    node = end
    while node is not None:
        prev, via = parent[node]
        out.append((node, True))
        if via is not None:
            out.append((via, False))
        node = prev
    out.reverse()
    if out[0] != start:
        out.insert(0, start)
    return out


class ChainFound:
    """A chain found by a search, its step built only when asked for (the nested levels
    look at thousands of chains and show a few)."""

    __slots__ = ("rating", "cx", "name", "eliminations", "placements", "path", "_make", "_step")

    def __init__(self, rating: float, cx: int, name: str, eliminations, placements, path,
                 make):
        self.rating, self.cx, self.name = rating, cx, name
        self.eliminations, self.placements, self.path = eliminations, placements, path
        self._make = make
        self._step: Step | None = None

    def step(self) -> Step:
        if self._step is None:
            self._step = self._make()
        return self._step


def _nearest(dist: dict, among) -> tuple[int, int] | None:
    """The literal of `among` nearest in `dist` (not the start), the first reached on a tie."""
    reached = [(dist[b], b) for b in among if dist.get(b)]
    if not reached:
        return None
    d = min(reached)[0]
    tied = {b for e, b in reached if e == d}
    return next(iter(tied)) if len(tied) == 1 else next(b for b in dist if b in tied)


def forcing_chain_paths(state: State, y: bool, base: float, name: str) -> list[ChainFound]:
    """Every forcing chain of one kind, easiest first."""
    g = graph(state, y)
    n = state.size
    found = []
    for src in g.ons:
        check_clock(state.deadline)  # a search from every literal: long on an open grid
        c, v = src
        # on => own off: some literal reached from src turns src off; weak links go
        # both ways, so those literals are the ones src turns off
        best = g.nearest_turned_off(src)
        if best is not None:
            dist, parent = g.reach_from_on(src)
            cx = 2 * dist[best] + 2
            rating = base + length_term(cx)
            lits = _path_lits(parent, best, (src, True)) + [(src, False)]
            chain_name = _common_name(n, parent, best) if not y and dist[best] == 2 \
                and not g.uses_rules(lits) else name

            def on_step(src=src, best=best, parent=parent, dist=dist, rating=rating,
                        chain_name=chain_name) -> Step:
                c, v = src
                names = _path_names(n, parent, best, f"{cell_name(c, n)}={v}", g) + \
                    [f"{cell_name(c, n)}<>{v}{g.link_text(best, src)}"]
                return make_step(chain_name, rating, n, what=" -> ".join(names),
                                 eliminations=[src],
                                 cells=sorted({x[0] for x in dist if x in parent}),
                                 chain=[_branch(names)])
            found.append(ChainFound(rating, cx, chain_name, [src], [], lits, on_step))
        # off => own on
        tables = g.tables()
        if tables is not None and not tables.reaches_own_on(src):
            continue
        dist, parent = g.reach_from_off(src, until=src)
        if src in dist:
            cx = 2 * dist[src]
            rating = base + length_term(cx)

            def off_step(src=src, parent=parent, rating=rating) -> Step:
                c, v = src
                names = _path_names(n, parent, src, f"{cell_name(c, n)}<>{v}", g)
                return make_step(name, rating, n, what=" -> ".join(names), placements=[src],
                                 cells=[c], chain=[_branch(names)])
            found.append(ChainFound(rating, cx, name, [], [src],
                                    _path_lits(parent, src, (src, False)), off_step))
    found.sort(key=lambda t: (t.rating, t.cx))
    return found


def _forcing_chains(state: State, y: bool, base: float, name: str):
    return (t.step() for t in forcing_chain_paths(state, y, base, name))


def cycles(state: State, x: bool, y: bool, base: float, name: str) -> list[ChainFound]:
    """Continuous loops (strong and weak links alternating, closed): every weak link
    of the loop is then strong too, so whatever sees both its ends loses the value."""
    g = graph(state, y, x)
    n = state.size
    peers = state.layout.peers
    found: list[ChainFound] = []
    seen: set[frozenset] = set()
    # with the rules' links few literals start a cycle: searched from those alone
    lazy = bool(g.rules)
    for src in g.ons:
        check_clock(state.deadline)
        back = g.forced_by.get(src)
        if not back:
            continue
        dist, parent = g.reach_from_on(src, lazy)
        tables = g.built_tables() if lazy else g.tables()
        row, col = tables.distances_from_on(src) if tables is not None else (None, None)
        for off in back:
            for b in g.turned_off_by[off]:
                if row is not None and col is not None:  # the compiled search's, read directly
                    i = col.get(b)
                    if i is None or row[i] <= 0:
                        continue
                elif not dist.get(b):
                    continue
                path = [src, off]  # walk back from b to src: on, off, on, off ... on
                node = b
                while node is not None:
                    prev, via = parent[node]
                    path.append(node)
                    if via is not None:
                        path.append(via)
                    node = prev
                path.reverse()  # src, ..., b, off, src
                lits = path[:-1]
                if len(set(lits)) != len(lits) or (not y and len({c for c, _ in lits})
                                                   != len(lits)):
                    continue
                key = frozenset(lits)
                if key in seen:
                    continue
                seen.add(key)
                ons = lits[0::2]
                offs = lits[1::2]
                cells = {c for c, _ in lits}
                elims: set[tuple[int, int]] = set()
                for a, o in zip(ons, offs):
                    if a[0] == o[0]:  # a weak link inside a cell: it holds one of the two
                        keep = (1 << (a[1] - 1)) | (1 << (o[1] - 1))
                        elims.update((a[0], v) for v in bit_values(state.cand[a[0]] & ~keep))
                    elif a[1] == o[1]:
                        bit = 1 << (a[1] - 1)
                        elims.update((c, a[1]) for c in peers[a[0]] & peers[o[0]]
                                     if c not in cells and state.cand[c] & bit)
                for o, a in zip(offs, ons[1:] + ons[:1]):  # strong links that are also weak
                    if o[0] != a[0] and o[1] == a[1]:
                        bit = 1 << (a[1] - 1)
                        elims.update((c, a[1]) for c in peers[a[0]] & peers[o[0]]
                                     if c not in cells and state.cand[c] & bit)
                if elims:
                    cx = len(lits)
                    rating = base + length_term(cx)

                    def make(path=path, rating=rating, elims=sorted(elims),
                             cells=sorted(cells)) -> Step:
                        names = [f"{cell_name(c, n)}{'=' if i % 2 == 0 else '<>'}{v}"
                                 + (g.link_text(path[i - 1], (c, v)) if i % 2 else
                                    g.strong_text(path[i - 1], (c, v)) if i else "")
                                 for i, (c, v) in enumerate(path)]
                        return make_step(name, rating, n, what=" -> ".join(names),
                                         eliminations=elims, cells=cells,
                                         chain=[_branch(names)])
                    found.append(ChainFound(rating, cx, name, sorted(elims), [],
                                            [(lit, i % 2 == 0) for i, lit in enumerate(path)],
                                            make))
    return found


@technique("Bidirectional Cycle", 6.5, stage="chains")
def bidirectional_cycle(state: State):
    """X-cycles and Y-cycles (6.5), cycles with both kinds of link (7.0)."""
    found = cycles(state, True, False, 6.5, "Bidirectional X-Cycle")
    found += cycles(state, False, True, 6.5, "Bidirectional Y-Cycle")
    if not found:
        found += cycles(state, True, True, 7.0, "Bidirectional Cycle")
    found.sort(key=lambda t: (t.rating, t.cx))
    yield from (t.step() for t in found)


@technique("Forcing X-Chain", 6.6, stage="chains")
def forcing_x_chain(state: State):
    """Single-value chains (skyscrapers, kites and turbot fish are the short ones)."""
    yield from _forcing_chains(state, False, 6.6, "Forcing X-Chain")


@technique("Forcing Chain", 7.0, stage="chains")
def forcing_chain(state: State):
    """Chains with both cell (y) and house (x) links: XY-chains and AICs."""
    yield from _forcing_chains(state, True, 7.0, "Forcing Chain")
