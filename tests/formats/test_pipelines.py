"""Pipelines: every command's json and jsonl output, piped into solve, count, check, rate
and compare, arrives as the puzzle that left it (givens, geometry, rules and elements),
or is refused by one line saying what it is and what to pipe instead."""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku import parse, parse_one
from cpsudoku.cli import app
from cpsudoku.errors import ExitCode, ModelError
from cpsudoku.formats.sources import read_puzzles
from cpsudoku.grid.check import is_solution
from cpsudoku.grid.puzzle import Puzzle

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

# Cheap puzzles of each kind: each solves in milliseconds and rates in well under a second.
FILES = {"classic": ROOT / "examples/tutorial.txt",
         "killer": ROOT / "examples/variants/killer-6x6.toml",
         "jigsaw": ROOT / "examples/variants/jigsaw.toml"}
GENERATE = {"classic": ["--seed", "3"],
            "killer": ["--killer", "--size", "6", "--seed", "5"],
            "jigsaw": ["--jigsaw", "--size", "6", "--seed", "5"]}
CARRIERS = [("solve", "json"), ("solve", "jsonl"), ("count", "json"), ("count", "jsonl"),
            ("check", "json"), ("check", "jsonl"), ("rate", "json"), ("rate", "jsonl"),
            ("explain", "json"), ("hint", "json"), ("hint", "jsonl"), ("generate", "json"),
            ("generate", "jsonl")]
REFUSED = [("explain", "jsonl", "an explain step record"), ("compare", "json", "a compare report")]
CONSUMERS = ["solve", "count", "check", "rate", "compare"]


def invoke(args: list[str], text: str | None = None):
    return runner.invoke(app, args, input=text)


@functools.cache
def produced(kind: str, command: str, fmt: str) -> str:
    """What `command` writes for the kind's puzzle in `fmt`."""
    if command == "compare":  # its machine output is a report file
        with tempfile.TemporaryDirectory() as folder:
            report = Path(folder) / "report.json"
            result = invoke(["compare", str(FILES[kind]), "--backends", "native",
                             "--json", str(report)])
            assert result.exit_code == 0, result.output
            return report.read_text()
    if command == "generate":
        args = ["generate", "-c", "1", *GENERATE[kind], "-f", fmt]
    else:
        args = [command, str(FILES[kind]), "-f", fmt]
    result = invoke(args)
    assert result.exit_code == 0, (args, result.output)
    return result.stdout


@functools.cache
def departed(kind: str, command: str) -> Puzzle:
    """The puzzle that went into the pipe, read without any record: the file itself, or
    the same generated puzzle written as a TOML puzzle file."""
    if command != "generate":
        return read_puzzles(str(FILES[kind]))[0]
    made = invoke(["generate", "-c", "1", *GENERATE[kind], "-f", "toml"])
    assert made.exit_code == 0, made.output
    return parse_one(made.stdout)


def assert_same_puzzle(arrived: Puzzle, expected: Puzzle) -> None:
    assert arrived.size == expected.size
    assert arrived.givens == expected.givens
    assert arrived.geometry.regions == expected.geometry.regions
    assert arrived.rules == expected.rules
    assert expected.rules or expected.geometry.box is None or arrived.rules == ()


def records_of(result) -> list[dict]:
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def solution_of(line: str) -> tuple[int, ...]:
    return parse_one(line).givens


@pytest.mark.parametrize("consumer", CONSUMERS)
@pytest.mark.parametrize("command, fmt", CARRIERS)
@pytest.mark.parametrize("kind", list(FILES))
def test_a_record_arrives_as_the_puzzle_that_left(kind, command, fmt, consumer, tmp_path):
    text, expected = produced(kind, command, fmt), departed(kind, command)
    if consumer == "compare":
        report = tmp_path / "report.json"
        result = invoke(["compare", "-", "--backends", "native", "--json", str(report)], text)
        assert result.exit_code == 0, result.output
        [row] = json.loads(report.read_text())["rows"]
        assert row["status"] == "unique"
        assert is_solution(expected, solution_of(row["solution"]))  # cages, regions obeyed
        return
    [record] = records_of(invoke([consumer, "-", "-f", "jsonl"], text))
    assert record["puzzle"] == expected.line()  # the givens, never a solution
    assert_same_puzzle(parse_one(json.dumps(record)), expected)  # and it travels on
    if consumer in ("solve", "count"):
        assert is_solution(expected, solution_of(record["solutions"][0]))
    elif consumer == "check":
        solved = command in ("solve", "count")  # a result is checked as its solution
        assert record["valid"] and record["complete"] == solved
        sent = json.loads(text.splitlines()[0] if fmt == "jsonl" else text)
        assert record.get("checked") == (sent["solutions"][0] if solved else None)
    else:
        assert record["status"] == "rated" and record["er"] >= 1.0


@pytest.mark.parametrize("consumer", CONSUMERS)
@pytest.mark.parametrize("command, fmt, what", REFUSED)
@pytest.mark.parametrize("kind", list(FILES))
def test_a_record_without_a_puzzle_is_refused_saying_what_it_is(kind, command, fmt, what,
                                                                consumer, tmp_path):
    args = [consumer, "-"] + (["--backends", "native", "--json", str(tmp_path / "r.json")]
                              if consumer == "compare" else [])
    result = invoke(args, produced(kind, command, fmt))
    assert result.exit_code == ExitCode.BAD_INPUT, result.output
    message = result.output.strip()
    assert f"{what} (" in message and "carries no puzzle: pipe the puzzle itself" in message
    assert "Traceback" not in message and len(message.splitlines()) == 1


# --- the cases of the report, one by one ----------------------------------------------------

def test_a_solve_record_is_rated_as_its_puzzle_not_its_solution():
    text = produced("classic", "solve", "jsonl")
    [rated] = records_of(invoke(["rate", "-", "-f", "jsonl"], text))
    assert rated["er"] > 1.0 and rated["source"].endswith("tutorial.txt:4")


def test_a_file_of_generated_killer_records_is_read_by_every_command(tmp_path):
    path = tmp_path / "k.json"
    made = invoke(["generate", "-c", "2", *GENERATE["killer"], "-f", "json", "-o", str(path)])
    assert made.exit_code == 0, made.output
    items = json.loads(path.read_text())
    assert len(items) == 2 and all("cages" in item and "file" not in item for item in items)
    counted = records_of(invoke(["count", str(path), "-f", "jsonl"]))
    assert [r["status"] for r in counted] == ["unique", "unique"]
    assert [r["cages"] for r in counted] == [item["cages"] for item in items]


def test_generated_variant_records_hold_structured_fields_readable_as_a_puzzle_file():
    record = json.loads(produced("jigsaw", "generate", "jsonl"))
    assert isinstance(record["regions"], list) and record["size"] == 6
    assert not any(isinstance(v, str) and "\n" in v for v in record.values())
    puzzle = parse_one(json.dumps(record))
    assert puzzle.meta["seed"] == 5 and puzzle.meta["solution"] == solution_of(
        record["solution"])


@pytest.mark.parametrize("text, found", [
    ("[" + ",".join([json.dumps({"index": 0, "step": 1, "technique": "Hidden Single",
                                 "placements": ["r1c1=1"]})] * 2) + "]",
     "[1]: an explain step record"),
    (json.dumps({"status": "unique", "solutions": ["1" * 81]}), "a solve or count record"),
])
def test_refusals_name_what_was_found(text, found):
    with pytest.raises(ModelError, match=r"carries no puzzle") as caught:
        parse(text)
    assert found in str(caught.value) and "LZString" not in str(caught.value)


def test_a_record_keeps_its_other_fields_as_metadata():
    record = {"index": 4, "seed": 9, "source": "set.txt:12", "note": "ER 7.1", "name": "hard one",
              "puzzle": parse_one(produced("classic", "solve", "jsonl")).line(),
              "solution": json.loads(produced("classic", "solve", "jsonl"))["solutions"][0],
              "stats": {"nodes": 1}}
    puzzle = parse_one(json.dumps(record))
    assert (puzzle.source, puzzle.name) == ("set.txt:12", "hard one")
    assert puzzle.meta["seed"] == 9 and puzzle.meta["note"] == "ER 7.1"
    assert "stats" not in puzzle.meta
    assert is_solution(puzzle, puzzle.meta["solution"])
    assert puzzle.givens.count(0) > 0  # the solution is known, not given


def test_a_check_of_a_solve_record_names_a_solution_that_breaks_a_cage():
    record = json.loads(produced("killer", "solve", "jsonl"))
    bad = list(record["solutions"][0])
    bad[0], bad[1] = bad[1], bad[0]  # rows stay full; a cage or a column breaks
    record["solutions"] = ["".join(bad)]
    [checked] = records_of_failure(invoke(["check", "-", "-f", "jsonl"], json.dumps(record)))
    assert not checked["valid"] and checked["conflicts"]


def records_of_failure(result) -> list[dict]:
    assert result.exit_code == ExitCode.NOT_UNIQUE, result.output
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


@pytest.mark.process
@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX shell for the pipe")
def test_a_real_shell_pipeline_of_three_commands():
    cli = f"{sys.executable} -m cpsudoku"
    killer = FILES["killer"]
    done = subprocess.run(f"{cli} solve {killer} -f jsonl | {cli} rate - -f jsonl "
                          f"| {cli} count - -f jsonl", shell=True, capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["status"] == "unique" and record["source"] == str(killer)
    assert_same_puzzle(parse_one(done.stdout), departed("killer", "solve"))


def test_compare_csv_rows_are_refused_as_such(tmp_path):
    rows = tmp_path / "rows.csv"
    result = invoke(["compare", str(FILES["classic"]), "--backends", "native", "--csv",
                     str(rows)])
    assert result.exit_code == 0, result.output
    refused = invoke(["solve", str(rows)])
    assert refused.exit_code == ExitCode.BAD_INPUT
    assert "compare's rows" in refused.output and "carry no puzzle" in refused.output
