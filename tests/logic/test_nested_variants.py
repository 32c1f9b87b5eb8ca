"""The 9.0 and nested levels off the classic grid: the plus rules read every house of
the layout (diagonals, windows, jigsaw regions), the propagation under an assumption
follows the variant rules' links, and a diagonal sudoku that needs these levels is
explained to the end, every step sound."""

from __future__ import annotations

import time
from itertools import islice

import pytest

from cpsudoku import solve
from cpsudoku.formats.read import parse, parse_one
from cpsudoku.logic.links import rule_links
from cpsudoku.logic.solver import Solver, apply
from cpsudoku.logic.state import State
from cpsudoku.logic.techniques import forcing, nested, plus, plusrules
from cpsudoku.logic.techniques.chains import Graph

SUDOKU_X = (".Diagonal~1.Diagonal~-1.~R1C3_1~R1C7_2~R2C3_2~R2C4_3~R2C9_4~R3C1_4~R4C1_5"
            "~R4C3_3~R4C8_6~R5C2_1~R5C9_5~R6C3_6~R7C5_7~R7C6_8~R8C5_9~R9C2_7~R9C6_1"
            "~R9C8_9")
DIAGONAL = [r * 9 + r for r in range(9)]


def _empty_x() -> State:
    return State.start(parse_one(".Diagonal~1.Diagonal~-1."))


def _strike(cand: list[int], cells, value: int = 1) -> None:
    for c in cells:
        cand[c] &= ~(1 << (value - 1))


def assert_sound(steps, solution) -> None:
    for step in steps:
        for cell, value in step.placements:
            assert solution[cell] == value, step.text
        for cell, value in step.eliminations:
            assert solution[cell] != value, step.text


def test_locked_candidates_between_a_diagonal_and_a_box():
    """1 left on the diagonal in box 1 only: it is there, so nowhere else in box 1."""
    state = _empty_x()
    layout = state.layout
    assert not layout.is_classic()
    cand = state.cand[:]
    _strike(cand, DIAGONAL[3:])
    found = plusrules.first_rule(layout, state.cand, cand)
    assert found == plusrules.locked_candidates(layout, state.cand, cand)
    box = {r * 9 + c for r in range(3) for c in range(3)}
    assert {lit for lit, _why in found} == {(c, 1) for c in box - set(DIAGONAL)}
    assert all(set(why) == {(c, 1) for c in DIAGONAL[3:]} for _lit, why in found)


def test_an_x_wing_on_the_diagonal_and_a_row():
    """1 on the diagonal at r1c1 or r9c9 only, on row 5 at r5c1 or r5c9 only: columns 1
    and 9 each have it at one of those, and nowhere else."""
    state = _empty_x()
    layout = state.layout
    cand = state.cand[:]
    _strike(cand, DIAGONAL[1:8])
    _strike(cand, range(37, 44))
    for rule in plusrules.RULES[:3]:  # nothing easier applies
        assert rule(layout, state.cand, cand) == []
    found = plusrules.first_rule(layout, state.cand, cand)
    columns = {r * 9 for r in range(9)} | {r * 9 + 8 for r in range(9)}
    assert {lit for lit, _why in found} == {(c, 1) for c in columns - {0, 80, 36, 44}}
    gone = {(c, 1) for c in DIAGONAL[1:8]} | {(c, 1) for c in range(37, 44)}
    assert all(set(why) == gone for _lit, why in found)
    # the C side knows rows and columns only: it leaves this grid to the Python rules
    assert plusrules.compiled_first_rule(layout, state.cand, cand) is None


def test_a_windoku_window_locks_a_value_in_a_row():
    state = State.start(parse_one(".Windoku."))
    layout = state.layout
    window = next(h for h in layout.houses if h.kind == "extra")
    row = sorted(window.cells)[:3]  # the window's top row
    cand = state.cand[:]
    _strike(cand, [c for c in window.cells if c not in row], 5)
    found = plusrules.first_rule(layout, state.cand, cand)
    assert found and {lit for lit, _why in found} == {
        (c, 5) for c in range(row[0] - row[0] % 9, row[0] - row[0] % 9 + 9) if c not in row}


def test_the_compiled_propagation_is_the_python_one_off_the_classic_grid(monkeypatch):
    """C propagation with its locked candidates and pairs over the layout's tables, then
    the Python X-wings, as the Python propagation does it all."""
    state = Solver(parse_one(SUDOKU_X)).start()

    def consequences(pure: bool):
        chaining = forcing.Chaining(state, True, True, plus=True)
        assert (chaining.tables is None) == pure
        return [(list(cons.on.items()), list(cons.off.items()), cons.conflict, cons.by_rule,
                 cons.causes) for lit in Graph(state, True).ons
                for cons in (chaining.run(lit, True), chaining.run(lit, False))]
    compiled = consequences(False)
    monkeypatch.setenv("CPSUDOKU_PURE_CHAINS", "1")
    assert consequences(True) == compiled
    assert any(by_rule for *_, by_rule, _causes in compiled)


THERMO_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284" \
                  "287419635345286179"


def _thermo(bulb: str = "") -> State:
    """A thermometer's link is the only way to a removal here (see test_rule_links);
    `bulb`, a filled cell to start it from."""
    solution = THERMO_SOLUTION
    cands = {14: (5, 8), 6: (9, 6), 5: (8, 9)}
    grid = "".join("." if i in cands else ch for i, ch in enumerate(solution))
    rows = "\n".join(grid[r * 9:r * 9 + 9] for r in range(9))
    text = f'name = "thermo"\nsize = 9\ngrid = """\n{rows}\n"""\n' \
           f'thermometers = [[{bulb}"r2c6", "r1c7"]]\n'
    state = State.start(parse(text, source="thermo.toml")[0])
    for cell, values in cands.items():
        state.cand[cell] = sum(1 << (v - 1) for v in values)
    return state


def test_the_plus_and_nested_levels_follow_the_rules_links():
    state = _thermo()
    truth = [int(ch) for ch in THERMO_SOLUTION]
    for find in (plus.dynamic_forcing_chains_plus, nested._level(2)):
        steps = list(islice(find(state.copy()), 3))
        assert steps
        assert_sound(steps, truth)


def test_a_nested_grid_reads_the_rules_without_the_filled_values():
    """An inner search's grid has candidates only: its filled cells count as any value."""
    state = _thermo('"r3c5", ')  # r3c5 is given: a 4
    grid = nested._grid(state.layout, state.cand[:])
    assert not grid.cand[20] and not grid.values[20]
    links = rule_links(grid)
    assert links.weak or links.strong


def test_the_top_levels_are_offered_to_variants_when_asked():
    top = "Dynamic Forcing Chains (+)"
    assert top not in {t.name for t in Solver(parse_one(SUDOKU_X)).techniques}
    classic = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    assert top in {t.name for t in Solver(parse_one(classic)).techniques}
    solver = Solver(parse_one(SUDOKU_X), deep=True)
    names = {t.name for t in solver.techniques}
    assert "Dynamic Forcing Chains (+)" in names
    assert "Dynamic Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))" in names
    assert "Unique Rectangle" not in names  # still SE's classic geometry only


@pytest.mark.slow
def test_sudoku_x_goes_on_past_the_plus_level_soundly():
    """Every step sound and never stuck for a minute of nested levels. (To the end it
    takes longer than a test should: its steps are rated 9.4 to 10 and more.)"""
    puzzle = parse_one(SUDOKU_X)
    solution = solve(puzzle).solution
    solver = Solver(puzzle, deep=True)
    state = solver.start()
    steps = list(solver.run(state, deadline=time.monotonic() + 60))
    assert not solver.stuck
    assert_sound(steps, solution)
    assert sum(step.rating >= 9.0 for step in steps) >= 3
    if state.solved():
        assert list(state.values) == list(solution)


def test_sudoku_x_reaches_the_plus_level_soundly():
    """Stuck below 9.0 before: its first steps past the dynamic chains, each sound."""
    puzzle = parse_one(SUDOKU_X)
    solution = solve(puzzle).solution
    solver = Solver(puzzle, deep=True)
    state = solver.start()
    steps = []
    for step in solver.run(state):
        steps.append(step)
        if step.rating >= 9.0:
            break
    assert steps and steps[-1].rating >= 9.0
    assert_sound(steps, solution)
    check = solver.start()
    for step in steps:
        apply(check, step)
    assert not check.broken()


def test_explain_finishes_by_contradictions_without_deep_and_deep_runs_on():
    """Without --deep the rule contradictions (found by the engine in milliseconds)
    finish it; with --deep SE's nested levels, asked first, search on past -t."""
    import json

    from typer.testing import CliRunner

    from cpsudoku.cli import app
    from cpsudoku.errors import ExitCode
    runner = CliRunner()
    plain = runner.invoke(app, ["explain", SUDOKU_X, "-f", "json", "-t", "120"])
    assert plain.exit_code == ExitCode.OK, plain.output
    taken = {s["technique"] for s in json.loads(plain.stdout)["steps"]}
    assert "Nested Rule Contradiction" in taken
    assert not any("(+" in name for name in taken), "SE's nested levels need --deep"
    deep = runner.invoke(app, ["explain", SUDOKU_X, "--deep", "-t", "3", "-f", "json"])
    assert deep.exit_code == ExitCode.TIMEOUT, deep.output  # the nested levels run on
