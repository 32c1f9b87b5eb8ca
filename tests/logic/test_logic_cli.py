"""explain, hint and rate on the command line: every format and every error path."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku import solve
from cpsudoku.cli import app
from cpsudoku.errors import ExitCode

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = "".join(map(str, solve(TUTORIAL).solution))
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def one_error_line(result) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def test_explain_pretty_with_candidate_grids():
    result = run("explain", TUTORIAL, "--grid-at", "0,3")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[1].count("|") == 2  # the first candidate grid, boxes separated
    assert any(line.strip().startswith("1. [1.") for line in lines)
    assert lines[-1].startswith("solved in ") and "hardest step 1.2" in lines[-1]
    assert sum(1 for line in lines if set(line) <= set("-+")) == 4  # two grids, two rules each


def test_explain_jsonl_one_step_per_line():
    result = run("explain", TUTORIAL, "--format", "jsonl")
    assert result.exit_code == 0
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["step"] for r in records] == list(range(1, len(records) + 1))
    for r in records:
        assert {"step", "technique", "rating", "placements", "eliminations", "text"} <= set(r)
    placed = {p.split("=")[0]: p.split("=")[1] for r in records for p in r["placements"]}
    assert len(placed) == TUTORIAL.count(".")
    for name, value in placed.items():
        row, col = (int(x) for x in name[1:].split("c"))
        assert SOLUTION[(row - 1) * 9 + col - 1] == value


def test_explain_json_and_a_variant():
    result = run("explain", ROOT / "examples/variants/killer-6x6.toml", "-f", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    rule_steps = {"By Rule", "Sum Bounds", "Sum Combinations", "Pair Relation", "Order",
                  "Consecutive Set", "Innies", "Outies"}
    assert doc["solved"] and any(s["technique"] in rule_steps for s in doc["steps"])
    assert all(s["reason"] for s in doc["steps"])


def test_rate_formats():
    result = run("rate", TUTORIAL, "-f", "jsonl")
    assert result.exit_code == 0
    record = json.loads(result.stdout)
    assert set(record) == {"index", "source", "puzzle", "status", "er", "ep", "ed", "level",
                           "techniques", "steps", "hardest", "unique", "time_s"}
    assert record["status"] == "rated"
    assert (record["er"], record["level"], record["hardest"]) == (1.2, "easy", 1.2)
    result = run("rate", ROOT / "examples/tutorial.txt", ROOT / "examples/six.txt", "-f", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["index"] for r in rows] == ["0", "1"] and rows[0]["er"] == "1.2"
    result = run("rate", TUTORIAL)
    assert "ER 1.2 EP 1.2 ED 1.2 (easy)" in result.stdout


def test_rate_unsolvable_puzzle_exits_3():
    result = run("rate", "12345678." + "........9" + "." * 63, "-f", "jsonl")
    assert result.exit_code == ExitCode.UNSOLVABLE
    assert "no solution" in json.loads(result.stdout)["error"]


def test_hint_from_the_puzzle_and_from_a_state():
    result = run("hint", TUTORIAL)
    assert result.exit_code == 0 and result.stdout.startswith(("Hidden Single", "Full House"))
    state = SOLUTION[:40] + TUTORIAL[40:]
    result = run("hint", TUTORIAL, "--state", state, "-f", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["wrong"] == [] and doc["step"]["placements"]


def test_hint_names_a_wrong_entry():
    wrong = list(TUTORIAL)
    wrong[0] = "1" if SOLUTION[0] != "1" else "2"  # r1c1 is blank in the puzzle
    result = run("hint", TUTORIAL, "--state", "".join(wrong))
    assert result.exit_code == ExitCode.NOT_UNIQUE
    assert "wrong: r1c1" in result.stdout


def test_hint_with_pencil_marks_and_from_a_file(tmp_path):
    marks = []
    for i, ch in enumerate(TUTORIAL):
        marks.append(ch if ch != "." else ("123456789" if i else SOLUTION[0] + "9"))
    if SOLUTION[0] == "9":
        marks[0] = "89"
    path = tmp_path / "state.txt"
    path.write_text(" ".join(marks))
    result = run("hint", TUTORIAL, "--state", path, "-f", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["step"] is not None


@pytest.mark.parametrize("args,code,message", [
    (["hint", TUTORIAL, "--state", "5" + TUTORIAL[1:2] + "9" + TUTORIAL[3:]], ExitCode.BAD_INPUT,
     "r1c3 holds 9 but the puzzle gives 3"),
    (["hint", TUTORIAL, "--state", "12345"], ExitCode.BAD_INPUT, "state:1: "),
    (["hint", TUTORIAL, "--state", " ".join(["12x"] * 81)], ExitCode.BAD_INPUT, "pencil marks"),
    (["explain", TUTORIAL, "--grid-at", "soon"], ExitCode.USAGE, "--grid-at"),
    (["explain", TUTORIAL, "--time-limit", "-1"], ExitCode.USAGE, "--time-limit"),
    (["rate", "no-such-file.txt"], ExitCode.BAD_INPUT, "no such file"),
    (["explain", "88" + TUTORIAL[2:]], ExitCode.UNSOLVABLE, "no solution"),
])
def test_error_paths(args, code, message):
    result = run(*args)
    assert result.exit_code == code, result.output
    if code == ExitCode.UNSOLVABLE:
        assert message in result.stdout
    else:
        assert message in one_error_line(result)
