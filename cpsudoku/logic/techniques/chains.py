"""Forcing chains on SE's scale.

Candidates are literals: "r1c1 is 5" (on) and "r1c1 is not 5" (off). An on
literal turns off the cell's other candidates (y-links) and the value in every
peer; an off literal turns on the other candidate of a bivalue cell (y) or the
other place of a value with two places in a house (x). SE rates:

- forcing X-chain 6.6, forcing chain (x and y links) 7.0: a candidate that implies
  its own negation is removed, one whose negation implies it is placed;
- multiple forcing chains 8.0: every candidate of a cell, or every place of a value
  in a house, implies the same conclusion;
- with "dynamic" implications (each conclusion updates the grid, so singles that
  appear on the way are used) Nishio 7.5 (x-links, contradiction), dynamic forcing
  chains 8.5 (contradiction, double implication, cell and region forcing).

Each adds SE's length term: +0.1 each time the number of implications in the
chain passes 4, 6, 8, 12, 16, 24, 32 ...
"""

from __future__ import annotations

from collections import deque

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
    key = (id(state.layout), tuple(state.cand), y, x)
    g = _GRAPHS.get(key)
    if g is None:
        if len(_GRAPHS) >= 6:
            _GRAPHS.clear()
        g = _GRAPHS[key] = Graph(state, y, x)
    return g


class Graph:
    """Static implications between on-literals (on -> off -> on), per state."""

    def __init__(self, state: State, y: bool, x: bool = True):
        n = state.size
        self.state, self.n = state, n
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
            for v in range(1, n + 1):
                pos = state.positions(house, v)
                if len(pos) == 2:
                    p, q = pos
                    strong.setdefault((p, v), []).append((q, v))
                    strong.setdefault((q, v), []).append((p, v))
        self.strong = strong
        # weak: on literal -> off literals it forces
        weak: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for c, v in self.ons:
            offs = [(c, w) for w in bit_values(cand[c]) if w != v] if y else []
            bit = 1 << (v - 1)
            offs.extend((p, v) for p in peers[c] if cand[p] & bit)
            weak[(c, v)] = offs
        self.weak = weak
        self._reached: dict = {}
        # the way back: off literals that force an on literal, on literals that force an off
        self.forced_by: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for off, ons in strong.items():
            for on in ons:
                self.forced_by.setdefault(on, []).append(off)
        self.turned_off_by: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for on, offs in weak.items():
            for off in offs:
                self.turned_off_by.setdefault(off, []).append(on)

    def reach_from_on(self, start):
        """BFS over on-literals from an on literal: on -> (distance in on-hops, parent, via).
        Remembered: cycles, chains and multiple chains all start from every candidate."""
        known = self._reached.get(start)
        if known is None:
            known = self._reached[start] = self._reach_from_on(start)
        return known

    def _reach_from_on(self, start):
        return self._spread({start: 0}, {start: (None, None)})

    def reach_from_off(self, off):
        """The same search from an off literal (its strong partners are one hop away)."""
        partners = self.strong.get(off, ())
        return self._spread(dict.fromkeys(partners, 1), dict.fromkeys(partners, (None, off)))

    def _spread(self, dist: dict, parent: dict):
        queue = deque(dist)
        weak, strong = self.weak, self.strong
        while queue:
            a = queue.popleft()
            d = dist[a] + 1
            for off in weak[a]:
                for b in strong.get(off, ()):
                    if b not in dist:
                        dist[b] = d
                        parent[b] = (a, off)
                        queue.append(b)
        return dist, parent


def _path_text(n: int, parent, end, start_text: str) -> str:
    """'r1c1=5 -> r1c4<>5 -> r3c4=5 ...' from the parents of an on-literal."""
    parts = []
    node = end
    while node is not None:
        prev, via = parent[node]
        parts.append(f"{cell_name(node[0], n)}={node[1]}")
        if via is not None:
            parts.append(f"{cell_name(via[0], n)}<>{via[1]}")
        node = prev
    parts.reverse()
    if parts and parts[0] != start_text:
        parts.insert(0, start_text)
    return " -> ".join(parts)


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


def _forcing_chains(state: State, y: bool, base: float, name: str):
    """Every forcing chain of one kind as (rating, complexity, step)."""
    g = graph(state, y)
    n = state.size
    found = []
    for src in g.ons:
        c, v = src
        weak = set(g.weak[src])
        # on => own off: some literal reached from src turns src off
        dist, parent = g.reach_from_on(src)
        best = None
        for b, d in dist.items():
            if d and src in g.weak[b] and (best is None or d < dist[best]):
                best = b
        if best is not None:
            cx = 2 * dist[best] + 2
            text = _path_text(n, parent, best, f"{cell_name(c, n)}={v}") + \
                f" -> {cell_name(c, n)}<>{v}"
            found.append((base + length_term(cx), cx, make_step(
                _common_name(n, parent, best) if not y and dist[best] == 2 else name,
                base + length_term(cx), n, what=text, eliminations=[src],
                cells=sorted({x[0] for x in dist if x in parent}))))
        # off => own on
        dist, parent = g.reach_from_off(src)
        if src in dist:
            cx = 2 * dist[src]
            text = _path_text(n, parent, src, f"{cell_name(c, n)}<>{v}")
            found.append((base + length_term(cx), cx, make_step(
                name, base + length_term(cx), n, what=text, placements=[src],
                cells=[c])))
        del weak
    found.sort(key=lambda t: (t[0], t[1]))
    return [s for _, _, s in found]


def _cycles(state: State, x: bool, y: bool, base: float, name: str):
    """Continuous loops (strong and weak links alternating, closed): every weak link
    of the loop is then strong too, so whatever sees both its ends loses the value."""
    g = graph(state, y, x)
    n = state.size
    peers = state.layout.peers
    found: list[tuple[float, int, Step]] = []
    seen: set[frozenset] = set()
    for src in g.ons:
        back = g.forced_by.get(src)
        if not back:
            continue
        dist, parent = g.reach_from_on(src)
        for off in back:
            for b in g.turned_off_by.get(off, ()):
                if not dist.get(b):
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
                elims = set()
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
                    text = " -> ".join(f"{cell_name(c, n)}{'=' if i % 2 == 0 else '<>'}{v}"
                                       for i, (c, v) in enumerate(path))
                    found.append((rating, cx, make_step(name, rating, n, what=text,
                                                        eliminations=sorted(elims),
                                                        cells=sorted(cells))))
    return found


@technique("Bidirectional Cycle", 6.5)
def bidirectional_cycle(state: State):
    """X-cycles and Y-cycles (6.5), cycles with both kinds of link (7.0)."""
    found = _cycles(state, True, False, 6.5, "Bidirectional X-Cycle")
    found += _cycles(state, False, True, 6.5, "Bidirectional Y-Cycle")
    if not found:
        found += _cycles(state, True, True, 7.0, "Bidirectional Cycle")
    found.sort(key=lambda t: (t[0], t[1]))
    yield from (step for _, _, step in found)


@technique("Forcing X-Chain", 6.6)
def forcing_x_chain(state: State):
    """Single-value chains (skyscrapers, kites and turbot fish are the short ones)."""
    yield from _forcing_chains(state, False, 6.6, "Forcing X-Chain")


@technique("Forcing Chain", 7.0)
def forcing_chain(state: State):
    """Chains with both cell (y) and house (x) links: XY-chains and AICs."""
    yield from _forcing_chains(state, True, 7.0, "Forcing Chain")


# ------------------------------------------------------- multiple forcing chains

def _consequences(g: Graph, src):
    """(on-literal -> nodes, off-literal -> nodes) reached from an on literal."""
    dist, _ = g.reach_from_on(src)
    ons = {b: 1 + 2 * d for b, d in dist.items()}
    offs: dict = {}
    for a, d in dist.items():
        for o in g.weak[a]:
            k = 2 + 2 * d
            if offs.get(o, k + 1) > k:
                offs[o] = k
    return ons, offs


def _common(branches, state: State):
    """Conclusions every branch reaches: placements and eliminations with their cost."""
    ons, offs = branches[0]
    out = []
    for lit in ons:
        if all(lit in b[0] for b in branches[1:]) and state.cand[lit[0]]:
            out.append(("on", lit, sum(b[0][lit] for b in branches)))
    for lit in offs:
        if all(lit in b[1] for b in branches[1:]) and state.cand[lit[0]] >> (lit[1] - 1) & 1:
            out.append(("off", lit, sum(b[1][lit] for b in branches)))
    return out


def _multiple_steps(state: State, sources, base: float, kind: str, what: str, branch):
    out = []
    n = state.size
    branches = [branch(s) for s in sources]
    for sign, lit, cx in _common(branches, state):
        if lit in sources:
            continue
        rating = base + length_term(cx)
        out.append((rating, cx, make_step(
            kind, rating, n, what=what,
            placements=[lit] if sign == "on" else [],
            eliminations=[lit] if sign == "off" else [],
            cells=sorted({c for c, _ in sources}))))
    return out


@technique("Multiple Forcing Chains", 8.0)
def multiple_forcing_chains(state: State):
    """Cell and region forcing chains with static implications."""
    g = graph(state, True)
    n = state.size
    found = []
    cache: dict = {}

    def branch(src):
        if src not in cache:
            cache[src] = _consequences(g, src)
        return cache[src]

    for c, m in enumerate(state.cand):
        if popcount(m) > 2:
            srcs = [(c, v) for v in bit_values(m)]
            found += _multiple_steps(state, srcs, 8.0, "Cell Forcing Chains",
                                     f"each candidate of {cell_name(c, n)}", branch)
    for house in state.layout.houses:
        for v in range(1, n + 1):
            pos = state.positions(house, v)
            if len(pos) > 2:
                found += _multiple_steps(state, [(p, v) for p in pos], 8.0,
                                         "Region Forcing Chains",
                                         f"each place of {v} in {house.label}", branch)
    found.sort(key=lambda t: (t[0], t[1]))
    yield from (s for _, _, s in found)


# ------------------------------------------------------------ dynamic chains

class Dynamic:
    """Consequences of one assumption with the grid updated as it goes (singles included)."""

    def __init__(self, state: State, y: bool = True):
        self.state, self.y = state, y
        n = self.n = state.size
        # places left for each value in each house, updated as candidates go
        self.counts = [0] * (len(state.layout.houses) * n)
        for h, house in enumerate(state.layout.houses):
            for c in house.cells:
                m = state.cand[c]
                while m:
                    bit = m & -m
                    m ^= bit
                    self.counts[h * n + bit.bit_length() - 1] += 1

    def run(self, lit, on: bool):
        """(on dict, off dict, conflict) where each dict maps a literal to its parents;
        conflict is a list of literals whose ancestors justify a contradiction, or None."""
        state, n = self.state, self.n
        cand = state.cand[:]
        counts = self.counts[:]
        peers, houses = state.layout.peers, state.layout.houses
        houses_of = state.layout.houses_of
        ons: dict = {}
        offs: dict = {}
        queue: deque = deque()
        if on:
            ons[lit] = ()
            queue.append((True, lit))
        else:
            offs[lit] = ()
            queue.append((False, lit))
        y = self.y
        while queue:
            is_on, (c, v) = queue.popleft()
            if is_on:
                cause = ((c, v),)
                targets = [(p, v) for p in peers[c] if cand[p] >> (v - 1) & 1]
                if y:
                    targets += [(c, w) for w in bit_values(cand[c]) if w != v]
                for t in targets:
                    if t in ons:
                        return ons, offs, [t, (c, v)]
                    if t not in offs:
                        offs[t] = cause
                        queue.append((False, t))
                continue
            if not cand[c] >> (v - 1) & 1:
                continue
            cand[c] &= ~(1 << (v - 1))
            m = cand[c]
            if m == 0:
                orig = state.cand[c]
                return ons, offs, [(c, w) for w in bit_values(orig)]
            if y and not m & (m - 1):
                w = m.bit_length()
                t = (c, w)
                if t not in ons:
                    if t in offs:
                        return ons, offs, [t, (c, v)]
                    ons[t] = tuple((c, u) for u in bit_values(state.cand[c]) if u != w)
                    queue.append((True, t))
            bit = 1 << (v - 1)
            for h in houses_of[c]:
                slot = h * n + v - 1
                left = counts[slot] - 1
                counts[slot] = left
                if left > 1:
                    continue
                cells = houses[h].cells
                if left == 1:
                    only = next(p for p in cells if cand[p] & bit)
                    t = (only, v)
                    if t not in ons:
                        if t in offs:
                            return ons, offs, [t, (c, v)]
                        ons[t] = tuple((p, v) for p in cells
                                       if p != only and state.cand[p] & bit)
                        queue.append((True, t))
                else:  # the value has no place left in the house
                    return ons, offs, [(p, v) for p in cells if state.cand[p] & bit]
        return ons, offs, None


def _ancestors(lits, ons, offs) -> int:
    """How many literals the chains to `lits` go through (SE's complexity)."""
    seen = set()
    stack = list(lits)
    while stack:
        lit = stack.pop()
        for table in (ons, offs):
            if lit in table and (lit, id(table)) not in seen:
                seen.add((lit, id(table)))
                stack.extend(table[lit])
    return len(seen)


def _dynamic(state: State, y: bool, base: float, name: str, multiple: bool):
    dyn = Dynamic(state, y)
    n = state.size
    found = []
    results: dict = {}
    for c, m in enumerate(state.cand):
        if popcount(m) < 2:
            continue
        for v in bit_values(m):
            ons, offs, conflict = dyn.run((c, v), True)
            results[(c, v)] = (ons, offs, conflict)
            if conflict is not None:
                cx = _ancestors(conflict, ons, offs) + 1
                r = base + length_term(cx)
                found.append((r, cx, make_step(
                    name, r, n, what=f"{cell_name(c, n)}={v} leads to a contradiction",
                    eliminations=[(c, v)], cells=[c])))
            if not multiple:
                continue
            ons2, offs2, conflict2 = dyn.run((c, v), False)
            if conflict2 is not None:
                cx = _ancestors(conflict2, ons2, offs2) + 1
                r = base + length_term(cx)
                found.append((r, cx, make_step(
                    name, r, n, what=f"{cell_name(c, n)}<>{v} leads to a contradiction",
                    placements=[(c, v)], cells=[c])))
            elif conflict is None and popcount(m) > 2:
                for table, other, sign in ((ons, ons2, "on"), (offs, offs2, "off")):
                    for lit in table:
                        if lit in other and lit != (c, v) and _open(state, lit):
                            cx = _ancestors([lit], ons, offs) + _ancestors([lit], ons2, offs2)
                            r = base + length_term(cx)
                            found.append((r, cx, _conclusion(
                                "Double Forcing Chain", r, n, sign, lit,
                                f"{cell_name(c, n)}={v} and {cell_name(c, n)}<>{v} both")))
    if multiple:
        for c, m in enumerate(state.cand):
            if popcount(m) > 1:
                found += _dynamic_group(state, [(c, v) for v in bit_values(m)], results, base,
                                        f"each candidate of {cell_name(c, n)}", "Cell")
        for house in state.layout.houses:
            for v in range(1, n + 1):
                pos = state.positions(house, v)
                if len(pos) > 1:
                    found += _dynamic_group(state, [(p, v) for p in pos], results, base,
                                            f"each place of {v} in {house.label}", "Region")
    found.sort(key=lambda t: (t[0], t[1]))
    return [s for _, _, s in found]


def _open(state: State, lit) -> bool:
    return bool(state.cand[lit[0]] >> (lit[1] - 1) & 1)


def _conclusion(name, rating, n, sign, lit, what) -> Step:
    return make_step(name, rating, n, what=what,
                     placements=[lit] if sign == "on" else [],
                     eliminations=[lit] if sign == "off" else [], cells=[lit[0]])


def _dynamic_group(state, sources, results, base, what, kind):
    branches = [results[s] for s in sources]
    if any(b[2] is not None for b in branches):
        return []  # a contradiction is the simpler step
    out = []
    n = state.size
    for index, sign in ((0, "on"), (1, "off")):
        first = branches[0][index]
        for lit in first:
            if lit in sources or not _open(state, lit):
                continue
            if all(lit in b[index] for b in branches[1:]):
                cx = sum(_ancestors([lit], b[0], b[1]) for b in branches)
                r = base + length_term(cx)
                out.append((r, cx, _conclusion(f"Dynamic {kind} Forcing Chains", r, n, sign,
                                               lit, what)))
    return out


@technique("Nishio Forcing Chain", 7.5)
def nishio(state: State):
    """A candidate whose single-value consequences contradict each other."""
    yield from _dynamic(state, False, 7.5, "Nishio Forcing Chain", False)


@technique("Dynamic Forcing Chains", 8.5)
def dynamic_forcing_chains(state: State):
    """Contradiction, double, cell and region forcing chains with dynamic implications."""
    yield from _dynamic(state, True, 8.5, "Dynamic Forcing Chain", True)
