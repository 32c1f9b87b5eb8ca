"""The classic lane writes what the ordinary path writes: files of classic lines, with
invalid lines, unsolvable and multiple-solution puzzles, big grids among them, every
line format of solve and count, -n, resume and workers. The ordinary path is the same
command with a time limit (which the lane does not take)."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from typer.testing import CliRunner

from cpsudoku.batch import SolveTask
from cpsudoku.batch.lane import BLOCK, Block, LaneTask, Single, applies, lane_items
from cpsudoku.cli import app

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
TOP = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
LINES = [
    "# a comment", TOP, "", "11" + "." * 79,  # conflicting givens
    "  " + INKALA + "\t", "." * 81,  # blanks around; every grid
    "9" * 40 + "." * 41,  # no solution by givens: their reason
    TOP + "  a note",  # fields after the grid
    "12345",  # not a grid
    "0" * 80 + "1",  # 0 for blanks
    "0" * 40 + "." * 41,  # two blanks mixed
    ".14.........2..4",  # a 4x4 among them
    "8........A.....................................................................",
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
]
_TIMES = re.compile(r'"(time_s|setup_s|search_s)": [0-9.e-]+')


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def comparable(text: str, fmt: str) -> list:
    if fmt == "jsonl":
        return [_TIMES.sub('"T": 0', line) for line in text.splitlines()]
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(text)))
        for row in rows[1:]:
            row[7] = "T"  # time_s
        return rows
    return text.splitlines()


@pytest.fixture
def mixed(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(LINES) + "\n")
    return path


@pytest.mark.parametrize("command", ["solve", "count"])
@pytest.mark.parametrize("fmt", ["line", "jsonl", "csv"])
@pytest.mark.parametrize("limit", ["1", "2", "3"])
def test_the_lane_writes_the_ordinary_records(mixed, command, fmt, limit):
    lane = run(command, str(mixed), "-f", fmt, "-n", limit)
    ordinary = run(command, str(mixed), "-f", fmt, "-n", limit, "--time-limit", "600")
    assert lane.exit_code == ordinary.exit_code == 5  # bad input wins
    assert comparable(lane.stdout, fmt) == comparable(ordinary.stdout, fmt)
    assert lane.stderr == ordinary.stderr


def test_the_exit_status_follows_the_statuses(tmp_path):
    path = tmp_path / "set.txt"
    path.write_text(f"{INKALA}\n{'.' * 81}\n")
    assert run("solve", str(path), "-f", "line", "-n", "2").exit_code == 0
    assert run("count", str(path), "-f", "line").exit_code == 1  # not unique
    path.write_text(f"{INKALA}\n{'9' * 40 + '.' * 41}\n")
    assert run("solve", str(path), "-f", "line").exit_code == 3  # no solution


def test_resume_and_workers_give_the_whole_output(tmp_path):
    many = (LINES * 200)[:2500]  # several blocks
    path = tmp_path / "many.txt"
    path.write_text("\n".join(many) + "\n")
    whole = tmp_path / "whole.jsonl"
    assert run("solve", str(path), "-f", "jsonl", "-n", "2", "-o", str(whole)).exit_code == 5
    expected = comparable(whole.read_text(), "jsonl")
    assert len(expected) == sum(1 for line in many if line.strip()[:1] not in ("", "#"))
    for cut in (1, 7, 1000, len(expected) - 1):
        part = tmp_path / f"part{cut}.jsonl"
        part.write_text("\n".join(whole.read_text().splitlines()[:cut]) + "\n")
        resumed = run("solve", str(path), "-f", "jsonl", "-n", "2", "-o", str(part),
                      "--resume")
        assert resumed.exit_code in (0, 5)  # the puzzles of this run decide
        assert comparable(part.read_text(), "jsonl") == expected
    workers = tmp_path / "workers.jsonl"
    assert run("solve", str(path), "-f", "jsonl", "-n", "2", "-j", "2",
               "-o", str(workers)).exit_code == 5
    assert comparable(workers.read_text(), "jsonl") == expected


def test_the_items_cover_every_puzzle_once(tmp_path):
    path = tmp_path / "many.txt"
    many = ["\ufeff" + TOP] + [INKALA] * (BLOCK // 50) + ["12345", "# c", TOP]
    path.write_text("\n".join(many) + "\n", encoding="utf-8")
    items = list(lane_items([str(path)], lambda arg: iter(()))(0))
    assert any(isinstance(item, Single) for item in items)
    assert sum(item.count if isinstance(item, Block) else 1 for item in items) == len(many) - 1
    indices = [item.index for item in items]
    assert indices == sorted(indices) and indices[0] == 0


def test_what_the_lane_does_not_take():
    assert applies(SolveTask(fmt="jsonl"))
    for refused in (SolveTask(fmt="pretty"), SolveTask(fmt="json"),
                    SolveTask(fmt="line", time_limit=1.0), SolveTask(fmt="line", rules="x"),
                    SolveTask(fmt="line", backend="dlx"), SolveTask(fmt="line", stats=True),
                    SolveTask(fmt="line", size=16)):
        assert not applies(refused)
    assert isinstance(LaneTask.of(SolveTask(fmt="csv")), SolveTask)


def test_a_dead_block_is_each_puzzle_failed(tmp_path):
    block = Block("f.txt", 3, 10, 2, f"{INKALA}\n# c\n{TOP}\n".encode())
    records = LaneTask.of(SolveTask(fmt="jsonl")).failed(0, block, "its worker died")
    assert records.count == 2 and records.statuses == {"error"}
    lines = [json.loads(line) for line in records.text.splitlines()]
    assert [(r["index"], r["source"]) for r in lines] == [(10, "f.txt:3"), (11, "f.txt:5")]


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "line"])
def test_a_file_name_that_needs_quoting(tmp_path, fmt):
    path = tmp_path / 'odd, "name".txt'
    path.write_text("\n".join(LINES[:7]) + "\n")
    lane = run("solve", str(path), "-f", fmt, "-n", "2")
    ordinary = run("solve", str(path), "-f", fmt, "-n", "2", "--time-limit", "600")
    assert lane.exit_code == ordinary.exit_code
    assert comparable(lane.stdout, fmt) == comparable(ordinary.stdout, fmt)
