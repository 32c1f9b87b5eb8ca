"""Every benchmark module refuses absurd options with one line and exit 2 (or the
error's own code), before measuring anything: never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.process  # each case runs a benchmark module as a process

CASES = [
    ("cpsudoku.bench.backends", ["--limit", "0"], 2, "--limit must be at least 1"),
    ("cpsudoku.bench.backends", ["--limits", "x"], 2, "--limits takes seconds"),
    ("cpsudoku.bench.backends", ["--limits", "-1"], 2, "positive numbers of seconds"),
    ("cpsudoku.bench.backends", ["--backends", "native,bogus"], 6, "unknown backend 'bogus'"),
    ("cpsudoku.bench.batch", ["--limit", "-5"], 2, "--limit must be at least 1"),
    ("cpsudoku.bench.batch", ["--parts", "bogus"], 2, "--parts: unknown bogus"),
    ("cpsudoku.bench.generate", ["--count", "-1"], 2, "--count must be at least 1"),
    ("cpsudoku.bench.generate", ["--seconds", "nan"], 2, "--seconds must be a positive"),
    ("cpsudoku.bench.rating", ["--limit", "-1"], 2, "--limit must be 0 or more"),
    ("cpsudoku.bench.rating", ["--speed", "-5"], 2, "--speed must be 0 or more"),
    ("cpsudoku.bench.play", ["--runs", "0"], 2, "--runs must be at least 1"),
    ("cpsudoku.bench.play", ["--backends", "bogus"], 2, "unknown backend 'bogus'"),
]


@pytest.mark.parametrize(("module", "args", "code", "message"), CASES,
                         ids=[f"{m.split('.')[-1]}:{' '.join(a)}" for m, a, _, _ in CASES])
def test_a_bad_option_is_one_line(module, args, code, message):
    done = subprocess.run([sys.executable, "-m", module, *args], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == code, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""  # nothing measured, not even a table's header
