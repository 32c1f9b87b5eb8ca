"""`-t` bounds a puzzle's whole work, and what cannot be done in bounded size is refused
at once: hostile puzzle files run through the real command line, each within a wall
time bound (Python's start-up included) and with one line on stderr, never a traceback."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cpsudoku.errors import ExitCode

pytestmark = [pytest.mark.process, pytest.mark.timing]

WALL = 15.0  # seconds for `-t 5`, start-up included, on a shared two-core machine
BLANK = 'size = 9\ngrid = """\n' + "\n".join(["........."] * 9) + '\n"""\n'
CELLS = [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)]


def run(path: Path, *args: str) -> tuple[int, str, float]:
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "cpsudoku", "solve", "-t", "5", *args,
                           str(path)], capture_output=True, text=True, timeout=90)
    return proc.returncode, proc.stderr, time.monotonic() - started


def one_line(stderr: str) -> str:
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def automaton_file(path: Path, transitions) -> Path:
    with path.open("w") as out:
        out.write(BLANK + '[[automata]]\ncells = ["r1c1", "r1c2", "r1c3", "r1c4"]\n'
                          'start = 0\naccepting = [0]\ntransitions = [\n')
        for s, v, t in transitions:
            out.write(f"[{s}, {v}, {t}],\n")
        out.write("]\n")
    return path


def test_five_thousand_extra_regions_get_an_answer_in_time(tmp_path):
    rng = random.Random(1)
    regions = ",\n".join('"' + " ".join(rng.sample(CELLS, 9)) + '"' for _ in range(5000))
    path = tmp_path / "regions.toml"
    path.write_text(BLANK + f"extra_regions = [\n{regions}\n]\n")
    code, stderr, seconds = run(path)
    assert code in (ExitCode.UNSOLVABLE, ExitCode.TIMEOUT), stderr
    assert "Traceback" not in stderr
    assert seconds < WALL


def test_reading_past_the_time_limit_is_a_timeout_naming_the_stage(tmp_path):
    rng = random.Random(2)
    regions = ",\n".join('"' + " ".join(rng.sample(CELLS, 9)) + '"' for _ in range(5000))
    path = tmp_path / "regions.toml"
    path.write_text(BLANK + f"extra_regions = [\n{regions}\n]\n")
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "cpsudoku", "solve", "-t", "0.001",
                           str(path)], capture_output=True, text=True, timeout=90)
    assert proc.returncode == ExitCode.TIMEOUT
    assert "time limit of 0.001 s reached while reading" in one_line(proc.stderr)
    assert time.monotonic() - started < WALL


@pytest.mark.parametrize("pattern", ["((.{0,64}){0,64}){0,64}", "(.{0,64}){0,64}"])
def test_a_pattern_expanding_past_the_limit_is_refused_at_once(tmp_path, pattern):
    path = tmp_path / "regex.toml"
    path.write_text(BLANK + '[[regex_lines]]\ncells = ["r1c1", "r1c2", "r1c3", "r1c4"]\n'
                            f'pattern = "{pattern}"\n')
    code, stderr, seconds = run(path)
    assert code == ExitCode.BAD_INPUT
    line = one_line(stderr)
    assert "regex line 1" in line and "more than the 4096 a pattern may expand to" in line
    assert seconds < WALL


@pytest.mark.parametrize("count", [1_000_000, 3_300_000])  # files of about 16 and 55 MB
def test_a_huge_automaton_file_is_refused_unread(tmp_path, count):
    rng = random.Random(3)
    moves = [(rng.randrange(4096), rng.randint(1, 9), rng.randrange(4096)) for _ in range(1000)]
    path = automaton_file(tmp_path / "huge.toml", (moves[i % 1000] for i in range(count)))
    code, stderr, seconds = run(path)
    assert code == ExitCode.BAD_INPUT
    line = one_line(stderr)
    assert "huge.toml" in line and "longer than 1048576 characters" in line
    assert seconds < WALL


def test_a_dense_300_state_automaton_is_refused(tmp_path):
    dense = ((s, v, t) for s in range(300) for v in range(1, 10) for t in range(300))
    code, stderr, seconds = run(automaton_file(tmp_path / "dense.toml", dense))
    assert code == ExitCode.BAD_INPUT
    assert "longer than 1048576 characters" in one_line(stderr)
    assert seconds < WALL
    # as many states, with transitions a document can hold: the automaton's own limit
    rng = random.Random(4)
    some = {(rng.randrange(300), rng.randint(1, 9), rng.randrange(300)) for _ in range(40_000)}
    code, stderr, seconds = run(automaton_file(tmp_path / "wide.toml", sorted(some)))
    assert code == ExitCode.BAD_INPUT
    line = one_line(stderr)
    assert "automaton 1" in line and "(states x transitions)" in line
    assert seconds < WALL
