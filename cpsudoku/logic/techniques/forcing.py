"""Forcing chains over whole sets of consequences, as SE rates them.

From an assumption ("r1c1 is 5", or "r1c1 is not 5") every consequence follows:
an on literal turns off the cell's other candidates and the value in its houses;
an off literal turns on the last candidate of a cell or the last place of a value in
a house. Statically (8.0) a cell or house counts its candidates as in the grid;
dynamically (Nishio 7.5, dynamic 8.5) each off literal is struck out as it is
reached, so the singles that appear on the way are used, and their reason (every
candidate struck out before) joins the chain. Steps:

- contradiction: an assumption implies a literal and its negation (Nishio: value
  links only; dynamic: both kinds);
- double forcing chain: a candidate and its negation imply the same literal;
- cell / region forcing chains: every candidate of a cell, or every place of a value
  in a house, implies the same literal.

On a puzzle with variant rules an on literal also turns off every candidate a rule
forbids beside it (`links`), and the chain names the rule at that link; a
contradiction reached through a rule's link names that rule.

A step's complexity is the number of literals behind its conclusion, counted per
chain as SE does, and its rating the base plus SE's length term.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from ...engine.clock import check_clock
from .. import chaincore
from ..chain import Branch, literal_text
from ..links import rule_links
from ..state import Layout, State, bit_values, popcount
from ..step import Step, cell_name, make_step
from ..technique import technique
from . import plusrules
from .chains import length_term

Lit = tuple[int, int]  # (cell, value)

# SE's tie-break among equal ratings and complexities
DOUBLE, CELL, REGION, CONTRADICTION = 1, 5, 6, 7


@chaincore.per_layout
def _house_order(layout: Layout) -> tuple[tuple[int, ...], ...]:
    """Houses of each cell in SE's order: box, row, column, then the extra houses."""
    rank = {"box": 0, "row": 1, "col": 2}
    return tuple(tuple(sorted(hs, key=lambda h: rank.get(layout.houses[h].kind, 3)))
                 for hs in layout.houses_of)


@chaincore.per_layout
def _peer_order(layout: Layout) -> tuple[tuple[int, ...], ...]:
    """Peers of each cell in SE's order: its box, row and column, then the extra houses,
    then peers through smaller all-different groups (cages, anti-knight)."""
    out = []
    for c, hs in enumerate(_house_order(layout)):
        seq = dict.fromkeys(q for h in hs for q in layout.houses[h].cells if q != c)
        seq.update(dict.fromkeys(sorted(layout.peers[c] - seq.keys())))
        out.append(tuple(seq))
    return tuple(out)


@chaincore.per_layout
def _core_tables(layout: Layout) -> tuple[bytes, ...]:
    """The house and peer orders, the cells' houses, the houses' cells and the plus
    rules' tables, for the C side."""
    houses = (list(h.cells) for h in layout.houses)
    return (*chaincore.flat(_house_order(layout)), *chaincore.flat(_peer_order(layout)),
            *chaincore.flat(layout.houses_of),
            chaincore.flat(houses)[1], *plusrules.core_tables(layout))


class Consequences:
    """What follows from one assumption: `on` and `off` map each literal reached to
    the literals it was derived from; `conflict` is the first literal found both on
    and off, as (literal, its on-parents, its off-parents), or None."""

    def __init__(self, on: dict, off: dict, conflict, by_rule: frozenset = frozenset(),
                 causes: dict | None = None, nested: dict | None = None,
                 rule_of: dict | None = None, strong_of: dict | None = None):
        self.on, self.off, self.conflict = on, off, conflict
        # (on literal, off literal) -> the variant rule behind that weak link
        self.rule_of: dict[tuple[Lit, Lit], str] = rule_of or {}
        self.strong_of: dict[tuple[Lit, Lit], str] = strong_of or {}  # the rules' strong links
        self.by_rule = by_rule  # off literals derived from other off literals by a rule
        # why an on literal holds: -1 its cell's last candidate, else the house's last place
        self.causes: dict[Lit, int] = causes or {}
        # off literals an inner forcing chain derived, with that chain (nested chains)
        self.nested: dict[Lit, InnerHint] = nested or {}
        self._counts: dict[tuple[Lit, bool], tuple[int, frozenset]] = {}

    def _parent_sign(self, lit: Lit, is_on: bool) -> bool:
        """On literals come from off ones, off ones from on ones, except what a rule
        derived: that comes from the off literals the rule needed."""
        return False if not is_on and lit in self.by_rule else not is_on

    def branch(self, lit: Lit, is_on: bool, size: int, parents=None) -> Branch:
        """The chain from the assumption to `lit` (with `parents` instead of its own, for
        the two sides of a contradiction): its main line, every link, its inner chains."""
        first: dict[tuple[bool, Lit], tuple[bool, Lit] | None] = {}
        links: list[tuple[tuple[bool, Lit], tuple[bool, Lit]]] = []
        nested: list[Branch] = []
        stack = [((is_on, lit), parents)]
        while stack:
            node, given = stack.pop()
            if node in first:
                continue
            sign, p = node
            ps = given if given is not None else (self.on if sign else self.off)[p]
            up = self._parent_sign(p, sign)
            first[node] = (up, ps[0]) if ps else None
            links.extend(((up, q), node) for q in ps)
            stack.extend(((up, q), None) for q in ps)
            if not sign and p in self.nested:
                inner = self.nested[p]
                nested.extend(b for b in inner.branches() if b not in nested)
        depth: dict[tuple[bool, Lit], int] = {}

        def depth_of(node) -> int:  # along first parents: how far from the assumption
            walk = []
            while node is not None and node not in depth:
                walk.append(node)
                node = first[node]
            d = depth[node] if node is not None else -1
            for n in reversed(walk):
                d = depth[n] = d + 1
            return d

        rule_of, strong_of = self.rule_of, self.strong_of

        def text(node, parent) -> str:  # the line names a rule's weak or strong link's rule
            label = None
            if parent is not None and parent[0] and not node[0]:
                label = rule_of.get((parent[1], node[1]))
            elif parent is not None and not parent[0] and node[0]:
                label = strong_of.get((parent[1], node[1]))
            plain = literal_text(node[1], node[0], size)
            return f"{plain} [{label}]" if label else plain

        line: list[str] = []
        at: tuple[bool, Lit] | None = (is_on, lit)
        while at is not None:
            line.append(text(at, first[at]))
            at = first[at]
        links.sort(key=lambda link: depth_of(link[1]))
        return Branch(" -> ".join(reversed(line)),
                      [(literal_text(a[1], a[0], size), literal_text(b[1], b[0], size))
                       for a, b in links], nested)

    def conflict_branches(self, size: int) -> list[Branch]:
        lit, on_parents, off_parents = self.conflict
        return [self.branch(lit, True, size, on_parents),
                self.branch(lit, False, size, off_parents)]

    def count(self, lit: Lit, is_on: bool, parents=None) -> int:
        """How many literals the chain to `lit` goes through, itself included."""
        flat, inner = self.parts(lit, is_on, parents)
        return flat + sum(h.complexity for h in inner)

    def parts(self, lit: Lit, is_on: bool, parents=None) -> tuple[int, frozenset]:
        """The literals behind `lit` and the inner chains they used (SE counts each inner
        chain once per step, however many of the step's chains use it)."""
        if parents is None:
            key = (lit, is_on)
            known = self._counts.get(key)
            if known is None:
                known = self._counts[key] = self._count(lit, is_on, None)
            return known
        return self._count(lit, is_on, parents)

    def _count(self, lit: Lit, is_on: bool, parents) -> tuple[int, frozenset]:
        nested = self.nested
        inner = set()
        if not is_on and lit in nested:
            inner.add(nested[lit])
        seen: set[tuple[bool, Lit]] = {(is_on, lit)}
        first = parents if parents is not None else (self.on if is_on else self.off)[lit]
        after = False if not is_on and lit in self.by_rule else not is_on
        stack = [(after, p) for p in first]
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            sign, p = node
            if not sign and p in nested:
                inner.add(nested[p])
            after = False if not sign and p in self.by_rule else not sign
            stack.extend((after, q) for q in (self.on if sign else self.off)[p])
        return len(seen), frozenset(inner)

    def conflict_rule(self) -> str | None:
        """The variant rule that breaks: the one whose weak link turned the conflicting
        literal off, if a rule's did."""
        if self.conflict is None or not self.rule_of:
            return None
        lit, _on_parents, off_parents = self.conflict
        return next((self.rule_of[(p, lit)] for p in off_parents if (p, lit) in self.rule_of),
                    None)

    def conflict_count(self) -> int:
        lit, on_parents, off_parents = self.conflict
        return self.count(lit, True, on_parents) + self.count(lit, False, off_parents)

    def conflict_sources(self) -> list[tuple]:
        lit, on_parents, off_parents = self.conflict
        return [(self, lit, True, on_parents), (self, lit, False, off_parents)]

    def ancestors(self, lit: Lit, is_on: bool, parents=None):
        """Every literal behind `lit`, with its sign."""
        seen: set[tuple[bool, Lit]] = set()
        stack = [((is_on, lit), parents)]
        while stack:
            node, given = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            sign, p = node
            ps = given if given is not None else (self.on if sign else self.off)[p]
            up = self._parent_sign(p, sign)
            stack.extend(((up, q), None) for q in ps)
        return seen


class InnerHint:
    """A step of an inner chain technique found inside an outer chain: what it removes,
    the outer chain's struck-out candidates it needed, its complexity and chains."""

    __slots__ = ("key", "rating", "complexity", "removed", "needs", "_branches")

    def __init__(self, key, rating: float, complexity: int, removed: list[Lit],
                 needs: tuple[Lit, ...], branches):
        self.key, self.rating, self.complexity = key, rating, complexity
        self.removed, self.needs, self._branches = removed, needs, branches

    def branches(self) -> list[Branch]:
        if callable(self._branches):
            self._branches = self._branches()
        return self._branches

    def __eq__(self, other) -> bool:
        return isinstance(other, InnerHint) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


def hidden_needs(layout: Layout, source: list[int], cand: list[int], lit: Lit,
                 cause: int) -> list[Lit]:
    """The candidates struck out between `source` and `cand` that made `lit` a single:
    in its cell (cause -1) or at the value's other places in house `cause`."""
    c, v = lit
    if cause < 0:
        return [(c, u) for u in bit_values(source[c] & ~cand[c])]
    bit = 1 << (v - 1)
    return [(q, v) for q in layout.houses[cause].cells if source[q] & bit and not cand[q] & bit]


def inner_hints(found: list[tuple], layout: Layout, source: list[int], cand: list[int],
                branches) -> list[InnerHint]:
    """The steps of an inner search on grid `cand` (`ForcingSearch.inner_found`) as
    inner chains of an outer one whose assumption started from the grid `source`: each
    with the outer chain's struck-out candidates it needs (those that made its singles
    singles, SE's way); `branches(index)` gives a step's chains when asked."""
    out: list[InnerHint] = []
    for key, rating, cx, removed, index, reasons in found:
        needs: dict[Lit, None] = {}
        for q, cause in reasons:
            needs.update(dict.fromkeys(hidden_needs(layout, source, cand, q, cause)))
        if needs:
            out.append(InnerHint(key, rating, cx, list(removed), tuple(needs),
                                 lambda i=index: branches(i)))
    return out


class Chaining:
    """SE's propagation: on literals are followed before off literals, each queue
    first in, first out; the first reason found for a literal is the one kept."""

    def __init__(self, state: State, y: bool, dynamic: bool, rules=None, plus: bool = False):
        self.state, self.y, self.dynamic = state, y, dynamic
        # what the "plus" chains conclude from the grid when the singles run out: the
        # plus rules (`plusrules`) if `plus`, then, if those find nothing, rules(layout,
        # source, cand) -> [(off literal, off literals it needs, inner chain or None)]
        self.plus, self.rules = plus, rules
        layout = state.layout
        self.order = _house_order(layout)
        self.peer_order = _peer_order(layout)
        n = self.n = state.size
        self.counts = [0] * (len(layout.houses) * n)  # places per (house, value)
        for h, house in enumerate(layout.houses):
            for c in house.cells:
                for v in bit_values(state.cand[c]):
                    self.counts[h * n + v - 1] += 1
        self._memo: dict[tuple[Lit, bool], Consequences] = {}
        # the rules' weak and strong links (none on a classic grid), followed like the
        # peers' and the houses', in C as in Python
        self.links = rule_links(state)
        self.rule_of = self.links.label if self.links else {}
        self.strong_of = self.links.strong_label if self.links else {}
        self.tables = _core_tables(layout) if (n <= 16 and chaincore.available()) else None
        self.link_tables = (chaincore.link_tables(self.links.weak, self.links.strong, n)
                            if self.links and self.tables is not None else ())
        # off a classic grid the C propagation's plus rules stop before X-wings (theirs
        # are over rows and columns): it asks the Python ones, which read every house,
        # before the other rules
        self.compiled_rules = rules
        if plus and not plusrules.classic(layout):
            self.compiled_rules = self._x_wings_then_rules

    def run(self, lit: Lit, on: bool) -> Consequences:
        key = (lit, on)
        if key not in self._memo:
            # one cell's assumptions can take long when nested searches run under them
            check_clock(self.state.deadline)
            self._memo[key] = self._run(lit, on)
        return self._memo[key]

    def _run(self, lit: Lit, on: bool) -> Consequences:
        state, n, y, dynamic = self.state, self.n, self.y, self.dynamic
        if self.tables is not None:
            found = chaincore.propagate(
                lit, on, state.cand, self.counts, n, self.tables, y, dynamic,
                self.compiled_rules, state.layout, self.plus, self.link_tables)
            return Consequences(*found, rule_of=self.rule_of, strong_of=self.strong_of)
        source = state.cand
        cand = source[:]
        counts = self.counts[:]
        houses = state.layout.houses
        order, peer_order, houses_of = self.order, self.peer_order, state.layout.houses_of
        ons: dict[Lit, tuple] = {}
        offs: dict[Lit, tuple] = {}
        by_rule: set[Lit] = set()
        causes: dict[Lit, int] = {}
        nested: dict[Lit, InnerHint] = {}

        links = self.links

        def done(conflict) -> Consequences:
            return Consequences(ons, offs, conflict, frozenset(by_rule), causes, nested,
                                self.rule_of, self.strong_of)

        pend_on: deque[Lit] = deque()
        pend_off: deque[Lit] = deque()
        (ons if on else offs)[lit] = ()
        (pend_on if on else pend_off).append(lit)
        while pend_on or pend_off:
            if pend_on:
                c, v = p = pend_on.popleft()
                bit = 1 << (v - 1)
                targets = [(c, w) for w in bit_values(cand[c]) if w != v] if y else []
                targets += [(q, v) for q in peer_order[c] if cand[q] & bit]
                if links:  # what the rules forbid beside it (one value's, for Nishio)
                    targets += [(q, w) for q, w in links.of(p, not y)
                                if cand[q] >> (w - 1) & 1]
                for t in targets:
                    if t in ons:
                        return done((t, ons[t], (p,)))
                    if t not in offs:
                        offs[t] = (p,)
                        pend_off.append(t)
            else:
                c, v = p = pend_off.popleft()
                bit = 1 << (v - 1)
                made: list[tuple[Lit, tuple, int | None]] = []
                m = cand[c]
                if y and popcount(m) == 2 and m & bit:  # the cell's last other candidate
                    w = (m & ~bit).bit_length()
                    hidden = tuple((c, u) for u in bit_values(source[c] & ~m))
                    made.append(((c, w), (p, *hidden), -1))
                for h in order[c]:
                    if counts[h * n + v - 1] != 2 or not m & bit:
                        continue
                    cells = houses[h].cells
                    other = next(q for q in cells if q != c and cand[q] & bit)
                    hidden = tuple((q, v) for q in cells if source[q] & bit and not cand[q] & bit)
                    made.append(((other, v), (p, *hidden), h))
                if links and m & bit:  # what a rule then needs (one value's, for Nishio)
                    # no cause: the link holds on any grid with fewer candidates
                    made.extend((t, (p,), None) for t in links.strong.get(p, ())
                                if y or t[1] == v)
                if dynamic and m & bit:  # struck out now: later singles see it gone
                    cand[c] = m & ~bit
                    for h in houses_of[c]:
                        counts[h * n + v - 1] -= 1
                for t, parents, why in made:
                    if t in offs:
                        return done((t, parents, offs[t]))
                    if t not in ons:
                        ons[t] = parents
                        if why is not None:
                            causes[t] = why
                        pend_on.append(t)
            if not pend_on and not pend_off:
                for t, parents, *inner in self._asked(source, cand):
                    if t not in offs:  # SE adds them unchecked: a clash shows up later
                        offs[t] = parents
                        by_rule.add(t)
                        if inner and inner[0] is not None:
                            nested[t] = inner[0]
                        pend_off.append(t)
        return done(None)

    def _x_wings_then_rules(self, layout: Layout, source: list[int],
                            cand: list[int]) -> list[tuple]:
        """The rest of `_asked` where the C plus rules found nothing."""
        found = plusrules.x_wings(layout, source, cand)
        if not found and self.rules is not None:
            found = self.rules(layout, source, cand)
        return found

    def _asked(self, source: list[int], cand: list[int]) -> list[tuple]:
        """What the rules conclude from the grid `cand` where the singles ran out."""
        layout = self.state.layout
        found = plusrules.first_rule(layout, source, cand) if self.plus else []
        if not found and self.rules is not None:
            found = self.rules(layout, source, cand)
        return found


def _broken(cons: Consequences) -> str:
    """' in <rule>' when a variant rule's weak link closes the contradiction."""
    rule = cons.conflict_rule()
    return f" in {rule}" if rule else ""


def _open(state: State, lit: Lit, is_on: bool) -> bool:
    """The conclusion changes the grid: an on literal places a value in a cell with
    other candidates, an off literal removes a candidate."""
    m = state.cand[lit[0]]
    return bool(m >> (lit[1] - 1) & 1) and (not is_on or popcount(m) > 1)


class ForcingSearch:
    """Every step of one kind of forcing chain in a state, SE's way."""

    def __init__(self, state: State, base: float, y: bool, dynamic: bool, multiple: bool,
                 nishio: bool, prefix: str, rules=None, suffix: str = "", plus: bool = False):
        self.state, self.base, self.n = state, base, state.size
        self.chaining = Chaining(state, y, dynamic, rules, plus)
        self.suffix = suffix
        self.dynamic, self.multiple, self.nishio, self.prefix = dynamic, multiple, nishio, prefix
        self.found: list[tuple] = []
        self._places: list[list[int]] | None = None

    def add(self, key: int, name: str, is_on: bool, lit: Lit, what: str, cells,
            sources: list[tuple], origin: int | None = None):
        """One step found from its chains, `sources`: (consequences, literal, sign,
        parents or None) each. Its complexity is the literals behind each chain, summed,
        plus each inner chain used once; `origin` is why the assumptions cover every
        case (-1: a cell's candidates, else a house's places), None for one assumption."""
        flat, inner = 0, set()
        for cons, t, sign, parents in sources:
            f, i = cons.parts(t, sign, parents)
            flat += f
            inner |= i
        cx = flat + sum(h.complexity for h in inner)
        rating = self.base + length_term(cx)
        self.found.append((rating, cx, key, len(self.found), name + self.suffix, is_on, lit,
                           what, cells, sources, origin))

    def _search(self) -> None:
        for c, m in enumerate(self.state.cand):
            size = popcount(m)
            if size > 2 or (size > 1 and self.dynamic):
                check_clock(self.state.deadline)  # a dynamic search can take seconds
                self._cell(c, m, size)
        self.found.sort(key=lambda t: t[:4])

    def steps(self) -> Iterator[Step]:
        """Easiest first (SE: rating, then complexity, then kind); built as asked for,
        since the solver takes only the first."""
        self._search()
        for rating, _cx, _key, _i, name, is_on, lit, what, cells, sources, _o in self.found:
            yield make_step(name, rating, self.n, what=what,
                            placements=[lit] if is_on else [],
                            eliminations=[] if is_on else [lit], cells=sorted(set(cells)),
                            chain=[cons.branch(t, sign, self.n, parents)
                                   for cons, t, sign, parents in sources])

    def inner_found(self) -> list[tuple]:
        """Every step as an inner chain would use it, small enough to keep for many
        grids: (key, rating, complexity, what it removes, index in `found`, reasons),
        the reasons as (on literal, why it is a single) for each single behind it."""
        self._search()
        cand = self.state.cand
        out = []
        seen = set()
        for i, (rating, cx, _key, _i, name, is_on, lit, _what, _cells, sources,
                origin) in enumerate(self.found):
            c, v = lit
            removed = tuple((c, u) for u in bit_values(cand[c]) if u != v) if is_on else (lit,)
            key = (name, is_on, lit, cx)
            if not removed or key in seen:
                continue
            seen.add(key)
            reasons: dict[tuple[Lit, int], None] = {}
            for cons, t, sign, parents in sources:
                for on, q in cons.ancestors(t, sign, parents):
                    cause = cons.causes.get(q) if on else None
                    if cause is None and on and origin is not None and not cons.on.get(q, 1):
                        cause = origin  # the assumption: one of a cell's or house's cases
                    if cause is not None:
                        reasons[(q, cause)] = None
            if reasons:
                out.append((key, rating, cx, removed, i, tuple(reasons)))
        return out

    def branches_of(self, index: int) -> list[Branch]:
        """The chains of the step at `index` of `found`."""
        self._search()
        sources = self.found[index][9]
        return [cons.branch(t, sign, self.n, parents) for cons, t, sign, parents in sources]

    def _cell(self, c: int, m: int, size: int) -> None:
        run, n = self.chaining.run, self.n
        name = cell_name(c, n)
        contradiction = self.dynamic  # Nishio is dynamic too
        double = size >= 3 and self.dynamic and not self.nishio
        branches = []
        kind = "Nishio Forcing Chain" if self.nishio else "Contradiction Forcing Chain"
        for v in bit_values(m):
            src = (c, v)
            if_on = run(src, True)
            if contradiction and if_on.conflict is not None:
                self.add(CONTRADICTION, kind, False, src,
                         f"{name}={v} leads to a contradiction{_broken(if_on)}",
                         [c], if_on.conflict_sources())
            if contradiction or double:
                if_off = run(src, False)
                if contradiction and if_off.conflict is not None:
                    self.add(CONTRADICTION, kind, True, src,
                             f"{name}<>{v} leads to a contradiction{_broken(if_off)}", [c],
                             if_off.conflict_sources())
                if double:
                    self._double(src, if_on, if_off)
            if not self.nishio:
                self._regions(c, v, if_on)
            branches.append(if_on)
        if not self.nishio and (size == 2 or self.multiple):
            self._together([(c, v) for v in bit_values(m)], branches, CELL,
                           f"{self.prefix}Cell Forcing Chains", f"each candidate of {name}", -1)

    def _double(self, src: Lit, if_on: Consequences, if_off: Consequences) -> None:
        name = f"{cell_name(src[0], self.n)}={src[1]} and {cell_name(src[0], self.n)}<>{src[1]}"
        for is_on, a, b in ((True, if_on.on, if_off.on), (False, if_on.off, if_off.off)):
            for lit in a:
                if lit in b and lit != src and _open(self.state, lit, is_on):
                    self.add(DOUBLE, "Double Forcing Chain", is_on, lit, f"{name} both",
                             [src[0]], [(if_on, lit, is_on, None), (if_off, lit, is_on, None)])

    def _regions(self, c: int, v: int, if_on: Consequences) -> None:
        state = self.state
        places = self._places
        if places is None:  # each value's places per house, once per search
            cand, n = state.cand, self.n
            places = self._places = [
                [q for q in house.cells if cand[q] >> u & 1]
                for house in state.layout.houses for u in range(n)]
        for h in self.chaining.order[c]:
            house = state.layout.houses[h]
            pos = places[h * self.n + v - 1]
            if pos[0] != c or not (len(pos) == 2 or (self.multiple and len(pos) > 2)):
                continue  # each house once, from its first place
            branches = [if_on] + [self.chaining.run((q, v), True) for q in pos[1:]]
            self._together([(q, v) for q in pos], branches, REGION,
                           f"{self.prefix}Region Forcing Chains",
                           f"each place of {v} in {house.label}", h)

    def _together(self, sources: list[Lit], branches: list[Consequences], key: int,
                  name: str, what: str, origin: int) -> None:
        cells = [s[0] for s in sources]
        for is_on in (True, False):
            tables = [b.on if is_on else b.off for b in branches]
            common = set(tables[0])
            for table in tables[1:]:
                if not common:
                    break
                common.intersection_update(table)
            if not common:
                continue
            # in the first branch's order, as SE walks it
            for lit in (x for x in tables[0] if x in common):
                if lit in sources or not _open(self.state, lit, is_on):
                    continue
                self.add(key, name, is_on, lit, what, cells,
                         [(b, lit, is_on, None) for b in branches], origin)


@technique("Nishio Forcing Chain", 7.5, stage="nishio")
def nishio(state: State):
    """A candidate (or its absence) whose single-value consequences contradict."""
    yield from ForcingSearch(state, 7.5, False, True, False, True, "").steps()


@technique("Multiple Forcing Chains", 8.0, stage="multiple")
def multiple_forcing_chains(state: State):
    """Cell and region forcing chains over the grid as it stands."""
    yield from ForcingSearch(state, 8.0, True, False, True, False, "").steps()


@technique("Dynamic Forcing Chains", 8.5, stage="dynamic")
def dynamic_forcing_chains(state: State):
    """Contradiction, double, cell and region forcing chains that use the singles
    appearing on the way."""
    yield from ForcingSearch(state, 8.5, True, True, True, False, "Dynamic ").steps()
