"""The regular constraint: its automaton, its decomposition and the native propagator,
each against brute force over small hand-made and random automata."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsudoku.engine.automaton import RegularPass
from cpsudoku.engine.plan import mask_of, structure_of, values_of
from cpsudoku.errors import BackendError
from cpsudoku.grid.automaton import Automaton
from cpsudoku.grid.constraints import Regular

SIZE = 4  # values 1..4, lines on a 4x4 grid


@st.composite
def automata(draw):
    states = draw(st.integers(1, 4))
    transitions = draw(st.lists(st.tuples(st.integers(0, states - 1), st.integers(1, SIZE),
                                          st.integers(0, states - 1)), max_size=24))
    accepting = draw(st.frozensets(st.integers(0, states - 1)))
    return Automaton(0, accepting, tuple(transitions))


@st.composite
def domains(draw, length):
    return [draw(st.frozensets(st.integers(1, SIZE), min_size=1)) for _ in range(length)]


def brute_support(automaton, doms):
    """Per position, the values on some accepted word (None: no word at all)."""
    words = [w for w in itertools.product(*map(sorted, doms)) if automaton.accepts(w)]
    if not words:
        return None
    return [frozenset(w[i] for w in words) for i in range(len(doms))]


def run_pass(automaton, doms):
    """The propagator on cells 0..len-1 of a 4x4 grid: the narrowed domains, or None."""
    con = Regular(tuple(range(len(doms))), automaton=automaton)
    prop = RegularPass(con, structure_of(SIZE, ()))
    cands = [mask_of(d) for d in doms] + [mask_of(range(1, SIZE + 1))] * (16 - len(doms))
    grid = [0] * 16
    ok = prop.propagate(cands, grid, lambda c, new: cands.__setitem__(c, new))
    if not ok:
        return None
    return [frozenset(values_of(cands[c])) for c in range(len(doms))]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_pass_is_domain_consistent(data):
    automaton = data.draw(automata())
    doms = data.draw(domains(data.draw(st.integers(1, 4))))
    expected = brute_support(automaton, doms)
    got = run_pass(automaton, doms)
    if expected is None:
        assert got is None
    else:
        assert got == expected


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_deterministic_equivalent_and_paths(data):
    automaton = data.draw(automata())
    dfa = automaton.deterministic()
    assert dfa.is_deterministic
    for length in range(4):
        for word in itertools.product(range(1, SIZE + 1), repeat=length):
            assert dfa.accepts(word) == automaton.accepts(word)
    doms = data.draw(domains(3))
    words = automaton.words(doms, 1000)
    assert words == sorted(w for w in itertools.product(*map(sorted, doms))
                           if automaton.accepts(w))


@settings(max_examples=200, deadline=None)
@given(automata(), st.integers(0, 4), st.frozensets(st.integers(1, SIZE)))
def test_fits_is_some_accepted_word(automaton, length, values):
    some = any(automaton.accepts(w) for w in itertools.product(sorted(values), repeat=length))
    assert automaton.fits(length, values) == some
    assert automaton.fits(length, values) == some  # asked again: the remembered answer


def test_explore_lists_every_next_state():
    # a guess made on the first value: "the last value repeats the first", with
    # the first as two branches (repeat it, or not yet)
    def successors(state, v):
        if state == "start":
            return [("first", v), ("done", v)]
        return [state] if state[0] == "first" else []

    nfa = Automaton.explore("start", successors, lambda s: s != "start" and s[0] == "done",
                            range(1, SIZE + 1))
    assert not nfa.is_deterministic
    assert nfa.accepts([3]) and not nfa.accepts([3, 1]) and not nfa.accepts([])


@settings(max_examples=100, deadline=None)
@given(st.lists(automata(), min_size=1, max_size=3))
def test_union_accepts_what_any_part_accepts(parts):
    from cpsudoku.grid.constraints import union
    joined = union(parts)
    for length in range(4):
        for word in itertools.product(range(1, SIZE + 1), repeat=length):
            assert joined.accepts(word) == any(a.accepts(word) for a in parts)


@settings(max_examples=150, deadline=None)
@given(automata())
def test_reversed_reads_the_words_backwards(automaton):
    back = automaton.reversed()
    for length in range(4):
        for word in itertools.product(range(1, SIZE + 1), repeat=length):
            assert back.accepts(word[::-1]) == automaton.accepts(word)


def whisper(difference: int) -> Automaton:
    """State: the last value (0 at the start)."""
    return Automaton.build(0, lambda last, v: v if not last or abs(v - last) >= difference
                           else None, lambda s: True, range(1, SIZE + 1), window=2)


def test_hand_made_whisper_on_four_values():
    # |a - b| >= 2 on 1..4: a 3 forces its neighbours to 1, a middle 2 forces 4 both sides
    assert run_pass(whisper(2), [{1, 2, 3, 4}, {3}, {1, 2, 3, 4}]) == [{1}, {3}, {1}]
    assert run_pass(whisper(2), [{2, 3}, {2, 3}]) is None
    assert run_pass(whisper(3), [{1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3, 4}]) == [
        {1, 4}, {1, 4}, {1, 4}]


def test_counter_states_sum_segments():
    # sum so far, reset on reaching 5: words split into segments summing to 5
    seg = Automaton.build(0, lambda s, v: (s + v) % 5 if s + v <= 5 else None,
                          lambda s: s == 0, range(1, SIZE + 1))
    assert seg.states == 5
    assert seg.accepts((1, 4, 2, 3)) and seg.accepts((4, 1)) and not seg.accepts((4, 2))
    full = {1, 2, 3, 4}
    assert run_pass(seg, [full, {4}, full]) is None  # 1 + 4, then one cell cannot make 5
    assert run_pass(seg, [full, {4}, {2, 3}, full]) == [{1}, {4}, {2, 3}, {2, 3}]


@pytest.mark.parametrize("difference", [1, 2, 3])
def test_window_decomposition_is_exact(difference):
    automaton = whisper(difference)
    con = Regular((0, 1, 2, 3), automaton=automaton)
    full = frozenset(range(1, SIZE + 1))
    doms = [full, frozenset({1, 2, 4}), full, full]
    pieces = con.decompose(doms)
    assert all(len(p.cells) == 2 for p in pieces) and len(pieces) == 3
    for word in itertools.product(*map(sorted, doms)):
        by_pieces = all(tuple(word[c] for c in p.cells) in p.tuples for p in pieces)
        assert by_pieces == con.holds(word)


def test_decomposition_without_window_lists_words_or_refuses():
    seg = Automaton.build(0, lambda s, v: (s + v) % 5 if s + v <= 5 else None,
                          lambda s: s == 0, range(1, SIZE + 1))
    full = frozenset(range(1, SIZE + 1))
    [table] = Regular((0, 1, 2), automaton=seg).decompose([full] * 3)
    assert set(table.tuples) == {w for w in itertools.product(range(1, 5), repeat=3)
                                 if seg.accepts(w)}
    anything = Automaton.build(0, lambda s, v: 0, lambda s: True, range(1, 10))
    with pytest.raises(BackendError, match="too many to list"):
        Regular(tuple(range(9)), automaton=anything, label="line 1").decompose(
            [frozenset(range(1, 10))] * 9)
