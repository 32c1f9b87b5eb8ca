"""Outside-clue automata against their rules' definitions, word by word."""

from __future__ import annotations

import itertools

import pytest

from cpsudoku.rules import outside_automata as automata


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
