"""The variant kernel's propagation on its own (`propagate`, `probe`): what the logical
solver's rule contradictions read. On ISS's example puzzles (shipped with the
package): propagation never removes a solution's value; a traced propagation's
removals replayed give its result; `probe` names exactly the candidates whose
propagation fails, and none of them is the solution's; a failure names a source
the kernel has."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpsudoku.backends.native import propagation_kernel
from cpsudoku.engine import vkernel
from cpsudoku.formats import iss
from cpsudoku.model import build_model

pytestmark = pytest.mark.skipif(not vkernel.available(), reason="the variant kernel is not built")

DATA = Path(__file__).parents[2] / "cpsudoku" / "bench" / "data" / "iss_puzzles.json"
NAMES = ["Arrow", "Killer", "Thermo", "German Whispers", "XV Kropki Sudoku", "Sudoku X",
         "Little Killer Sudoku", "X-Sum", "Clockwork", "Regex line"]


def _entries():
    puzzles = json.loads(DATA.read_text(encoding="utf-8"))["puzzles"]
    by_name = {e["name"]: e for e in puzzles if e["set"] == "examples"}
    return [by_name[name] for name in NAMES]


def _built(entry):
    puzzle = iss.from_string(entry["input"], source=entry["name"])
    found = propagation_kernel(build_model(puzzle))
    assert found is not None, f"{entry['name']}: the kernel takes it"
    plan, kernel, sources = found
    solution = [int(ch) for ch in entry["solution"]]
    return puzzle, plan, kernel, sources, solution


@pytest.fixture(params=_entries(), ids=lambda e: e["name"])
def case(request):
    return _built(request.param)


def _bit(v: int) -> int:
    return 1 << (v - 1)


def test_propagation_keeps_the_solution_and_replays_from_its_trace(case):
    puzzle, plan, kernel, sources, solution = case
    start = list(plan.domains)
    domains, events, failure = kernel.propagate(start, True, True)
    assert failure is None and domains is not None
    for cell, v in enumerate(solution):
        assert domains[cell] & _bit(v), f"r{cell // 9 + 1}c{cell % 9 + 1} lost {v}"
    replay = start[:len(domains)]
    for kind, index, cell, values in events:
        assert 0 <= kind <= 4 and values
        assert replay[cell] & values == values, "a removal takes only candidates still there"
        replay[cell] &= ~values
        if kind == 3:
            assert 0 <= index < len(sources)
    assert replay == domains


def test_probe_names_exactly_the_candidates_whose_propagation_fails(case):
    puzzle, plan, kernel, sources, solution = case
    domains, found, timed_out = kernel.probe(list(plan.domains), list(range(81)), True, None)
    assert not timed_out
    found_set = {(cell, v) for cell, v, _ in found}
    expected = set()
    for cell in range(81):
        m = domains[cell]
        if not m & (m - 1):
            continue
        for v in range(1, 10):
            if m & _bit(v):
                trial = list(domains) + list(plan.domains[len(domains):])
                trial[cell] = _bit(v)
                if kernel.propagate(trial, True)[0] is None:
                    expected.add((cell, v))
    assert found_set == expected
    for cell, v in found_set:
        assert solution[cell] != v, "a contradiction never removes the solution's value"
    assert all(cost >= 0 for _, _, cost in found)


def test_a_failed_propagation_names_its_source(case):
    puzzle, plan, kernel, sources, solution = case
    domains = list(plan.domains)
    first = next(c for c in range(81) if domains[c] & (domains[c] - 1))
    wrong = next(v for v in range(1, 10) if v != solution[first] and domains[first] & _bit(v))
    # the solution everywhere but one cell, which takes a wrong value: something breaks
    for cell, v in enumerate(solution):
        domains[cell] = _bit(v)
    domains[first] = _bit(wrong)
    result, events, failure = kernel.propagate(domains, False, True)
    assert result is None
    kind, index, cell = failure
    assert kind in (0, 1, 2, 3, 4)
    if kind == 3:
        assert sources[index][0].describe()
    assert -1 <= cell < len(domains)


def test_bad_arguments_are_refused_by_name():
    puzzle, plan, kernel, sources, solution = _built(_entries()[0])
    with pytest.raises(ValueError, match="probe cells"):
        kernel.probe(list(plan.domains), [10_000])
    with pytest.raises(ValueError, match="domain of cell"):
        kernel.propagate([-1] * len(plan.domains))
    with pytest.raises(TypeError):
        kernel.probe(list(plan.domains), list(range(81)), True, "soon")
    empty = list(plan.domains)
    empty[0] = 0
    result, events, failure = kernel.propagate(empty, False, True)
    assert result is None and failure[0] == 0
