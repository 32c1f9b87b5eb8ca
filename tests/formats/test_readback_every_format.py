"""Every format the CLI writes reads back: `solve -f FORMAT | check -` for every format,
classic and variant, records (json, jsonl, csv) by the rules they carry, plain grids by
the puzzle given with -p; a CSV that names no puzzle column is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku.cli import app
from cpsudoku.errors import ExitCode
from cpsudoku.formats.read import parse

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
VARIANTS = EXAMPLES / "variants"
INKALA = EXAMPLES / "inkala.txt"
SOLUTION = ("812753649943682175675491283154237896369845721287169534521974368438526917"
            "796318452")


def run(*args, input=None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


def piped(command, puzzle, fmt, *check_args):
    made = run(command, puzzle, "-f", fmt)
    assert made.exit_code == 0, made.output
    return run("check", *check_args, "-", input=made.stdout)


@pytest.mark.parametrize("fmt", ["pretty", "line", "numbers", "json", "jsonl", "csv"])
def test_a_classic_solve_reads_back_in_every_format(fmt):
    done = piped("solve", INKALA, fmt)
    assert done.exit_code == 0, done.output
    assert "valid solution" in done.stdout


def test_a_csv_row_is_checked_as_its_solution():
    made = run("solve", INKALA, "-f", "csv").stdout
    wrong = made.replace(SOLUTION, SOLUTION[:-1] + "5")
    done = run("check", "-", input=wrong)
    assert done.exit_code == ExitCode.NOT_UNIQUE
    assert "r9c8 and r9c9 both hold 5 in row 9" in done.stdout


def test_a_csv_rows_count_column_is_no_grid():
    made = run("solve", INKALA, "-f", "csv").stdout
    puzzle = parse(made, source="solve.csv")[0]
    assert puzzle.meta["solutions"] == (tuple(int(c) for c in SOLUTION),)
    assert "solutions" not in {k for k, v in puzzle.meta.items() if isinstance(v, str)}


# The variant examples whose rules decide which grids are right: a jigsaw, a raw grid of
# the digits 1-3, a puzzle of the digits 0-6, a non-square jigsaw, a killer.
VARIANT_FILES = ["jigsaw.toml", "raw-grid.toml", "doppelganger.toml", "jigsaw-4x7.toml",
                 "killer.toml"]


@pytest.mark.parametrize("name", VARIANT_FILES)
@pytest.mark.parametrize("fmt", ["json", "jsonl", "csv"])
@pytest.mark.parametrize("command", ["solve", "count"])
def test_a_variant_record_reads_back_by_its_own_rules(name, fmt, command):
    done = piped(command, VARIANTS / name, fmt)
    assert done.exit_code == 0, done.output
    # count's csv rows hold a count, not the grid: the puzzle itself is what is checked
    wanted = "no conflict so far" if (command, fmt) == ("count", "csv") else "valid solution"
    assert wanted in done.stdout


@pytest.mark.parametrize("name", VARIANT_FILES)
def test_a_variant_csv_row_keeps_its_layout(name):
    made = run("solve", VARIANTS / name, "-f", "csv").stdout
    row = parse(made, source="solve.csv")[0]
    original = parse((VARIANTS / name).read_text(), source=name)[0]
    assert row.geometry == original.geometry and row.givens == original.givens
    assert [r.name for r in row.rules] == [r.name for r in original.rules]


def test_a_wrong_variant_csv_row_is_caught_by_its_regions():
    made = run("solve", VARIANTS / "jigsaw.toml", "-f", "csv").stdout
    header, row = made.splitlines()
    solution = row.split(",")[5]
    swapped = solution[1] + solution[0] + solution[2:]  # a row still holds 1-9 once
    done = run("check", "-", input=header + "\n" + row.replace(solution, swapped) + "\n")
    assert done.exit_code == ExitCode.NOT_UNIQUE, done.output


def test_a_rate_csv_of_a_variant_reads_back():
    made = run("rate", VARIANTS / "killer.toml", "-f", "csv")
    assert made.exit_code == 0, made.output
    rated = parse(made.stdout, source="rate.csv")[0]
    assert rated.rules and rated.givens == parse(
        (VARIANTS / "killer.toml").read_text(), source="k")[0].givens


@pytest.mark.parametrize("fmt", ["line", "pretty", "numbers"])
def test_a_plain_grid_of_a_variant_is_checked_by_the_puzzle_given(fmt):
    jigsaw = VARIANTS / "jigsaw.toml"
    done = piped("solve", jigsaw, fmt, "-p", jigsaw)
    assert done.exit_code == 0 and "valid solution" in done.stdout, done.output
    # without the puzzle the same grid is judged by boxes, which a jigsaw does not keep
    assert piped("solve", jigsaw, fmt).exit_code == ExitCode.NOT_UNIQUE


def test_a_plain_grid_cannot_stand_for_digits_from_0():
    doppel = VARIANTS / "doppelganger.toml"
    done = piped("solve", doppel, "line", "-p", doppel)
    assert done.exit_code == ExitCode.BAD_INPUT
    assert "digits start at 0" in done.stderr


@pytest.mark.parametrize("header", ["solution", "Solution", '"solutions"'])
def test_a_csv_with_only_a_solution_column_is_refused(tmp_path, header):
    path = tmp_path / "only.csv"
    path.write_text(f"{header}\n{SOLUTION}\n")
    done = run("solve", path)
    assert done.exit_code == ExitCode.BAD_INPUT
    assert "CSV header has no puzzle column" in done.stderr


def test_a_refused_puzzles_csv_row_says_it_carries_no_puzzle():
    made = run("solve", VARIANTS / "killer.toml", "-b", "dlx", "-f", "csv")
    done = run("check", "-", input=made.stdout)
    assert done.exit_code == ExitCode.BAD_INPUT
    assert "carries no puzzle" in done.stderr
