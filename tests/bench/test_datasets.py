"""The native backend against the published answers of the public data sets.

Each puzzle is solved through `cpsudoku.api.solve` with max_solutions=2, so
both the solution and the capped solution count are checked.
"""

from __future__ import annotations

import pytest
from conftest import BUNDLED_DIR, read_set

from cpsudoku import solve
from cpsudoku.bench.datasets import puzzle_of
from cpsudoku.engine import kernel
from cpsudoku.grid.symbols import line


def assert_matches(rows, name):
    wrong = []
    for i, (puzzle, solution, nsol) in enumerate(rows):
        result = solve(puzzle_of(puzzle), "native", max_solutions=2)
        status = "unique" if nsol == 1 else "multiple"
        if result.status.value != status or (nsol == 1 and line(result.solution) != solution):
            wrong.append((i + 1, result.status.value))
    assert not wrong, f"{name}: {len(wrong)} puzzles differ, first: {wrong[:5]}"


@pytest.mark.parametrize("name", ["norvig_top95", "norvig_hardest", "forum_hardest_1106",
                                  "gecode_9x9", "gecode_16x16", "norvig_easy50"])
def test_whole_set(name):
    assert_matches(read_set(name), name)


BUNDLED = sorted(p.relative_to(BUNDLED_DIR).as_posix() for p in BUNDLED_DIR.rglob("*")
                 if p.is_file() and p.name != "README.md")


def test_the_sets_shipped_with_the_tests_are_attributed():
    readme = (BUNDLED_DIR / "README.md").read_text()
    assert BUNDLED, f"no puzzle sets in {BUNDLED_DIR}"
    for relative in BUNDLED:
        folder, _, name = relative.rpartition("/")
        assert f"{folder}/{name.rsplit('.', 1)[0]}" in readme, f"{relative} not in its README"
        assert (BUNDLED_DIR / relative).stat().st_size < 10_000, f"{relative}: ship small sets"


@pytest.mark.parametrize("relative", BUNDLED)
def test_the_sets_shipped_with_the_tests_are_the_public_ones(data_dir, relative):
    assert (BUNDLED_DIR / relative).read_bytes() == (data_dir / relative).read_bytes()


def test_royle_17clue_slice():
    assert_matches(read_set("royle_17clue", 2000), "royle_17clue")


def test_serg_benchmark_slice_reports_multiple():
    rows = read_set("serg_benchmark", 500)
    assert all(nsol == 2 for _, _, nsol in rows)
    assert_matches(rows, "serg_benchmark")


@pytest.mark.parametrize("name", ["kaggle_rohanrao_10k", "kaggle_radcliffe_sample7034"])
def test_kaggle_slice(name):
    rows = read_set(name, 300)
    assert len(rows) == 300
    assert_matches(rows, name)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["royle_17clue", "magictour_top1465", "kaggle_rohanrao_10k",
                                  "kaggle_radcliffe_sample7034", "serg_benchmark"])
def test_full_set(name):
    assert_matches(read_set(name), name)


@pytest.mark.slow
@pytest.mark.xfail(not kernel.available(), strict=False,
                   reason="without the C kernel, minimal 25x25 puzzles outlast a minute")
def test_gecode_25x25():
    # The C kernel solves each within 35 s of CPU on a quiet machine: 60 s leaves
    # room for a busy one.
    timed_out = []
    for i, (puzzle, solution, _nsol) in enumerate(read_set("gecode_25x25")):
        result = solve(puzzle_of(puzzle), "native", max_solutions=1, time_limit=60)
        if result.status.value == "timeout":
            timed_out.append(i + 1)
        else:  # an answer, when there is one, must be right
            assert line(result.solution) == solution, f"puzzle {i + 1}"
    assert not timed_out, f"timed out: puzzles {timed_out}"
