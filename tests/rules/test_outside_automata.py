"""Outside-clue automata against their rules' definitions, word by word."""

from __future__ import annotations

import itertools

import pytest

from cpsudoku.rules import outside_automata as automata

pytestmark = pytest.mark.unit


def lunchbox_holds(word, total):
    """The digits between the smallest and the largest sum to the clue."""
    ends = sorted((word.index(min(word)), word.index(max(word))))
    return sum(word[ends[0] + 1:ends[1]]) == total


@pytest.mark.parametrize("length", [2, 3, 4, 5])
@pytest.mark.parametrize("total", [0, 2, 4, 7])
def test_lunchbox_accepts_exactly_its_words(length, total):
    size = 6
    nfa = automata.lunchbox(range(1, size + 1), total, length)
    for word in itertools.permutations(range(1, size + 1), length):
        assert nfa.accepts(word) == lunchbox_holds(word, total), word
    # the deterministic form CP-SAT and Choco take reads the same words
    dfa = nfa.deterministic()
    for word in itertools.permutations(range(1, size + 1), length):
        assert dfa.accepts(word) == nfa.accepts(word)


def skyscrapers_seen(word) -> int:
    """Buildings seen from the start: digits taller than every one before (0: none)."""
    seen, tallest = 0, 0
    for v in word:
        if v > tallest:
            seen, tallest = seen + 1, v
    return seen


@pytest.mark.parametrize("digits", [range(1, 7), range(0, 6)])
@pytest.mark.parametrize("length", [3, 4, 6])
def test_skyscraper_accepts_exactly_the_rows_that_show_the_clue(digits, length):
    # A row's digits differ: over such words the automaton is the rule, even where the
    # row holds fewer digits than there are (its tallest is then known to be high).
    for clue in range(1, length + 1):
        automaton = automata.skyscraper(digits, clue, length)
        for word in itertools.permutations(digits, length):
            assert automaton.accepts(word) == (skyscrapers_seen(word) == clue), (clue, word)
