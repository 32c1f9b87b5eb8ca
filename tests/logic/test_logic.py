"""The logical solver: explain, hint and rate on the SE scale."""

from __future__ import annotations

import pytest
from conftest import with_two_solutions

from cpsudoku import explain, hint, parse_one, rate
from cpsudoku.errors import ModelError
from cpsudoku.logic import LEVELS, level_of

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def test_rate_easy_puzzle_singles_only():
    r = rate(EASY)
    assert (r.er, r.ep, r.ed) == (1.2, 1.2, 1.2)
    assert r.level == "easy" and not r.beyond and r.status == "rated"
    assert r.hardest == r.er and r.steps == 49
    assert set(r.techniques) <= {"Full House", "Hidden Single"}
    d = r.as_dict()
    assert set(d) == {"er", "ep", "ed", "level", "techniques", "steps", "hardest", "unique",
                      "time_s"}


def test_explain_reaches_the_solution():
    from cpsudoku import solve
    ex = explain(EASY)
    assert ex.solved
    assert tuple(ex.grid) == solve(EASY).solution
    assert [s.number for s in ex.steps] == list(range(1, len(ex.steps) + 1))
    d = ex.steps[0].as_dict()
    assert set(d) >= {"step", "technique", "rating", "placements", "eliminations", "text", "cells"}


@pytest.mark.parametrize("er,level", [(0.0, "easy"), (1.2, "easy"), (1.3, "medium"),
                                      (1.5, "medium"), (1.6, "hard"), (2.5, "hard"),
                                      (2.6, "fiendish"), (6.0, "fiendish"), (6.1, "diabolical"),
                                      (11.9, "diabolical")])
def test_levels_are_sudoku_explainers_bands(er, level):
    assert level_of(er) == level
    assert list(LEVELS) == ["easy", "medium", "hard", "fiendish", "diabolical"]


def test_generate_and_rate_speak_of_one_scale():
    from cpsudoku.generator import BANDS
    assert BANDS is LEVELS
    for name, (lo, hi) in LEVELS.items():
        assert level_of(lo) == level_of(hi) == name


def test_hint_first_step_is_a_single():
    h = hint(parse_one(EASY))
    assert h.wrong == [] and h.step is not None
    assert h.step.technique in ("Full House", "Hidden Single")


# SE-rated puzzles whose path needs one of SE's rarer techniques (SE's ER beside each)
@pytest.mark.parametrize("line,technique,er", [
    ("8......6....25..1...968.....2......1..7....2.14......5...7..9.3.859...7.....24.5.",
     "Unique Loop Type 1", 4.6),
    ("...82..5..5.......7....62.8.3........49....31..57..9....4....7....1.3..4....8...9",
     "Aligned Pair Exclusion", 6.7),
    ("....8.3....6.47....5.1...9.6.8...1.75.........3....92.....23...4...9...8...51..4.",
     "Aligned Triplet Exclusion", 7.5),
    (".....69.8..3....1.....9..3...293..8.....524..8.......5647.........275...1........",
     "Unique Rectangle Type 3", 7.2),  # with a hidden set; region forcing chains without
    # a direct hidden pair applies its eliminations with its single: no naked single needed
    ("...8...3.9..27..6......1...6...2.5..2.5..4...13.......84.......57..4.2.9..2.....6",
     "Direct Hidden Pair", 2.0),
])
def test_rarer_techniques_are_reached_by_the_solver(line, technique, er):
    ex = explain(line)
    assert ex.solved and technique in {step.technique for step in ex.steps}
    assert max(step.rating for step in ex.steps) == er


# ---------------------------------------------------------------- soundness

def _rated(data_dir, top: float) -> list[str]:
    lines = (data_dir / "rated" / "se_calibration_850.txt").read_text().splitlines()
    return [line.split()[0] for line in lines if line.strip() and float(line.split()[1]) <= top]


def assert_sound(puzzle, steps, solution):
    for step in steps:
        for cell, value in step.placements:
            assert solution[cell] == value, step.text
        for cell, value in step.eliminations:
            assert solution[cell] != value, step.text


def test_soundness_property(data_dir):
    """From any partial grid on the way to the solution, every step is sound."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from cpsudoku import solve

    pool = _rated(data_dir, 7.2)[::7]

    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(pool), st.integers(min_value=0, max_value=2**81 - 1))
    def check(line, mask):
        solution = solve(line).solution
        state = [solution[i] if line[i] != "." or mask >> i & 1 and i % 3 == 0 else 0
                 for i in range(81)]
        ex = explain(line, state=state)
        assert ex.solved and tuple(ex.grid) == solution
        assert_sound(line, ex.steps, solution)

    check()


@pytest.mark.slow
def test_soundness_on_the_rated_set(data_dir):
    from cpsudoku import solve
    for line in _rated(data_dir, 99.0):
        ex = explain(line)
        assert_sound(line, ex.steps, solve(line).solution)


@pytest.mark.parametrize("name", ["six.txt", "twelve.txt", "sixteen.txt"])
def test_other_sizes_explained_to_the_solution(name):
    from pathlib import Path

    from cpsudoku import solve
    from cpsudoku.formats.sources import read_puzzles
    puzzle = read_puzzles(str(Path(__file__).parents[2] / "examples" / name))[0]
    ex = explain(puzzle)
    solution = solve(puzzle).solution
    assert ex.solved and not ex.stuck and tuple(ex.grid) == solution
    assert_sound(puzzle, ex.steps, solution)


def test_every_variant_example_explained_to_the_solution():
    from pathlib import Path

    from cpsudoku import solve
    from cpsudoku.engine import vkernel
    from cpsudoku.formats.sources import read_puzzles
    folder = Path(__file__).parents[2] / "examples" / "variants"
    files = sorted(p for p in folder.iterdir() if p.suffix in (".toml", ".json"))
    assert len(files) >= 19
    for path in files:
        puzzle = read_puzzles(str(path))[0]
        if puzzle.variables.count:  # regions found while solving: digits-only engines
            continue
        if not puzzle.geometry.standard and not vkernel.available():
            with pytest.raises(ModelError, match="only with the compiled engine"):
                explain(puzzle)  # singles and the engine's steps read such a grid
            continue
        if not puzzle.geometry.houses:  # its techniques read houses: refused by name
            with pytest.raises(ModelError, match="this raw grid has none"):
                explain(puzzle)
            continue
        ex = explain(puzzle)
        solution = solve(puzzle).solution
        assert ex.solved and ex.status == "solved" and tuple(ex.grid) == solution, path.name
        assert_sound(puzzle, ex.steps, solution)


def test_hint_reports_wrong_entries_and_pencil_marks():
    from cpsudoku import solve
    solution = solve(EASY).solution
    grid = [int(ch) if ch != "." else 0 for ch in EASY]
    grid[0] = solution[0] % 9 + 1  # wrong value in a blank cell
    h = hint(EASY, grid)
    assert h.wrong == ["r1c1"] and h.step is not None
    marks: list = [v if v else set(range(1, 10)) for v in (int(ch) if ch != "." else 0
                                                           for ch in EASY)]
    marks[1] = {v for v in range(1, 10) if v != solution[1]}  # the true value struck out
    h = hint(EASY, marks)
    assert h.wrong == ["r1c2"]


def test_unsolvable_and_non_unique_puzzles():
    from cpsudoku.logic import Unsolvable
    with pytest.raises(Unsolvable):
        rate("12345678." + "........9" + "." * 63)
    grid = with_two_solutions(EASY)  # a rectangle over two boxes whose values can swap
    from cpsudoku.logic import NotUnique
    with pytest.raises(NotUnique, match="not unique"):
        rate(grid)
    # along one of several solutions no technique tells them apart: the solver stops
    # (it never takes a value from the solution it found)
    r = rate(grid, allow_multiple=True)
    assert r.beyond and r.status == "beyond" and r.level == "beyond the scale"
    assert (r.er, r.ep, r.ed, r.steps) == (None, None, None, 0)
    assert not any(t.startswith("Unique") for t in r.techniques)
    assert not r.unique and r.as_dict()["unique"] is False
    with pytest.raises(NotUnique):
        explain(grid)
    done = explain(grid, allow_multiple=True)
    assert not done.solved and done.stuck and done.status == "stuck" and done.steps == []
    assert sum(1 for m in done.candidates if m) == 4


def test_spearman():
    from cpsudoku.bench.rating import spearman
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert spearman([1, 1, 2], [1, 2, 3]) == pytest.approx(0.866, abs=1e-3)


def test_benchmark_prints_the_agreement_table(data_dir, capsys):
    from cpsudoku.bench.rating import main
    assert main(["--data", str(data_dir), "--limit", "4", "--speed", "0"]) == 0
    out = capsys.readouterr().out
    assert "| 0.0-1.5 | 3 | 100.0% | 100.0% |" in out  # the first four: ER 1.2, 1.2, 2.0, 1.5
    assert "| 1.6-2.8 | 1 | 100.0% | 100.0% |" in out
    assert "Spearman rho" in out and "Soundness: 0 unsound steps" in out


def test_benchmark_names_missing_data(tmp_path, capsys):
    from cpsudoku.bench.rating import main
    assert main(["--data", str(tmp_path)]) == 5
    assert "no such file" in capsys.readouterr().err


def test_rate_builds_the_model_once(monkeypatch):
    """The logical solver's conflict check, solution and first candidates share one
    built model; the rating is the same."""
    import cpsudoku.api
    import cpsudoku.logic.solver
    import cpsudoku.logic.state
    from cpsudoku.model import build_model

    expected = rate(EASY).as_dict()
    builds = []

    def counted(puzzle):
        builds.append(puzzle)
        return build_model(puzzle)

    for module in (cpsudoku.api, cpsudoku.logic.solver, cpsudoku.logic.state):
        monkeypatch.setattr(module, "build_model", counted)
    got = rate(EASY).as_dict()
    assert {k: v for k, v in got.items() if k != "time_s"} == \
        {k: v for k, v in expected.items() if k != "time_s"}
    assert len(builds) == 1
