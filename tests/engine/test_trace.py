"""The trace records every deduction it uses: replaying its placements and
eliminations from the givens explains each single it reports."""

from __future__ import annotations

import pytest
from conftest import data_file

from cpsudoku import solve
from cpsudoku.formats.read import parse_one
from cpsudoku.formats.sources import read_puzzles

TOP95_1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def replay_until_first_guess(puzzle, events):
    """Candidates per cell after each event; asserts that every single the trace
    reports is one given what the trace showed before it."""
    n = puzzle.size
    geometry = puzzle.geometry
    units = [list(range(r * n, r * n + n)) for r in range(n)]
    units += [list(range(c, n * n, n)) for c in range(n)]
    units += [[c for c in range(n * n) if geometry.region_of[c] == b] for b in range(n)]
    cands = [set(range(1, n + 1)) for _ in range(n * n)]
    checked = 0
    for event in events:
        if event.kind == "guess":
            break
        if event.kind == "eliminate":
            assert event.eliminations, event
            for cell, value in event.eliminations:
                assert value in cands[cell], f"{event.reason}: {cell} had no {value}"
                cands[cell].discard(value)
            continue
        if event.kind != "place":
            continue
        cell, value = event.cell, event.value
        if event.reason == "naked single":
            assert cands[cell] == {value}, f"r{cell // n + 1}c{cell % n + 1}: {cands[cell]}"
            checked += 1
        elif event.reason.startswith("hidden single"):
            unit = next(u for u in units if cell in u and event.reason.endswith(
                _label(u, n, geometry)))
            assert [c for c in unit if value in cands[c]] == [cell]
            checked += 1
        cands[cell] = set()
        for unit in units:
            if cell in unit:
                for peer in unit:
                    cands[peer].discard(value)
    return checked


def _label(unit, n, geometry):
    rows, cols = {c // n for c in unit}, {c % n for c in unit}
    if len(rows) == 1:
        return f"row {rows.pop() + 1}"
    if len(cols) == 1:
        return f"column {cols.pop() + 1}"
    return f"box {geometry.region_of[unit[0]] + 1}"


def test_every_single_follows_from_what_the_trace_shows():
    """top95 #1: r1c6 = 9 is a naked single only after locked-candidate eliminations,
    which the trace now records."""
    puzzle = parse_one(TOP95_1)
    events = solve(puzzle, trace=True).trace
    assert any(e.kind == "eliminate" and e.reason.startswith("locked candidates")
               for e in events)
    assert replay_until_first_guess(puzzle, events) > 20


@pytest.mark.parametrize("line", [1, 2, 3, 5, 8])
def test_top95_traces_explain_their_singles(line):
    puzzle = read_puzzles(str(data_file("classic/norvig_top95.txt")))[line - 1]
    replay_until_first_guess(puzzle, solve(puzzle, trace=True).trace)


def test_constraint_eliminations_are_traced():
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    puzzle = read_puzzles(str(root / "examples" / "variants" / "killer-6x6.toml"))[0]
    events = solve(puzzle, trace=True).trace
    eliminations = [e for e in events if e.kind == "eliminate" and "cage" in e.reason]
    assert eliminations and all(e.describe(6).count("<>") >= 1 for e in eliminations)


def test_trace_lines_are_comments_in_text_output():
    from typer.testing import CliRunner

    from cpsudoku.cli import app
    result = CliRunner().invoke(app, ["solve", TOP95_1, "--trace", "-f", "line"])
    lines = result.stdout.splitlines()
    assert lines[-1] == solve(TOP95_1).solution_lines()[0]
    assert all(line.startswith("# ") for line in lines[:-1])
    assert "# r1c6 = 9  (naked single)" in lines
