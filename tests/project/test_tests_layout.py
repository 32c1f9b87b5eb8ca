"""The tests' own layout: folders mirror the package, and pytest imports each test file
by its name alone (there are no __init__.py files), so no two may share one."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_no_two_test_files_share_a_name():
    names = Counter(p.name for p in TESTS.rglob("*.py"))
    shared = sorted(name for name, count in names.items() if count > 1)
    assert not shared, f"test files with the same name in two folders: {shared}"
    assert not list(TESTS.rglob("__init__.py"))
