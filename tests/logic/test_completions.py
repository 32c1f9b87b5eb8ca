"""A rule's completions, compiled and in Python: the same completions in the same order,
the same node limit, the same refusal past a number of completions, on the rule groups
of ISS's example puzzles with their candidates narrowed at random."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cpsudoku.formats import iss
from cpsudoku.grid.automaton import Automaton
from cpsudoku.grid.constraints import AllDifferent, Constraint, Less, Regular, Sum
from cpsudoku.logic import completions as C
from cpsudoku.logic.state import State, layout_of
from cpsudoku.logic.techniques.rules import rule_groups

pytestmark = [pytest.mark.unit,
              pytest.mark.skipif(C._completions is None, reason="the search is not built")]

DATA = Path(__file__).parents[2] / "cpsudoku" / "bench" / "data" / "iss_puzzles.json"
NAMES = ["Killer", "Arrow", "The Zip that Zips the Zips", "Thermo", "XV Kropki Sudoku",
         "German Whispers", "Little Killer Sudoku", "Regex line", "Skyscraper"]


def _groups():
    puzzles = json.loads(DATA.read_text(encoding="utf-8"))["puzzles"]
    out = []
    for name in NAMES:
        entry = next(e for e in puzzles if e["set"] == "examples" and e["name"] == name)
        puzzle = iss.from_string(entry["input"], source=name)
        layout = layout_of(puzzle)
        state = State.start(puzzle, layout)
        for label, cons in rule_groups(layout):
            cells = sorted({c for con in cons for c in con.cells})
            doms = [state.cand[c] or 1 << (state.values[c] - 1) for c in cells]
            out.append((f"{name}: {label}", cons, cells, doms))
    return out


def _run(monkeypatch, pure: bool, cons, cells, doms, node_limit=20_000, max_rows=None):
    if pure:
        monkeypatch.setenv("CPSUDOKU_PURE_COMPLETIONS", "1")
    else:
        monkeypatch.delenv("CPSUDOKU_PURE_COMPLETIONS", raising=False)
    assert C.compiled() is not pure
    rows: list[tuple[int, ...]] = []
    try:
        done = C.completions(cons, cells, doms, node_limit, lambda v: rows.append(tuple(v)),
                             max_rows)
    except C.TooMany:
        return "too many", None
    return done, (rows if done else None)


def test_the_compiled_search_finds_the_python_ones(monkeypatch):
    groups = _groups()
    kinds = {type(con) for _, cons, _, _ in groups for con in cons}
    assert {AllDifferent, Sum, Less}.issubset(kinds) and kinds - {AllDifferent, Sum, Less}
    rng = random.Random(7)
    outcomes = set()
    for what, cons, cells, doms in groups:
        for _ in range(2):
            narrowed = [(m & ~(1 << rng.randrange(9))) or m if rng.random() < 0.4 else m
                        for m in doms]
            pure = _run(monkeypatch, True, cons, cells, narrowed, max_rows=2_000)
            compiled = _run(monkeypatch, False, cons, cells, narrowed, max_rows=2_000)
            assert compiled == pure, what
            outcomes.add(pure[0])
    assert {True, "too many"} <= outcomes


def test_the_node_limit_and_the_row_limit_are_the_python_ones(monkeypatch):
    cage = (Sum(tuple(range(5)), total=25), AllDifferent(tuple(range(5))))
    doms = [0b111111111] * 5
    for limit in (10, 100, 1_000, 100_000):
        assert (_run(monkeypatch, True, cage, list(range(5)), doms, node_limit=limit)
                == _run(monkeypatch, False, cage, list(range(5)), doms, node_limit=limit))
    for rows in (0, 1, 50, 10_000):
        assert (_run(monkeypatch, True, cage, list(range(5)), doms, max_rows=rows)
                == _run(monkeypatch, False, cage, list(range(5)), doms, max_rows=rows))
    done, found = _run(monkeypatch, False, cage, list(range(5)), doms, node_limit=10**6)
    assert done and found and all(sum(r) == 25 and len(set(r)) == 5 for r in found)


class _Broken(Constraint):
    def holds(self, values):
        raise ValueError("no reading")


def test_a_rule_checked_by_its_own_holds_and_its_errors_pass_through(monkeypatch):
    even_sum = Regular((0, 1), automaton=_parity())
    done, rows = _run(monkeypatch, False, (even_sum,), [0, 1], [0b1111, 0b1111])
    assert done and rows == [(a, b) for a in range(1, 5) for b in range(1, 5)
                             if (a + b) % 2 == 0]
    monkeypatch.delenv("CPSUDOKU_PURE_COMPLETIONS", raising=False)
    with pytest.raises(ValueError, match="no reading"):
        C.completions((_Broken((0, 1)),), [0, 1], [0b11, 0b11], 100, lambda v: None)
    ordered = (Less((0, 1, 2)),)
    assert _run(monkeypatch, False, ordered, [0, 1, 2], [0b111] * 3) == (True, [(1, 2, 3)])


def _parity():
    # the sum so far, mod 2; accepted when even
    return Automaton.build(0, lambda s, v: (s + v) % 2, lambda s: s == 0, range(1, 10))
