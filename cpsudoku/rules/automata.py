"""The automata of the line rules, one builder per language, each remembered per
alphabet and parameter.

Each reads digits (`Geometry.digits`: 1..N, or 0..N-1, or more digits than a row has
cells). States are small Python values (the last digit, the classes of the last two
digits, the sum so far) that `Automaton.build` numbers; none stands for "nothing read"
with a digit, as 0 may be one. A language that is "every run of k cells fits" says so
(`window=k`), so that backends without a regular constraint get tables over runs of k
cells.
"""

from __future__ import annotations

from functools import cache

from ..grid.automaton import Automaton


@cache
def adjacent(digits: range, relation: str, parameter: int = 0) -> Automaton:
    """Every two neighbours on the line are related: `differ-by` (whispers: by at least
    `parameter`), `parity` (one odd, one even) or `not-less` (slow thermometers).
    The state is the last digit (None before the first)."""
    fits = {
        "differ-by": lambda a, b: abs(a - b) >= parameter,
        "parity": lambda a, b: (a - b) % 2 == 1,
        "not-less": lambda a, b: b >= a,
    }[relation]
    return Automaton.build(None, lambda last, v: v if last is None or fits(last, v) else None,
                           lambda last: True, digits, window=2)


@cache
def distinct_classes(digits: range, span: int, classes: tuple[int, ...]) -> Automaton:
    """Every `span` consecutive digits fall in different classes (`classes[i]` is the
    class of the i-th digit, from 0): entropic lines (thirds), modular lines (residues).
    The state is the classes of the last span-1 digits."""
    def step(recent: tuple[int, ...], v: int):
        k = classes[v - digits[0]]
        if k in recent:
            return None
        return (recent + (k,))[-(span - 1):] if span > 1 else ()

    return Automaton.build((), step, lambda recent: True, digits, window=span)


@cache
def segment_sums(digits: range, total: int) -> Automaton:
    """The line splits into segments that each sum to `total`. The state is the sum
    of the segment so far; reaching the total closes the segment."""
    def step(partial: int, v: int):
        reached = partial + v
        if reached > total:
            return None
        return 0 if reached == total else reached

    return Automaton.build(0, step, lambda partial: partial == 0, digits)


@cache
def looped_segment_sums(digits: range, total: int, length: int) -> Automaton:
    """A closed line of cells (its last cell touches its first) splits into segments
    that each sum to `total`; one segment may run over the join. Nondeterministic: the
    first cell guesses the sum h of the cells before the first cut (the head, 0 to
    total - 1); the head is read to h, then whole segments, and the word ends with an
    open segment of total - h (nothing open when h is 0), which the head closes. A
    state is (h, the head's sum so far, or None once cut; the open segment's sum):
    O(total^2) states whatever the length (`length` is kept for the callers' cache)."""
    def one(state, v: int):
        h, head, open_ = state
        if head is not None:
            head += v
            if head < h:
                return (h, head, 0)
            return (h, None, 0) if head == h else None
        open_ += v
        if open_ > total:
            return None
        return (h, None, 0 if open_ == total else open_)

    starts = [(0, None, 0)] + [(h, 0, 0) for h in range(1, total)]

    def successors(state, v: int):
        alive = starts if state == "start" else (state,)
        return [x for x in (one(g, v) for g in alive) if x is not None]

    def accept(state):
        return state != "start" and state[1] is None and (
            state[2] == (total - state[0]) % total)

    return Automaton.explore("start", successors, accept, digits)
