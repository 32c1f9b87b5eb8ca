"""The C chain core follows the variant rules' links as the Python propagation does: on
ISS's example variants (shipped with the package), every assumption's consequences
(what turns on and off, from what, the conflict, the causes) are the same either way,
for the single-value and the all-value chains, static and dynamic."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import same_graph_searches

from cpsudoku.formats import iss
from cpsudoku.logic import chaincore
from cpsudoku.logic.solver import Solver
from cpsudoku.logic.state import bit_values
from cpsudoku.logic.techniques import forcing
from cpsudoku.logic.techniques.chains import Graph

pytestmark = pytest.mark.skipif(not chaincore.available(), reason="the C chain core is not built")

DATA = Path(__file__).parents[2] / "cpsudoku" / "bench" / "data" / "iss_puzzles.json"


def _state(name: str):
    puzzles = json.loads(DATA.read_text(encoding="utf-8"))["puzzles"]
    entry = next(e for e in puzzles if e["set"] == "examples" and e["name"] == name)
    solver = Solver(iss.from_string(entry["input"], source=name))
    state = solver.start()
    list(solver.run(state, limit=20))  # a grid the rules have worked on
    return state


@pytest.mark.parametrize("name", ["Arrow", "Killer", "Thermo", "XV Kropki Sudoku"])
@pytest.mark.parametrize("y, dynamic", [(True, True), (False, True), (True, False)])
def test_rule_links_propagate_the_same_in_c_and_python(name, y, dynamic):
    state = _state(name)
    chaining = forcing.Chaining(state, y=y, dynamic=dynamic)
    assert chaining.links and chaining.tables is not None and chaining.link_tables
    lits = [(c, v) for c, m in enumerate(state.cand) if m for v in bit_values(m)]
    for lit in random.Random(7).sample(lits, min(30, len(lits))):
        for on in (True, False):
            compiled = chaining._run(lit, on)
            tables, chaining.tables = chaining.tables, None
            python = chaining._run(lit, on)
            chaining.tables = tables
            assert compiled.on == python.on and compiled.off == python.off
            assert compiled.causes == python.causes
            assert (compiled.conflict is None) == (python.conflict is None)
            assert compiled.rule_of is python.rule_of


def test_link_tables_are_read_by_size():
    with pytest.raises(ValueError, match="link tables"):
        chaincore._chaincore.propagate(0, True, [1] * 16, [0] * 48, 4, *([b""] * 10),
                                       chaincore.literals(4), True, True, None, None, False,
                                       b"", b"", b"", b"")


def _pure(monkeypatch, on: bool) -> None:
    if on:
        monkeypatch.setenv("CPSUDOKU_PURE_CHAINS", "1")
    else:
        monkeypatch.delenv("CPSUDOKU_PURE_CHAINS", raising=False)


@pytest.mark.parametrize("name", ["Arrow", "Killer", "Thermo", "XV Kropki Sudoku",
                                  "The Zip that Zips the Zips"])
@pytest.mark.parametrize("y,x", [(True, True), (False, True), (True, False)])
def test_the_compiled_graph_follows_the_rules_links_as_the_python_one(monkeypatch, name,
                                                                      y, x):
    state = _state(name)
    compiled, python = Graph(state, y, x), Graph(state, y, x)
    assert compiled.rules and compiled.tables() is not None
    _pure(monkeypatch, True)
    assert python.tables() is None
    _pure(monkeypatch, False)
    same_graph_searches(compiled, python, lambda on: _pure(monkeypatch, on))
    ruled = sum(any(python.link_text(src, off) for off in python.weak[src])
                for src in python.ons)
    # (a cage's links of one value are its no-repeat, the peers' already)
    assert ruled or not (x and y), "some candidates have weak links through a rule"


def test_rule_link_tables_for_the_graph_are_checked():
    lay = chaincore._layout_tables
    state = _state("Arrow")
    weak_start = bytes(4 * (9 ** 3 + 1))
    with pytest.raises(ValueError, match="wrong size"):
        chaincore._chaincore.reach_tables(state.cand, 9, *lay(state.layout), True, True,
                                          weak_start, b"", weak_start[:-4], b"")
    bad = chaincore.flat([[9 ** 3]] + [[]] * (9 ** 3 - 1))  # a literal past the grid
    with pytest.raises(ValueError, match="wrong size"):
        chaincore._chaincore.reach_tables(state.cand, 9, *lay(state.layout), True, True,
                                          *bad, *bad)
