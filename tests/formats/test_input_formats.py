"""Input notations: 0-based big grids, every output format read back, CSV with a header."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku import parse, parse_one
from cpsudoku.cli import app
from cpsudoku.errors import ModelError, ParseError
from cpsudoku.grid.symbols import ALPHABET

ROOT = Path(__file__).resolve().parents[2]

runner = CliRunner()
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = ("812753649943682175675491283154237896369845721287169534521974368"
                   "438526917796318452")


def latin(n: int, box: tuple[int, int]) -> list[int]:
    """A valid complete N x N grid with the given box shape."""
    return [(r * box[1] + r // box[0] + c) % n + 1 for r in range(n) for c in range(n)]


def zero_based_text(values, n: int, blank_every: int) -> str:
    """The grid in 0-based notation (`0` is N, the other values keep their symbol),
    with every `blank_every`-th cell blanked as `.` (0: none)."""
    out = []
    for i, v in enumerate(values):
        if blank_every and i % blank_every == 0:
            out.append(".")
        else:
            out.append("0" if v == n else ALPHABET[v - 1])
    return "".join(out)


# --- 0-based notation (0-F on 16x16) ---------------------------------------------------

@pytest.mark.parametrize("n, box", [(10, (2, 5)), (12, (3, 4)), (16, (4, 4)), (25, (5, 5))])
@pytest.mark.parametrize("blank_every", [0, 7])
def test_zero_based_notation_is_recognised(n, box, blank_every):
    values = latin(n, box)
    text = zero_based_text(values, n, blank_every)
    assert "0" in text
    puzzle = parse_one(text, box=box)
    expected = [0 if blank_every and i % blank_every == 0 else v for i, v in enumerate(values)]
    assert list(puzzle.givens) == expected
    assert n in puzzle.givens  # `0` was read as N, not as a blank


def test_zero_based_16x16_grid_in_rows_is_recognised():
    values = latin(16, (4, 4))
    text = zero_based_text(values, 16, 5)
    rows = "\n".join(text[r * 16:(r + 1) * 16] for r in range(16))
    assert parse_one(rows).givens == parse_one(text).givens


@pytest.mark.parametrize("n, box", [(10, (2, 5)), (16, (4, 4)), (25, (5, 5))])
def test_zero_is_a_blank_when_the_grid_writes_n_as_usual(n, box):
    values = latin(n, box)
    text = "".join(ALPHABET[v - 1] if i % 7 else "0" for i, v in enumerate(values))
    puzzle = parse_one(text)
    assert ALPHABET[n - 1] in text and 0 in puzzle.givens
    assert all(g in (0, v) for g, v in zip(puzzle.givens, values))


def test_zero_with_two_in_a_row_is_a_blank():
    values = latin(16, (4, 4))
    # No G and no '.', but row 1 has two zeros: they can only be blanks.
    text = "".join("0" if v == 16 or i < 2 else ALPHABET[v - 1] for i, v in enumerate(values))
    assert parse_one(text).givens[:2] == (0, 0)


@pytest.mark.parametrize("n, box", [(10, (2, 5)), (12, (3, 4)), (16, (4, 4))])
def test_ambiguous_zero_is_refused_in_one_line(n, box):
    values = latin(n, box)
    # One `0` in the first row only, no other blank and no top symbol: a blank, or N?
    top = ALPHABET[n - 1]
    text = "".join("0" if i == 0 else ("1" if ALPHABET[v - 1] == top else ALPHABET[v - 1])
                   for i, v in enumerate(values))
    with pytest.raises(ParseError) as info:
        parse_one(text)
    message = str(info.value)
    assert "\n" not in message and "0 could be a blank" in message and top in message


@pytest.mark.parametrize("n", [10, 12, 16])
def test_letter_notation_is_recognised_when_a_letter_is_too_big(n):
    values = latin(n, {10: (2, 5), 12: (3, 4), 16: (4, 4)}[n])
    text = "".join(chr(64 + v) if i % 5 else "." for i, v in enumerate(values))  # A=1
    assert list(parse_one(text).givens) == [v if i % 5 else 0 for i, v in enumerate(values)]


@pytest.mark.parametrize("text", ["G" + "." * 255, "A" + "." * 99, "A" + "." * 624])
def test_letters_without_a_digit_are_refused_when_ambiguous(text):
    with pytest.raises(ParseError, match="A could be 1"):
        parse_one(text)


def test_sizes_up_to_9_have_no_zero_ambiguity():
    assert parse_one("0" * 81).givens == (0,) * 81


# --- every output format read back ------------------------------------------------------

def solve_then_check(puzzle_args: list[str], fmt: str, extra: tuple[str, ...] = ()):
    solved = runner.invoke(app, ["solve", *puzzle_args, "-f", fmt, "--stats", *extra])
    assert solved.exit_code in (0, 1, 3), solved.output
    return solved, runner.invoke(app, ["check", "-"], input=solved.stdout)


@pytest.mark.parametrize("fmt", ["pretty", "line", "json", "jsonl"])
@pytest.mark.parametrize("example", ["examples/inkala.txt", "examples/six.txt",
                                     "examples/sixteen.txt",
                                     "examples/variants/killer-6x6.toml"])
def test_solve_output_parses_back_into_check(fmt, example):
    solved, checked = solve_then_check([str(ROOT / example)], fmt, ("-n", "2"))
    assert checked.exit_code == 0, (solved.stdout, checked.output)
    assert "valid solution" in checked.stdout


@pytest.mark.parametrize("fmt", ["pretty", "line", "json", "jsonl"])
def test_several_results_read_back_one_grid_each(fmt):
    puzzles = [INKALA, "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2"
                       ".....1.4......"]
    solved, checked = solve_then_check(puzzles, fmt)
    assert checked.exit_code == 0, (solved.stdout, checked.output)
    assert checked.stdout.count("valid solution") == 2


def test_json_array_of_results_reads_back_as_their_puzzles():
    one = json.loads(runner.invoke(app, ["solve", INKALA, "-f", "json"]).stdout)
    puzzles = parse(json.dumps([one, one]))
    assert [p.line() for p in puzzles] == [INKALA] * 2
    assert puzzles[0].meta["solution"] == parse_one(INKALA_SOLUTION).givens


def test_result_without_solution_reads_as_its_puzzle():
    result = {"index": 0, "status": "unsolvable", "solutions": [], "puzzle": "11" + "." * 79,
              "reason": "r1c1 and r1c2 both hold 1"}
    [puzzle] = parse(json.dumps(result))
    assert puzzle.givens[:3] == (1, 1, 0) and "solution" not in puzzle.meta
    assert puzzle.meta["reason"] == result["reason"]


def test_result_with_several_solutions_keeps_them_all():
    result = {"status": "multiple", "puzzle": INKALA, "solutions": [INKALA_SOLUTION] * 2}
    puzzles = parse(json.dumps(result) + "\n" + json.dumps(result))
    assert [p.line() for p in puzzles] == [INKALA] * 2
    assert puzzles[0].meta["solutions"] == (parse_one(INKALA_SOLUTION).givens,) * 2
    assert "solution" not in puzzles[0].meta  # two solutions: none is the known one


def test_result_keeps_its_box_shape():
    solution = "".join(map(str, latin(6, (3, 2))))
    result = {"status": "solved", "puzzle": "." * 36, "solutions": [solution], "size": 6,
              "box": "3x2"}
    assert parse_one(json.dumps(result)).geometry.box == (3, 2)


def test_terminal_colours_are_ignored():
    rows = [INKALA[i:i + 9] for i in range(0, 81, 9)]
    coloured = "\n".join("\x1b[1m" + r[:3] + "\x1b[0m" + r[3:] for r in rows)
    assert parse_one("\x1b[32munique solution\x1b[0m\n" + coloured).line() == INKALA


def test_numbers_format_reads_back():
    from cpsudoku.formats import write as render
    from cpsudoku.grid.geometry import boxed
    values = latin(16, (4, 4))
    assert parse_one(render.numbers(values, boxed(16))).givens == tuple(values)


@pytest.mark.parametrize("bad, what", [
    ({"status": "solved", "puzzle": INKALA, "solutions": "812"}, "list of grid lines"),
    ({"status": "unsolvable", "solutions": []}, "a solve or count record .* carries no puzzle"),
    ({"status": "solved", "puzzle": INKALA, "solutions": [INKALA_SOLUTION], "box": 3},
     "box must be"),
])
def test_malformed_result_objects_are_refused(bad, what):
    with pytest.raises(ModelError, match=what):
        parse(json.dumps(bad))


def test_a_puzzle_line_with_a_typo_is_an_error_not_a_label():
    with pytest.raises(ParseError, match="unexpected character 'x'"):
        parse(INKALA + "\n" + INKALA[:40] + "xyz" + INKALA[43:] + "\n")


def test_label_lines_do_not_hide_a_bad_grid_row():
    text = "unique solution\n" + "\n".join(INKALA_SOLUTION[i:i + 9] for i in range(0, 81, 9))
    assert parse_one(text).line() == INKALA_SOLUTION
    with pytest.raises(ParseError, match="unexpected character"):
        parse_one(text.replace("812753649", "81275364x"))


# --- CSV with a header -------------------------------------------------------------------

@pytest.mark.parametrize("name", [
    "kaggle_radcliffe_sample7034.csv",
    pytest.param("kaggle_rohanrao_10k.csv", marks=pytest.mark.slow),
])
def test_kaggle_csv_files_read_with_their_solutions(data_dir, name):
    from cpsudoku.formats.sources import read_puzzles
    from cpsudoku.grid.check import is_solution
    path = data_dir / "classic" / name
    puzzles = read_puzzles(path)
    lines = path.read_text().splitlines()
    assert len(puzzles) == len(lines) - 1
    assert puzzles[0].line() == lines[1].split(",")[0]
    assert puzzles[-1].source == f"{path}:{len(lines)}"
    assert all(is_solution(p, p.meta["solution"]) for p in puzzles[:500])


def test_csv_keeps_other_columns_as_metadata():
    [puzzle] = parse(f"quizzes,solutions,difficulty\n{INKALA},{INKALA_SOLUTION},hard\n")
    assert puzzle.meta == {"difficulty": "hard", "solution": parse_one(INKALA_SOLUTION).givens}


def test_csv_solution_column_is_optional_and_may_be_empty():
    puzzles = parse(f"id,puzzle\n1,{INKALA}\n\n2,{INKALA}\n")
    assert [p.meta for p in puzzles] == [{"id": "1"}, {"id": "2"}]
    assert [p.source for p in puzzles] == ["<string>:2", "<string>:4"]


@pytest.mark.parametrize("text, where, what", [
    (f"puzzle,solution\n{INKALA[:-1]},\n", "f.csv:2:1:", "column 'puzzle': 80 cells"),
    (f"id,puzzle\n17,{INKALA[:40]}x{INKALA[41:]}\n", "f.csv:2:44:",
     "column 'puzzle': unexpected character 'x'"),
    (f"puzzle,solution\n{INKALA},{INKALA_SOLUTION}1\n", "f.csv:2:83:",
     "column 'solution': 82 cells"),
    (f"puzzle,solution\n{INKALA},{INKALA},3\n", "f.csv:2:", "3 fields, expected 2"),
    ("id,grid,solution\n1,2,3\n", "f.csv:1:", "no puzzle column"),
    (f"puzzle,solution\n{INKALA},{'1' * 256}\n", "f.csv:2:", "a 16x16 solution for a 9x9"),
])
def test_csv_errors_name_file_line_and_column(text, where, what):
    with pytest.raises(ParseError) as info:
        parse(text, source="f.csv")
    assert str(info.value).startswith(where) and what in str(info.value)


def test_csv_through_the_command_line(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text(f"puzzle,solution\n{INKALA},{INKALA_SOLUTION}\n")
    result = runner.invoke(app, ["solve", str(path), "-f", "line"])
    assert result.exit_code == 0 and result.stdout.split() == [INKALA_SOLUTION]
