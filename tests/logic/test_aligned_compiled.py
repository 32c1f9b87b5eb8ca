"""Aligned pair and triplet exclusion compiled and in Python: the same groups, the
same excluders, the same eliminations in the same order, on every grid the solving
of hard puzzles passes through."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cpsudoku.bench.hardest import read_rated
from cpsudoku.formats.read import parse_one
from cpsudoku.logic.solver import Solver
from cpsudoku.logic.techniques import aligned

pytestmark = [pytest.mark.unit,
              pytest.mark.skipif(aligned._aligned is None, reason="the search is not built")]

NESTED = read_rated(Path(__file__).parent / "data" / "se_nested.txt")


def _found(monkeypatch, state, degree, pure: bool):
    if pure:
        monkeypatch.setenv("CPSUDOKU_PURE_ALIGNED", "1")
    else:
        monkeypatch.delenv("CPSUDOKU_PURE_ALIGNED", raising=False)
    assert aligned.compiled() is not pure
    groups = aligned._pairs if degree == 2 else aligned._triples
    return [(tuple(c), list(e), list(x)) for c, e, x in aligned._found(state, degree, groups)]


def test_the_compiled_search_finds_the_python_groups(monkeypatch):
    # the grids of hard puzzles with candidates struck out at random: many cells of
    # two and three candidates, so many excluders
    rng = random.Random(3)
    compared = removing = 0
    for puzzle in [p for p, *_ in NESTED][:2]:
        start = Solver(parse_one(puzzle)).start()
        for _ in range(8):
            state = start.copy()
            for cell, mask in enumerate(state.cand):
                values = [v for v in range(1, 10) if mask >> (v - 1) & 1]
                for v in values[2:]:
                    if rng.random() < 0.45:
                        state.cand[cell] &= ~(1 << (v - 1))
            for degree in (2, 3):
                pure = _found(monkeypatch, state, degree, True)
                assert _found(monkeypatch, state, degree, False) == pure
                compared += 1
                removing += bool(pure)
    assert compared == 32 and removing > 20


def test_bad_tables_are_refused():
    with pytest.raises(ValueError, match="a peer row per cell"):
        aligned._aligned.aligned([3, 3], b"\0" * 4, b"", 2)
    with pytest.raises(ValueError, match="degree 2 or 3"):
        aligned._aligned.aligned([3], b"\0" * 8, b"", 4)
