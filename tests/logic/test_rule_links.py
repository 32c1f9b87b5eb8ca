"""Chains through the variant rules: a rule's weak links (two candidates it forbids
together) join the chain graph and the forcing chains' propagation, the steps name the
rule where they use one, and every step stays sound; a classic grid has none."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsudoku import solve
from cpsudoku.formats.read import parse
from cpsudoku.formats.sources import read_puzzles
from cpsudoku.logic.links import rule_links
from cpsudoku.logic.state import State
from cpsudoku.logic.techniques import chains
from cpsudoku.logic.techniques.forcing import Chaining, ForcingSearch

pytestmark = pytest.mark.unit

VARIANTS = Path(__file__).resolve().parents[2] / "examples" / "variants"

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284" \
           "287419635345286179"
A, B, C = 14, 6, 5  # r2c6, r1c7, r1c6: a thermometer from r2c6 to r1c7 (no peers)
# r2c6 is 5 (or 8), r1c7 is 9 (or 6), r1c6 is 8 (or 9): r2c6=8 -> r1c7<>6 through the
# thermometer (8 is not below 6) -> r1c7=9 -> r1c6<>9 -> r1c6=8 -> r2c6<>8. Without
# the thermometer's link no chain removes a candidate here.
CANDIDATES = {A: (5, 8), B: (9, 6), C: (8, 9)}


def _bits(values) -> int:
    return sum(1 << (v - 1) for v in values)


@pytest.fixture
def thermo():
    grid = "".join("." if i in CANDIDATES else ch for i, ch in enumerate(SOLUTION))
    rows = "\n".join(grid[r * 9:r * 9 + 9] for r in range(9))
    text = f'name = "thermo"\nsize = 9\ngrid = """\n{rows}\n"""\n' \
           f'thermometers = [["r2c6", "r1c7"]]\n'
    puzzle = parse(text, source="thermo.toml")[0]
    state = State.start(puzzle)
    for cell, values in CANDIDATES.items():  # wider than the houses leave: a chain's work
        state.cand[cell] = _bits(values)
    solution = solve(puzzle).solution
    assert "".join(map(str, solution)) == SOLUTION
    return state, solution


def assert_sound(steps, solution):
    assert steps
    for step in steps:
        for cell, value in step.placements:
            assert solution[cell] == value, step.text
        for cell, value in step.eliminations:
            assert solution[cell] != value, step.text


def test_a_rule_forbids_pairs_of_candidates(thermo):
    state, solution = thermo
    links = rule_links(state)
    assert links.label[((A, 8), (B, 6))] == links.label[((B, 6), (A, 8))]
    assert links.label[((A, 8), (B, 6))].startswith("thermometer")
    assert (B, 6) in links.of((A, 8)) and (B, 6) not in links.of((A, 8), same_value=True)
    assert (A, 5) not in links.weak  # 5 is below both of r4c3's candidates
    for (a, b) in links.label:  # never both true
        assert not (solution[a[0]] == a[1] and solution[b[0]] == b[1])


def test_a_classic_grid_has_no_rule_links():
    state = State.start(parse("." * 81)[0])
    assert not rule_links(state)
    assert chains.graph(state, True).rules is rule_links(state)


def test_the_forcing_chain_goes_through_the_thermometer_and_names_it(thermo, monkeypatch):
    state, solution = thermo
    found = chains.forcing_chain_paths(state, True, 7.0, "Forcing Chain")
    steps = [f.step() for f in found]
    assert_sound(steps, solution)
    # every chain here goes through one of the thermometer's links (weak, or strong:
    # r2c6<>5 -> r1c7=9): without them there is none
    assert all("[thermometer" in s.text for s in steps), [s.text for s in steps]
    assert any(s.eliminations == [(A, 8)] for s in steps)
    # the C searches know no rule links: the Python ones answer, either way the same
    monkeypatch.setenv("CPSUDOKU_PURE_CHAINS", "1")
    chains._GRAPHS.clear()
    pure = [f.step().text for f in chains.forcing_chain_paths(state, True, 7.0,
                                                              "Forcing Chain")]
    assert pure == [s.text for s in steps]


def test_without_the_link_no_chain_is_found(thermo, monkeypatch):
    state, _ = thermo
    from cpsudoku.logic import links
    monkeypatch.setattr(chains, "rule_links", lambda state: links.Links())
    chains._GRAPHS.clear()
    assert not chains.forcing_chain_paths(state, True, 7.0, "Forcing Chain")
    chains._GRAPHS.clear()


def test_the_forcing_propagation_follows_the_rule(thermo):
    state, solution = thermo
    cons = Chaining(state, True, True).run((A, 8), True)
    assert cons.conflict is not None
    texts = " ".join(b.text for b in cons.conflict_branches(9))
    assert "[thermometer" in texts  # r1c7<>6 (weak) or r1c7=9 (strong), first reached
    steps = list(ForcingSearch(state, 8.5, True, True, True, False, "Dynamic ").steps())
    assert_sound(steps, solution)
    assert any("[thermometer" in line for s in steps for b in s.chain for line in b.lines())


def test_a_contradiction_names_the_rule_that_breaks(thermo):
    state, solution = thermo
    # r1c6<>8 -> r1c6=9 -> r1c7<>9 -> r1c7=6, and r1c6<>8 -> r2c6=8 (column 6) -> r1c7<>6
    # through the thermometer: r1c7 both 6 and not 6, whichever is reached first
    cons = Chaining(state, True, True).run((C, 8), False)
    assert cons.conflict is not None
    steps = list(ForcingSearch(state, 8.5, True, True, True, False, "Dynamic ").steps())
    assert_sound(steps, solution)
    assert cons.conflict_rule().startswith("thermometer")
    assert any(s.text.startswith("Contradiction Forcing Chain: r1c6<>8 leads to a "
                                 "contradiction in thermometer") for s in steps)


@pytest.mark.parametrize("name", ["killer-6x6.toml", "thermometer.toml", "whispers.toml",
                                  "kropki.toml", "arrow.toml", "renban.toml"])
def test_the_rule_links_of_the_examples_are_sound(name):
    puzzle = read_puzzles(str(VARIANTS / name))[0]
    solution = solve(puzzle).solution
    links = rule_links(State.start(puzzle))
    assert links, name
    for (a, b), label in links.label.items():
        assert label
        assert not (solution[a[0]] == a[1] and solution[b[0]] == b[1]), (name, a, b, label)


def test_the_chain_data_keeps_bare_literals(thermo):
    state, _ = thermo
    step = chains.forcing_chain_paths(state, True, 7.0, "Forcing Chain")[0].step()
    branch = step.chain[0]
    assert "[thermometer" in branch.text
    assert all("[" not in a and "[" not in b for a, b in branch.links)
    cons = Chaining(state, True, True).run((A, 8), True)
    for b in cons.conflict_branches(9):
        assert all("[" not in x and "[" not in y for x, y in b.links)
