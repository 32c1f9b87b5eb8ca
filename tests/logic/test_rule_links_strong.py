"""The rules' strong links (two candidates of which every completion of a rule holds
one) join the chains as a house's conjugate pairs do, named by the rule; a rule too
wide to enumerate still gives weak links through its sums' bounds and its automata's
layered graphs; every link holds against the solution."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsudoku import solve
from cpsudoku.formats.read import parse
from cpsudoku.formats.sources import read_puzzles
from cpsudoku.logic import links as links_mod
from cpsudoku.logic.links import Links, rule_links
from cpsudoku.logic.state import State
from cpsudoku.logic.techniques import chains
from cpsudoku.logic.techniques.forcing import Chaining

pytestmark = pytest.mark.unit

VARIANTS = Path(__file__).resolve().parents[2] / "examples" / "variants"

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284" \
           "287419635345286179"
A, B, C = 14, 6, 5  # r2c6, r1c7, r1c6: no two of r2c6 and r1c7 are peers


def _bits(values) -> int:
    return sum(1 << (v - 1) for v in values)


def _state(rule: str, candidates: dict[int, tuple[int, ...]]):
    grid = "".join("." if i in candidates else ch for i, ch in enumerate(SOLUTION))
    rows = "\n".join(grid[r * 9:r * 9 + 9] for r in range(9))
    text = f'name = "t"\nsize = 9\ngrid = """\n{rows}\n"""\n{rule}\n'
    puzzle = parse(text, source="t.toml")[0]
    state = State.start(puzzle)
    for cell, values in candidates.items():  # wider than the houses leave: a chain's work
        state.cand[cell] = _bits(values)
    return state, solve(puzzle).solution


@pytest.fixture
def thermo():
    # r2c6 {5, 8} below r1c7 {9, 6}: r2c6<>5 -> r2c6=8 -> r1c7=9, so one of r2c6=5 and
    # r1c7=9 holds (a strong link), besides the weak link r2c6=8 - r1c7=6
    return _state('thermometers = [["r2c6", "r1c7"]]', {A: (5, 8), B: (9, 6), C: (8, 9)})


def _only_strong(state: State) -> Links:
    full = rule_links(state)
    out = Links()
    for (a, b), label in full.strong_label.items():
        out.add_strong(a, b, label)
    return out


def test_a_rule_gives_strong_links(thermo):
    state, solution = thermo
    links = rule_links(state)
    assert (B, 9) in links.strong[(A, 5)] and (A, 5) in links.strong[(B, 9)]
    assert links.strong_label[((A, 5), (B, 9))].startswith("thermometer")
    for (a, b) in links.strong_label:  # never both false
        assert solution[a[0]] == a[1] or solution[b[0]] == b[1]


def test_a_chain_needs_the_strong_link_and_names_it(thermo, monkeypatch):
    state, solution = thermo
    # with the thermometer's strong links only (its weak ones taken away) a chain is found
    monkeypatch.setattr(chains, "rule_links", _only_strong)
    chains._GRAPHS.clear()
    steps = [f.step() for f in chains.forcing_chain_paths(state, True, 7.0, "Forcing Chain")]
    assert steps
    for step in steps:
        for cell, value in step.placements:
            assert solution[cell] == value, step.text
        for cell, value in step.eliminations:
            assert solution[cell] != value, step.text
    # the strong link is named at the candidate it turns on
    assert all("=9 [thermometer" in s.text or "=5 [thermometer" in s.text for s in steps), \
        [s.text for s in steps]
    # the chain data keeps the bare literals
    assert all("[" not in a and "[" not in b for s in steps for a, b in s.chain[0].links)
    # with no rule link at all, none
    monkeypatch.setattr(chains, "rule_links", lambda state: Links())
    chains._GRAPHS.clear()
    assert not chains.forcing_chain_paths(state, True, 7.0, "Forcing Chain")
    chains._GRAPHS.clear()


def test_a_cage_that_must_hold_a_digit_gives_a_strong_link():
    # a cage of 17 over r1c1 {5, 1, 9}, r5c6 {3, 1, 2}, r9c9 {9, 5, 6} (no two peers):
    # its completions 5+3+9, 9+2+6, 9+3+5 all hold 9 in r1c1 or r9c9, and leave r1c1
    # only 5 or 9 (its 1 has none)
    cage = '[[cages]]\ncells = ["r1c1", "r5c6", "r9c9"]\nsum = 17'
    state, solution = _state(cage, {0: (5, 1, 9), 41: (3, 1, 2), 80: (9, 5, 6)})
    links = rule_links(state)
    assert (80, 9) in links.strong[(0, 9)]
    assert (0, 9) in links.strong[(0, 5)]  # a bivalue within the cage
    assert (0, 1) not in links.strong  # no completion holds it: the cage's own step
    for (a, b), label in links.strong_label.items():
        assert "17" in label, label
        assert solution[a[0]] == a[1] or solution[b[0]] == b[1], (a, b)
    for (a, b) in links.label:
        assert not (solution[a[0]] == a[1] and solution[b[0]] == b[1]), (a, b)


def test_the_propagation_follows_a_strong_link(thermo, monkeypatch):
    state, _ = thermo
    monkeypatch.setattr("cpsudoku.logic.techniques.forcing.rule_links", _only_strong)
    cons = Chaining(state, True, True).run((A, 5), False)
    assert (B, 9) in cons.on
    texts = cons.branch((B, 9), True, 9).text
    assert "r1c7=9 [thermometer" in texts


EXAMPLES = ["killer.toml", "killer-6x6.toml", "little-killer.toml", "renban.toml",
            "whispers.toml", "thermometer.toml", "arrow.toml", "sandwich.toml",
            "x-sums.toml", "kropki.toml", "between-lines.toml", "modular-lines.toml",
            "zipper-lines.toml", "sum-lines.toml", "palindromes.toml"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_link_of_the_examples_is_sound(name):
    puzzle = read_puzzles(str(VARIANTS / name))[0]
    solution = solve(puzzle).solution
    state = State.start(puzzle)
    links = rule_links(state)
    for (a, b), label in links.label.items():
        assert label
        assert not (solution[a[0]] == a[1] and solution[b[0]] == b[1]), (name, a, b, label)
    for (a, b), label in links.strong_label.items():
        assert label
        assert solution[a[0]] == a[1] or solution[b[0]] == b[1], (name, a, b, label)


@pytest.mark.parametrize("name", ["sandwich.toml", "x-sums.toml", "killer.toml",
                                  "little-killer.toml"])
def test_wide_rules_give_sound_weak_links(name):
    puzzle = read_puzzles(str(VARIANTS / name))[0]
    solution = solve(puzzle).solution
    state = State.start(puzzle)
    found = []
    for _label, cons, _cells in links_mod._groups(state.layout):
        found += links_mod._wide_links(state, cons)
    assert found, name
    for a, b in found:
        assert state.cand[a[0]] >> (a[1] - 1) & 1 and state.cand[b[0]] >> (b[1] - 1) & 1
        assert not (solution[a[0]] == a[1] and solution[b[0]] == b[1]), (name, a, b)


def test_a_sum_forbids_pairs_by_its_bounds():
    # a cage of 18 over r1c1..r1c4 (5, 3, 4, 6), every cell left 1..9: 9 and 8 leave 1 to
    # two different digits, 1 and 2 leave 15 (6 + 9 ...)
    cage = '[[cages]]\ncells = ["r1c1", "r1c2", "r1c3", "r1c4"]\nsum = 18'
    state, solution = _state(cage, {c: tuple(range(1, 10)) for c in range(4)})
    con = next(c for c in state.layout.rules if c.kind == "sum")
    pairs = links_mod._sum_links(state, con)
    assert ((0, 9), (1, 8)) in pairs and ((0, 1), (1, 2)) not in pairs
    for a, b in pairs:
        assert not (solution[a[0]] == a[1] and solution[b[0]] == b[1]), (a, b)
