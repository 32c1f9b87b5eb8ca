"""The test tiers: `pytest -m unit` selects at least 500 tests, none of which starts a
process, drives a browser, waits on real time, belongs to the slow run or to a cross
product; the count the documentation gives is the one collection finds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
DEVELOPMENT = ROOT / "docs" / "development.md"
NOT_UNIT = {"slow", "process", "timing", "browser", "cross"}


class Markers:
    """A pytest plugin that keeps each collected test's marker names."""

    def __init__(self) -> None:
        self.items: dict[str, set[str]] = {}
        self.errors: list[str] = []

    def pytest_collection_modifyitems(self, items) -> None:
        for item in items:
            self.items[item.nodeid] = {mark.name for mark in item.iter_markers()}

    def pytest_collectreport(self, report) -> None:
        if report.failed:
            self.errors.append(report.nodeid)


@pytest.fixture(scope="module")
def markers() -> dict[str, set[str]]:
    """Every test of the suite (no marker deselected) with its markers, collected in
    this process."""
    plugin = Markers()
    pytest.main(["--collect-only", "-q", "-m", "", "-p", "no:cacheprovider",
                 "--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"), str(TESTS)],
                plugins=[plugin])
    assert not plugin.errors, f"modules that did not collect: {plugin.errors}"
    return plugin.items


def unit_tests(markers: dict[str, set[str]]) -> list[str]:
    return [node for node, names in markers.items() if "unit" in names]


def test_the_unit_tier_holds_at_least_500_tests(markers):
    assert len(unit_tests(markers)) >= 500


def test_no_unit_test_is_also_slow_a_process_timed_a_browser_or_a_cross_product(markers):
    mixed = {node: sorted(names & NOT_UNIT) for node, names in markers.items()
             if "unit" in names and names & NOT_UNIT}
    assert not mixed, mixed


def test_the_documented_count_is_the_collected_one(markers):
    """docs/development.md gives the unit tier's size; it stays within a tenth of what
    `pytest --collect-only -q -m unit` counts."""
    found = re.search(r"`(?:python -m )?pytest -m unit`[^.]*?([\d,]+) tests",
                      DEVELOPMENT.read_text(encoding="utf-8"))
    assert found, "docs/development.md gives no count for `pytest -m unit`"
    documented = int(found.group(1).replace(",", ""))
    collected = len(unit_tests(markers))
    assert abs(documented - collected) <= collected / 10, (
        f"docs/development.md says {documented} unit tests, collection finds {collected}: "
        "recount with `python -m pytest -q -p no:cacheprovider --collect-only -m unit`")
