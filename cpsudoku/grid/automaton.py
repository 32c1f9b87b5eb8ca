"""Finite automata read along a sequence of cells: the language behind the `Regular` kind.

An automaton has numbered states, one start state, accepting states and
transitions (state, value, next state). Several next states for one (state,
value) make it nondeterministic; `deterministic()` gives the equivalent DFA
for the solvers that take only those (CP-SAT, Choco).

Rules rarely list transitions by hand: `Automaton.build` explores the states
reachable from a start of any hashable kind ("the last digit", "the sum so
far") through a step function, and numbers them. A rule may also declare a
`window` k: the language is exactly "every run of k consecutive cells fits"
(whispers: k = 2, entropic lines: k = 3), which lets the constraint decompose
into small tables over those runs.

`paths(domains)` is the layered graph of Pesant's `regular` constraint: per
position, the transitions that lie on some accepted word over the domains.
Every backend's encoding and the tables of the decomposition read it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from . import deadline

Transition = tuple[int, int, int]  # (state, value, next state)

# Automata a puzzle brings (given as data, or compiled from a pattern) are bounded, so
# that reading, checking and propagating them stay within a puzzle's means: the states
# are numbered below MAX_GIVEN_STATES, the transitions at most MAX_GIVEN_TRANSITIONS,
# and their product at most MAX_GIVEN_SIZE, as the bit-set passes over an automaton
# (each transition carries a set of states) cost about that. The rules' own automata
# are bounded by their parameters instead.
MAX_GIVEN_STATES = 4096
MAX_GIVEN_TRANSITIONS = 100_000
MAX_GIVEN_SIZE = 10_000_000


def given_size_problem(states: int, transitions: int) -> str | None:
    """What makes an automaton of `states` states (numbered from 0) and `transitions`
    transitions too large to take from a puzzle, or None."""
    if transitions > MAX_GIVEN_TRANSITIONS:
        return (f"{transitions} transitions, more than the {MAX_GIVEN_TRANSITIONS} an "
                f"automaton may have")
    if states * transitions > MAX_GIVEN_SIZE:
        return (f"{states} states x {transitions} transitions = {states * transitions}, more "
                f"than the {MAX_GIVEN_SIZE} an automaton may have (states x transitions)")
    return None


@dataclass(frozen=True)
class Automaton:
    start: int
    accepting: frozenset[int]
    transitions: tuple[Transition, ...]
    window: int | None = None  # the language is "every run of `window` cells fits"

    @classmethod
    def build(cls, start: Any, step: Callable[[Any, int], Any],
              accept: Callable[[Any], bool], values: Iterable[int],
              window: int | None = None, longest: int | None = None) -> Automaton:
        """The automaton whose states are those reachable from `start`, where
        step(state, value) is the next state (None: no way on). With `longest` k, only
        the states reachable within k steps: right for words of at most k values, for
        languages whose states would grow without end on longer words."""
        def successors(state, v):
            nxt = step(state, v)
            return () if nxt is None else (nxt,)

        return cls.explore(start, successors, accept, values, window, longest)

    @classmethod
    def explore(cls, start: Any, successors: Callable[[Any, int], Iterable[Any]],
                accept: Callable[[Any], bool], values: Iterable[int],
                window: int | None = None, longest: int | None = None) -> Automaton:
        """As `build`, with every next state of (state, value) listed: a
        nondeterministic automaton when there are several. A guess made once (which
        digits will end a lunchbox) is then one branch a state, where the
        deterministic form would carry every guess still alive in one state."""
        values = tuple(values)
        number: dict[Any, int] = {start: 0}  # states: any hashable values
        depth = {start: 0}
        queue = [start]
        transitions = []
        for found, state in enumerate(queue):  # breadth first; the list grows as found
            if found & 255 == 0:  # a subset construction may explode: within the limit
                deadline.check()
            if longest is not None and depth[state] >= longest:
                continue
            for v in values:
                for nxt in successors(state, v):
                    if nxt not in number:
                        number[nxt] = len(number)
                        depth[nxt] = depth[state] + 1
                        queue.append(nxt)
                    transitions.append((number[state], v, number[nxt]))
        accepting = frozenset(i for s, i in number.items() if accept(s))
        return cls(0, accepting, tuple(transitions), window)

    @cached_property
    def states(self) -> int:
        """The number of states (numbered 0..states-1)."""
        top = max(self.start, *self.accepting) if self.accepting else self.start
        if self.transitions:
            froms, _, tos = zip(*self.transitions)  # at C speed: automata run to 10^5 moves
            top = max(top, max(froms), max(tos))
        return top + 1

    @cached_property
    def moves(self) -> dict[tuple[int, int], tuple[int, ...]]:
        """(state, value) -> the next states."""
        out: dict[tuple[int, int], list[int]] = {}
        for s, v, t in self.transitions:
            out.setdefault((s, v), []).append(t)
        return {key: tuple(sorted(set(ts))) for key, ts in out.items()}

    @property
    def is_deterministic(self) -> bool:
        return all(len(ts) == 1 for ts in self.moves.values())

    def accepts(self, values: Sequence[int]) -> bool:
        current = {self.start}
        moves = self.moves
        for v in values:
            current = {t for s in current for t in moves.get((s, v), ())}
            if not current:
                return False
        return not current.isdisjoint(self.accepting)

    def fits(self, length: int, values: Iterable[int]) -> bool:
        """Whether some word of `length` values, each from `values`, is accepted:
        the forward pass of `paths` alone (a clue's check that it can hold at all)."""
        return self._fits(length, frozenset(values))

    def _fits(self, length: int, values: frozenset[int]) -> bool:
        key = (length, values)
        known = self._fitting.get(key)
        if known is None:
            # layers of states as integers (bit s: state s), quicker than sets here
            nexts = [0] * self.states
            for s, v, t in self.transitions:
                if v in values:
                    nexts[s] |= 1 << t
            layer = 1 << self.start
            seen = {layer: 0}  # layers repeat (a sum line's every ten): skip the cycles
            step = 0
            while step < length:
                reached, left = 0, layer
                while left:
                    low = left & -left
                    reached |= nexts[low.bit_length() - 1]
                    left ^= low
                layer = reached
                step += 1
                first = seen.setdefault(layer, step)
                if first < step:
                    step = length - (length - step) % (step - first)
                    seen = {}
            known = self._fitting[key] = any(layer >> a & 1 for a in self.accepting)
        return known

    @cached_property
    def _fitting(self) -> dict[tuple[int, frozenset[int]], bool]:
        return {}  # shared automata are asked again for each clue

    def reversed(self) -> Automaton:
        """The automaton of the words read backwards: every move turned round, a new
        start 0 moving as the moves into an accepting state did, accepting in the old
        start (the old states renumbered one up)."""
        moves = [(t + 1, v, s + 1) for s, v, t in self.transitions]
        moves += [(0, v, s + 1) for s, v, t in self.transitions if t in self.accepting]
        accepting = {self.start + 1} | ({0} if self.start in self.accepting else set())
        return Automaton(0, frozenset(accepting), tuple(moves))

    def deterministic(self) -> Automaton:
        """The same language with one next state per (state, value): subset construction."""
        if self.is_deterministic:
            return self
        moves = self.moves
        values = sorted({v for _, v, _ in self.transitions})

        def step(subset, v):
            nxt = frozenset(t for s in subset for t in moves.get((s, v), ()))
            return nxt or None

        return Automaton.build(frozenset({self.start}), step,
                               lambda subset: not subset.isdisjoint(self.accepting),
                               values, self.window)

    def paths(self, domains: Sequence[Iterable[int]]) -> list[list[Transition]]:
        """Per position, the transitions on some accepted word over `domains`
        (one domain per position); all empty when no word is accepted."""
        moves = self.moves
        doms = [sorted(d) for d in domains]
        forward = [{self.start}]
        for dom in doms:
            layer = {t for s in forward[-1] for v in dom for t in moves.get((s, v), ())}
            forward.append(layer)
        alive = forward[-1] & self.accepting
        out: list[list[Transition]] = [[] for _ in doms]
        for i in range(len(doms) - 1, -1, -1):
            edges = [(s, v, t) for s in forward[i] for v in doms[i]
                     for t in moves.get((s, v), ()) if t in alive]
            out[i] = edges
            alive = {s for s, _, _ in edges}
        if len(doms) and not out[0]:
            return [[] for _ in doms]
        return out

    def words(self, domains: Sequence[Iterable[int]], limit: int) -> list[tuple[int, ...]] | None:
        """Every accepted word over `domains`, or None when there are more than `limit`."""
        if not domains:
            return [()] if self.start in self.accepting else []
        return self.runs(domains, 0, len(domains), limit)

    def runs(self, domains: Sequence[Iterable[int]], start: int, length: int,
             limit: int | None = None) -> list[tuple[int, ...]] | None:
        """The value tuples of positions start..start+length-1 on some accepted word
        (None when there are more than `limit`)."""
        by_state: list[dict[int, list[tuple[int, int]]]] = []
        for edges in self.paths(domains):
            outs: dict[int, list[tuple[int, int]]] = {}
            for s, v, t in edges:
                outs.setdefault(s, []).append((v, t))
            by_state.append(outs)
        found: set[tuple[int, ...]] = set()
        stack: list[tuple[int, int, tuple[int, ...]]] = [
            (start, s, ()) for s in (by_state[start] if start < len(by_state) else ())]
        while stack:
            i, state, prefix = stack.pop()
            if i == start + length:
                found.add(prefix)
                if limit is not None and len(found) > limit:
                    return None
                continue
            for v, t in by_state[i].get(state, ()):
                stack.append((i + 1, t, prefix + (v,)))
        return sorted(found)


_DONE = "done"  # a part read to its end and accepted: its state no longer matters
MAX_PRODUCT_STATES = 100_000  # beyond: `along` gives up (a table or the whole either serves)


def along(line: Sequence[int], parts: Sequence[tuple[Sequence[int], Automaton]],
          allowed: Sequence[frozenset[int]]) -> Automaton | None:
    """One automaton over the cells `line` for several read at once: each part (cells,
    automaton) accepts its cells' values, its cells standing in `line` in its order,
    and position k holds a value of `allowed[k]`. States: the position and each
    part's state (a part read to its end and accepted is `_DONE`). None when a part's
    cells are out of the line's order or the states would pass MAX_PRODUCT_STATES."""
    where = {c: k for k, c in enumerate(line)}
    reads: list[list[int]] = [[] for _ in line]  # position -> the parts reading it
    last: list[int] = []
    for i, (cells, _) in enumerate(parts):
        at = [where.get(c, -1) for c in cells]
        if min(at, default=0) < 0 or any(a >= b for a, b in zip(at, at[1:])):
            return None
        for k in at:
            reads[k].append(i)
        last.append(at[-1] if at else -1)
    moves = [a.moves for _, a in parts]
    accepting = [a.accepting for _, a in parts]
    if any(cells == () and a.start not in a.accepting for cells, a in parts):
        return Automaton(0, frozenset(), ())
    # layer by layer (a state is its position and each part's state): numbered as a
    # breadth-first search numbers them, with no search machinery per move (City
    # Planning's 52 either/or lines: 86 ms to 57 ms)
    start = tuple(_DONE if not cells else a.start for cells, a in parts)
    number: dict[tuple, int] = {(0, start): 0}
    layer = [start]
    transitions: list[Transition] = []
    for k in range(len(line)):
        deadline.check()
        here = reads[k]
        values = sorted(allowed[k])
        found: dict[tuple, None] = {}  # the next layer, in the order met
        for states in layer:
            source = number[(k, states)]
            for v in values:
                if not here:
                    outs: Sequence[tuple] = (states,)
                else:
                    outs = _moved(states, v, here, k, moves, last, accepting)
                for out in outs:
                    key = (k + 1, out)
                    target = number.get(key)
                    if target is None:
                        target = number[key] = len(number)
                        found[out] = None
                    transitions.append((source, v, target))
        if len(number) > MAX_PRODUCT_STATES:
            return None
        layer = list(found)
    end = len(line)
    return Automaton(0, frozenset(number[(end, s)] for s in layer), tuple(transitions))


def _moved(states: tuple, v: int, here: list[int], k: int, moves, last, accepting) -> list:
    """The parts' states after reading v at position k (the parts in `here` read it)."""
    if len(here) == 1:
        i = here[0]
        nxt = moves[i].get((states[i], v), ())
        if k == last[i]:  # the part's last cell: it must accept here
            return [states[:i] + (_DONE,) + states[i + 1:]] if accepting[i].intersection(nxt) \
                else []
        return [states[:i] + (t,) + states[i + 1:] for t in nxt]
    options: list[Sequence] = [[s] for s in states]
    for i in here:
        nxt = moves[i].get((states[i], v), ())
        if k == last[i]:
            nxt = (_DONE,) if accepting[i].intersection(nxt) else ()
        if not nxt:
            return []
        options[i] = nxt
    return list(itertools.product(*options))


class _TooLarge(Exception):
    """`along`'s exploration passed its bound."""
