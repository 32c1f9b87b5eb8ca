"""The automata of the outside clues, read from the clue's side along a row or column.

Each is the classic CP encoding of its clue: the states count only what the clue
needs (sandwich: before the first of the two ends, the digits between, after;
skyscraper: the tallest so far and how many were seen; x-sum: cells still to add
and the sum so far), so they stay small: at most 258 states for a sandwich, 283 for an
x-sum and 46 for a skyscraper on 9x9; 240, 1,788 and 137 on 16x16. Every builder is
remembered per alphabet and clue.

Each reads digits (`Geometry.digits`: 1..N, 0..N-1, or more digits than a row has
cells): a count read from a digit (x-sums, numbered rooms, value indexing) is the digit
itself, so a 0 counts no cell and cannot be one; "nothing read yet" is never a digit.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

from ..grid.automaton import Automaton, Transition

_DONE = "done"  # the clue is met; any digits may follow


def _after_done(step):
    """A step function that lets anything follow once the clue is met."""
    def wrapped(state, v):
        return _DONE if state == _DONE else step(state, v)
    return wrapped


@cache
def sandwich(digits: range, total: int) -> Automaton:
    """The digits between the smallest and the largest digit (the crusts: 1 and 9 on
    9x9), first met either way, sum to `total`. States: before, (opener, the digits
    between so far as bits, their sum) between the two, and done. The digits between
    differ (the row's are all different), so a sum no different digits make is refused
    here, not only by the row (ISS's Sandwich snipe 18: 106,229 nodes and 5.2 s to
    10,598 and 2.0 s); past SET_DIGITS digits between the crusts the state keeps only
    their sum, which stays small on 16x16. Up to 258 states a clue on 9x9: cut from
    one layout per alphabet (`_sandwich_sets`): eighteen clues on 9x9 in 1.4 ms, the
    layout included, where each built by its own search took 0.7 ms."""
    ends = (digits[0], digits[-1])
    as_set = ends[1] - ends[0] - 1 <= SET_DIGITS
    if as_set:
        return _sandwich_sets(digits).cut(total)

    def moves(state):
        for v in digits:
            if state == "before":
                yield v, (v, 0, 0) if v in ends else state
            elif state == _DONE:
                yield v, _DONE
            else:
                opener, held, partial = state
                if v == opener:
                    continue
                if v in ends:
                    if partial == total:
                        yield v, _DONE
                elif partial + v <= total:
                    yield v, (opener, 0, partial + v)

    return _searched("before", moves, lambda state: state == _DONE)


SET_DIGITS = 7  # the digits between a sandwich's crusts on 9x9: kept as a set up to this


@dataclass(frozen=True)
class _SandwichSets:
    """Every sandwich automaton of one alphabet that keeps its digits between as a set,
    laid out once: state 0 before the crusts, 1 done, then (opener, set) ordered by the
    set's sum, so a total's states are the first `upto[total]`, and its moves are the
    fixed ones, those into sets of sum at most the total, and those out of sets of sum
    exactly the total into done."""

    fixed: tuple[Transition, ...]
    into: tuple[tuple[Transition, ...], ...]   # by the target set's sum
    closing: tuple[tuple[Transition, ...], ...]  # by the closed set's sum
    upto: tuple[int, ...]                       # by total: the states it keeps

    def cut(self, total: int) -> Automaton:
        if total >= len(self.upto):
            return Automaton(0, frozenset(), ())  # more than the digits between can make
        return Automaton(0, frozenset([1]), tuple(itertools.chain(
            self.fixed, *self.into[:total + 1], self.closing[total])))


@cache
def _sandwich_sets(digits: range) -> _SandwichSets:
    ends = (digits[0], digits[-1])
    inner = [v for v in digits if v not in ends]
    sums = [0] * (1 << len(inner))  # per set of the digits between (bit k: inner[k])
    for b in range(1, len(sums)):
        low = b & -b
        sums[b] = sums[b ^ low] + inner[low.bit_length() - 1]
    sets = sorted(range(len(sums)), key=lambda b: (sums[b], b))
    number = {(o, b): 2 + 2 * k + side for k, b in enumerate(sets)
              for side, o in enumerate(ends)}
    fixed = [(0, v, number[(v, 0)] if v in ends else 0) for v in digits]
    fixed += [(1, v, 1) for v in digits]
    into: list[list[Transition]] = [[] for _ in range(sums[-1] + 1)]
    closing: list[list[Transition]] = [[] for _ in range(sums[-1] + 1)]
    for k, b in enumerate(sets):
        for side, o in enumerate(ends):
            source = 2 + 2 * k + side
            for v in digits:
                if v == o:
                    continue
                if v in ends:
                    closing[sums[b]].append((source, v, 1))
                    continue
                bit = 1 << inner.index(v)
                if not b & bit:
                    into[sums[b | bit]].append((source, v, number[(o, b | bit)]))
    kept = [0] * (sums[-1] + 1)
    for b in sets:
        kept[sums[b]] += 2
    upto = tuple(itertools.accumulate(kept, initial=2))[1:]
    return _SandwichSets(tuple(fixed), tuple(map(tuple, into)), tuple(map(tuple, closing)),
                         upto)


@cache
def x_sum(digits: range, total: int) -> Automaton:
    """The first X digits sum to `total`, X the first digit (it counts itself, so it is
    1 at least). States: (digits still to add, sum so far)."""
    def step(state, v):
        if state == ("start",):
            if v < 1:
                return None
            left, partial = v - 1, v
        else:
            left, partial = state[0] - 1, state[1] + v
        if partial > total:
            return None
        if left == 0:
            return _DONE if partial == total else None
        return (left, partial)

    return Automaton.build(("start",), _after_done(step), lambda s: s == _DONE, digits)


@cache
def skyscraper(digits: range, seen: int, length: int = 0) -> Automaton:
    """Exactly `seen` digits are taller than every digit before them; a 0 is no building,
    never seen (as ISS reads 0-indexed skyscrapers). States: (tallest so far, None
    before the first; how many seen); once the tallest is the largest digit, nothing
    more is seen. A row's `length` digits differ, so the tallest is at least the
    length-th smallest digit: the automaton alone cannot see that, and knowing it
    prunes where the row holds fewer digits than there are (ISS's Buy Or Rent?
    (Skyscraper Version), 7 of 1..9: 2,358 nodes to 26) and keeps the largest digit
    in a full row."""
    lowest_top = digits[length - 1] if length else digits[0]

    def step(state, v):
        tallest, count = state
        if v < 1 or tallest is not None and v <= tallest:
            return state
        return (v, count + 1) if count + 1 <= seen else None

    return Automaton.build((None, 0), step, lambda s: s[1] == seen and s[0] is not None
                           and s[0] >= lowest_top, digits)


@cache
def numbered_room(digits: range, value: int) -> Automaton:
    """The Xth digit is `value`, X the first digit (1 at least). States: the cells still
    to pass before the Xth."""
    def step(state, v):
        if state == ("start",) and v < 1:
            return None
        left = v - 1 if state == ("start",) else state - 1
        if state == ("start",) and v == 1:
            return _DONE if v == value else None
        if left == 0:
            return _DONE if v == value else None
        return left

    return Automaton.build(("start",), _after_done(step), lambda s: s == _DONE, digits)


@cache
def hidden_skyscraper(digits: range, value: int) -> Automaton:
    """The first digit lower than one before it (the first hidden skyscraper) is
    `value`. States: the tallest so far (None before the first)."""
    def step(tallest, v):
        if tallest is None or v > tallest:
            return v
        return _DONE if v == value else None

    return Automaton.build(None, _after_done(step), lambda s: s == _DONE, digits)


@cache
def value_indexing(digits: range) -> Automaton:
    """Along a line: the second digit k (1 at least) says the kth cell after it holds
    the first digit. States: (first digit, cells still to pass)."""
    def step(state, v):
        if state == ("start",):
            return ("first", v)
        if state[0] == "first":
            return (state[1], v) if v >= 1 else None
        first, left = state
        if left == 1:
            return _DONE if v == first else None
        return (first, left - 1)

    return Automaton.build(("start",), _after_done(step), lambda s: s == _DONE, digits)


@cache
def lunchbox(digits: range, total: int, length: int) -> Automaton:
    """`length` different digits: those between the smallest and the largest sum to
    `total`. Nondeterministic: the first digit guesses the smallest and the largest
    (each guess wide enough to hold `length` different digits); a state is one guess
    (smallest, largest, the end met first or None, "both" once both are met; the sum
    since; the digits since, as bits). The digits between the ends differ from each other
    and from the first end, so a sum no different digits make is refused here, not
    only by the cells' all-different (ISS's Extreme Lunchbox: 36,930 nodes to 3,847);
    the digits before and after are left to it (tracking them too took 479 nodes
    but seven times the states)."""
    guesses = [(low, high, None, 0, 0) for low in digits
               for high in range(low + max(length, 2) - 1, digits[-1] + 1)]

    def moves(state):
        for v in digits:
            for guess in guesses if state == "start" else (state,):
                low, high, opener, partial, seen = guess
                if not low <= v <= high or seen >> v & 1:
                    continue
                if opener is None:
                    yield v, (low, high, v, 0, 1 << v) if v in (low, high) else guess
                elif opener == "both":  # both ends met
                    yield v, guess
                elif v in (low, high):
                    if partial == total:
                        yield v, (low, high, "both", 0, 0)
                elif partial + v <= total:
                    yield v, (low, high, opener, partial + v, seen | 1 << v)

    return _searched("start", moves, lambda g: g != "start" and g[2] == "both")


def _searched(start, moves, accept) -> Automaton:
    """The automaton of the states reachable from `start`, numbered breadth first as
    `Automaton.explore` numbers them; `moves(state)` yields its (digit, next state)
    moves in digit order. One generator a state, not a call a move: a sandwich clue
    on 9x9 took 2.3 ms with a step function called per move, 0.7 ms so; a lunchbox
    clue of 2 to 9 cells on 9x9 about a third of its time."""
    number = {start: 0}
    queue = [start]
    transitions = []
    for state in queue:  # the list grows as states are found
        source = number[state]
        for v, nxt in moves(state):
            if nxt not in number:
                number[nxt] = len(number)
                queue.append(nxt)
            transitions.append((source, v, number[nxt]))
    return Automaton(0, frozenset(i for state, i in number.items() if accept(state)),
                     tuple(transitions))
