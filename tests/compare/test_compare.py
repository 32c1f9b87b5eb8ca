"""The comparison engine: real backends agree, and a broken one is caught."""

from __future__ import annotations

import csv
import json

import pytest
from rich.console import Console

from cpsudoku import backends, parse
from cpsudoku.backends.base import Backend
from cpsudoku.compare import (
    plot,
    print_report,
    run_compare,
    summarise,
    write_csv,
    write_json,
)
from cpsudoku.result import Outcome

ALL = ["native", "naive", "python-constraint", "cpsat"]
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
MANY = "." * 81  # many solutions
CONTRADICTORY = "11" + "." * 79


@pytest.fixture(scope="module")
def report():
    """Every backend on four puzzles; naive spends its whole 5 s limit on Inkala (the
    tests that use this are marked timing)."""
    puzzles = parse("\n".join([INKALA, EASY, MANY, CONTRADICTORY]), source="set.txt")
    ticks = []
    rep = run_compare(puzzles, ALL, time_limit=5, max_solutions=2, progress=lambda: ticks.append(1))
    rep.ticks = len(ticks)
    return rep


@pytest.mark.timing
def test_all_backends_agree(report):
    assert report.disagreements == []
    assert report.ticks == 4  # once per puzzle, when every backend answered it
    assert len(report.rows) == 4 * len(ALL)
    by_puzzle = {}
    for row in report.rows:
        # naive may run out of time (timeout, or "unproven" before proving uniqueness)
        if row.status not in ("timeout", "unproven"):
            by_puzzle.setdefault(row.index, set()).add(row.status)
    assert by_puzzle[1] == {"unique"} and by_puzzle[3] == {"multiple"}
    assert by_puzzle[4] == {"unsolvable"}
    assert {row.solution for row in report.rows if row.index == 1 and row.solution} == {
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452"}


@pytest.mark.timing
def test_summary_per_backend(report):
    assert [s.backend for s in report.summaries] == ALL
    for s in report.summaries:
        assert s.puzzles == 4
        assert s.solved + s.unsolvable + s.timeouts == 4
        assert s.median_ms <= s.p95_ms <= s.max_ms
    cpsat = next(s for s in report.summaries if s.backend == "cpsat")
    assert cpsat.solved == 3 and cpsat.unsolvable == 1 and cpsat.mean_nodes is not None


@pytest.mark.timing
def test_outputs(report, tmp_path):
    write_csv(report, tmp_path / "rows.csv")
    with open(tmp_path / "rows.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(report.rows) and rows[0]["source"] == "set.txt:1"
    write_json(report, tmp_path / "rows.json")
    data = json.loads((tmp_path / "rows.json").read_text())
    assert len(data["rows"]) == len(report.rows) and data["disagreements"] == []
    assert [s["backend"] for s in data["summary"]] == ALL
    console = Console(record=True, width=200)
    print_report(report, console)
    text = console.export_text()
    assert "no disagreement" in text and all(name in text for name in ALL)


@pytest.mark.timing
def test_plot(report, tmp_path):
    pytest.importorskip("matplotlib")
    plot(report, tmp_path / "times.png")
    assert (tmp_path / "times.png").read_bytes()[:4] == b"\x89PNG"


def test_presolve_runs_side_by_side():
    rep = run_compare(parse(INKALA), ["native", "cpsat"], time_limit=5, presolve=True)
    assert rep.runs == ["native", "cpsat", "cpsat+presolve"]  # native propagates anyway
    assert [r.presolve for r in rep.rows] == [False, False, True]
    assert rep.disagreements == []


def test_percentiles_of_known_times():
    from cpsudoku.compare import Row
    rows = [Row(i, "", "x", "unique", t / 1000, None, "") for i, t in enumerate(range(1, 101))]
    s = summarise("x", rows)
    assert (s.median_ms, s.p95_ms, s.max_ms) == (50.5, 95, 100)
    assert s.mean_nodes is None


# --- a broken backend is caught ----------------------------------------------------

class _WrongGrid(Backend):
    """Answers a grid that keeps the givens but breaks the rules."""

    name = "broken"
    description = "test only: a wrong solution"
    native_kinds = frozenset({"alldifferent", "sum", "less", "allowed"})

    def search(self, model, request):
        return Outcome([tuple(min(d) for d in model.domains)], exhausted=True)


class _AlwaysUnsolvable(Backend):
    name = "nosolution"
    description = "test only: claims there is no solution"

    def search(self, model, request):
        return Outcome([], exhausted=True)


@pytest.fixture
def registered():
    added = []

    def add(name, cls):
        backends.register(name, cls)
        added.append(name)
        return name

    yield add
    for name in added:
        backends.unregister(name)


def test_wrong_solution_is_a_disagreement(registered):
    broken = registered("broken", _WrongGrid)
    rep = run_compare(parse(INKALA), ["native", broken], time_limit=5)
    kinds = {d.kind for d in rep.disagreements}
    assert "invalid" in kinds  # the checker rejects the grid
    assert "solution" in kinds  # both claim a unique solution, and not the same one
    invalid = next(d for d in rep.disagreements if d.kind == "invalid")
    assert invalid.index == 1 and "broken" in invalid.message and "breaks a rule" in invalid.message
    console = Console(record=True, width=200)
    print_report(rep, console)
    text = console.export_text()
    assert "2 disagreement(s)" in text and "broken" in text


def test_contradicting_status_is_a_disagreement(registered):
    liar = registered("nosolution", _AlwaysUnsolvable)
    rep = run_compare(parse(INKALA), ["cpsat", liar], time_limit=5)
    assert [d.kind for d in rep.disagreements] == ["status"]
    assert "cpsat: unique" in rep.disagreements[0].message
    assert "nosolution: unsolvable" in rep.disagreements[0].message


@pytest.mark.timing
def test_timeout_is_not_a_disagreement():
    hard = parse(open_set_line("norvig_top95"))
    rep = run_compare(hard, ["native", "naive"], time_limit=0.05)
    assert rep.disagreements == []
    assert (1, "naive") in rep.timeouts


def open_set_line(name: str) -> str:
    from conftest import read_set
    return read_set(name, 1)[0][0]


def test_plot_marks_timeouts_as_censored(tmp_path):
    """A run that ran out of time is drawn as censored beside the limit's line, the
    title names the input and the limit, and small sets show every point."""
    pytest.importorskip("matplotlib")
    rep = run_compare(parse(f"{INKALA}\n{EASY}"), ["native"], time_limit=5)
    timed_out = rep.rows[0].__class__(**{**rep.rows[0].__dict__, "backend": "naive",
                                         "status": "timeout", "time_s": 5.0})
    rep.rows.append(timed_out)
    rep.runs.append("naive")
    fig = plot(rep, tmp_path / "times.png", input_name="set.txt")
    ax = fig.axes[0]
    assert "set.txt" in ax.get_title() and "time limit 5 s" in ax.get_title()
    labels = ax.get_legend_handles_labels()[1]
    assert "time limit 5 s" in labels and any("censored" in label for label in labels)
    assert any(line.get_ydata()[0] == 5000 for line in ax.get_lines())  # the limit, in ms
    assert len(ax.collections) >= 2  # native's points and naive's censored marker
    assert ax.yaxis.get_gridlines()[0].get_visible()
    from PIL import Image
    assert Image.open(tmp_path / "times.png").info["dpi"][0] == pytest.approx(150, abs=1)


@pytest.mark.process
@pytest.mark.timing
@pytest.mark.parametrize("signal_name, code", [("SIGTERM", 143), ("SIGKILL", -9)])
def test_rows_survive_a_signal(tmp_path, signal_name, code):
    """compare writes each finished puzzle's rows at once: SIGTERM ends the run in
    order (complete CSV and JSON), SIGKILL leaves every row written so far."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{INKALA}\n" * 2000)
    csv_path, json_path = tmp_path / "rows.csv", tmp_path / "rows.json"
    proc = subprocess.Popen([sys.executable, "-m", "cpsudoku", "compare", str(puzzles),
                             "--backends", "native", "--csv", str(csv_path),
                             "--json", str(json_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=dict(os.environ, PYTHONPATH=str(root)))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if csv_path.exists() and len(csv_path.read_text().splitlines()) >= 4:
            break
        time.sleep(0.05)
    proc.send_signal(getattr(signal, signal_name))
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    rows = list(csv.DictReader(csv_path.read_text().splitlines()))
    assert len(rows) >= 3 and all(r["status"] == "solved" or r["status"] == "unique"
                                  for r in rows)
    text = json_path.read_text()
    if signal_name == "SIGTERM":
        data = json.loads(text)
        assert data["interrupted"] is True and len(data["rows"]) == len(rows)
        assert b"terminated after" in err
    else:  # no end written: every row is still one whole line
        lines = [line.strip().rstrip(",") for line in text.splitlines()]
        kept = [json.loads(line) for line in lines if line.startswith('{"index"')]
        assert len(kept) >= len(rows) - 1 and kept[0]["solution"] == rows[0]["solution"]
