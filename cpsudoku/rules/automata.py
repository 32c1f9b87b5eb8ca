"""The automata of the line rules, one builder per language, each remembered per size and parameter.

States are small Python values (the last digit, the classes of the last two
digits, the sum so far) that `Automaton.build` numbers. A language that is
"every run of k cells fits" says so (`window=k`), so that backends without a
regular constraint get tables over runs of k cells.
"""

from __future__ import annotations

from functools import cache

from ..grid.automaton import Automaton


def _values(size: int) -> range:
    return range(1, size + 1)


@cache
def adjacent(size: int, relation: str, parameter: int = 0) -> Automaton:
    """Every two neighbours on the line are related: `differ-by` (whispers: by at least
    `parameter`), `parity` (one odd, one even) or `not-less` (slow thermometers).
    The state is the last digit (0 before the first)."""
    fits = {
        "differ-by": lambda a, b: abs(a - b) >= parameter,
        "parity": lambda a, b: (a - b) % 2 == 1,
        "not-less": lambda a, b: b >= a,
    }[relation]
    return Automaton.build(0, lambda last, v: v if not last or fits(last, v) else None,
                           lambda last: True, _values(size), window=2)


@cache
def distinct_classes(size: int, span: int, classes: tuple[int, ...]) -> Automaton:
    """Every `span` consecutive digits fall in different classes (`classes[v-1]` is the
    class of v): entropic lines (thirds), modular lines (residues). The state is the
    classes of the last span-1 digits."""
    def step(recent: tuple[int, ...], v: int):
        k = classes[v - 1]
        if k in recent:
            return None
        return (recent + (k,))[-(span - 1):] if span > 1 else ()

    return Automaton.build((), step, lambda recent: True, _values(size), window=span)


@cache
def segment_sums(size: int, total: int) -> Automaton:
    """The line splits into segments that each sum to `total`. The state is the sum
    of the segment so far; reaching the total closes the segment."""
    def step(partial: int, v: int):
        reached = partial + v
        if reached > total:
            return None
        return 0 if reached == total else reached

    return Automaton.build(0, step, lambda partial: partial == 0, _values(size))


@cache
def looped_segment_sums(size: int, total: int, length: int) -> Automaton:
    """A closed line of `length` cells (its last cell touches its first) splits into
    segments that each sum to `total`; one segment may run over the join. Reading from
    the first cell, the cells before the first cut (the head) close the segment still
    open at the end; where the first cut falls is unknown while reading, so every cut
    still possible is followed at once: the state is the head's sum while it is below
    the total (None after), the line's sum modulo the total, and the open segment's sum
    under each surviving guess (guesses reaching the same sum share their future). A
    guess ends right when the whole line's sum is a multiple of the total: then its
    open segment and its head add up to the total. Those sets can still grow with the
    line, so only the states of `length` cells are built."""
    def step(state, v: int):
        head, line, opens = state
        out = {o + v if o + v < total else 0 for o in opens if o + v <= total}
        head = head + v if head is not None and head + v < total else None
        if head is not None:
            out.add(0)  # a first cut right after this cell
        if not out:
            return None
        return head, (line + v) % total, frozenset(out)

    return Automaton.build((0, 0, frozenset({0})), step, lambda state: state[1] == 0,
                           _values(size), longest=length)
