"""python-constraint's `Regions` constraint alone (`_pyconstraint_library.Regions`),
on partial assignments: it rejects those that can no longer become a partition and
hides the values that would break one, and never rejects a partial assignment of a
valid solution nor hides one of its values. (The backend on whole chaos puzzles, with
the other backends: test_chaos_backends.py.)"""

from __future__ import annotations

import random

import pytest
from chaos_cases import splits

from cpsudoku.grid.constraints import Regions

pc = pytest.importorskip("constraint", reason="python-constraint2 is not installed")
library = pytest.importorskip("cpsudoku.backends._pyconstraint_library")

# --- the constraint alone, on partial assignments ------------------------------------

N = 4
M = N * N
VARIABLES = list(range(2 * M))  # the digits, then the labels


def constraint(values: int = N):
    return library.Regions(N, Regions(tuple(VARIABLES), width=N).holds, values)


def domains(values: int = N) -> dict:
    return {v: pc.Domain(list(range(1, (values if v < M else N) + 1))) for v in VARIABLES}


def valid_solutions(rng: random.Random) -> list[tuple[int, ...]]:
    """Digits and labels that `Regions` accepts: every split of the 4x4 grid, each
    region's digits in a random order (rows and columns may repeat one)."""
    out = []
    for labels in splits(N):
        digits = [0] * M
        for label in range(1, N + 1):
            cells = [i for i in range(M) if labels[i] == label]
            for cell, digit in zip(cells, rng.sample(range(1, N + 1), N)):
                digits[cell] = digit
        out.append(tuple(digits) + labels)
    return out


def test_partial_assignments_of_solutions_are_kept_with_their_values():
    """Sound: with any cells of a solution assigned, the constraint passes and forward
    checking leaves every free cell the value the solution gives it."""
    rng = random.Random(7)
    for solution in valid_solutions(rng):
        assert Regions(tuple(VARIABLES), width=N).holds(solution)
        for _ in range(8):
            kept = rng.sample(VARIABLES, rng.randint(1, 2 * M))
            assignments = {v: solution[v] for v in sorted(kept)}
            doms = domains()
            for dom in doms.values():
                dom.pushState()
            assert constraint()(VARIABLES, doms, assignments, True), (solution, kept)
            for v in VARIABLES:
                if v not in assignments:
                    assert solution[v] in doms[v], (solution, kept, v)


def test_pre_processing_keeps_canonical_labels_only():
    doms = domains()
    constraint().preProcess(VARIABLES, doms, [], {})
    assert [list(doms[M + i]) for i in range(4)] == [[1], [1, 2], [1, 2, 3], [1, 2, 3, 4]]
    assert all(list(doms[v]) == [1, 2, 3, 4] for v in range(M))  # the digits untouched


def test_a_complete_assignment_is_the_definition():
    rng = random.Random(3)
    holds = Regions(tuple(VARIABLES), width=N).holds
    solutions = valid_solutions(rng)
    for _ in range(300):
        values = list(rng.choice(solutions))
        for _ in range(rng.randint(0, 2)):  # a few cells changed, or none
            values[rng.randrange(2 * M)] = rng.randint(1, N)
        assert constraint()(VARIABLES, domains(), dict(enumerate(values))) == holds(values)


ROWS = (1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4)
LATIN = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)


def labels_only(labels: dict[int, int]) -> dict[int, int]:
    """An assignment of some labels (cell -> label), no digit."""
    return {M + cell: label for cell, label in labels.items()}


@pytest.mark.parametrize("why, assignments", [
    ("a label before the one below it", labels_only({0: 1, 1: 3})),
    ("a label on five cells", labels_only({i: 1 for i in range(5)})),
    ("a digit twice in a region", {0: 1, 5: 1, M: 1, M + 5: 1}),
    ("a cell cut off from the rest of its region", labels_only({0: 1, 1: 2, 4: 2, 5: 2,
                                                               15: 1})),
    ("two cells of a region too far apart to be joined", labels_only({0: 1, 15: 1})),
    ("a region cut off too small to hold four cells", labels_only({0: 1, 2: 2, 5: 2, 8: 2})),
])
def test_a_partial_assignment_that_cannot_become_a_partition_fails(why, assignments):
    assert not constraint()(VARIABLES, domains(), assignments, True), why
    assert not constraint()(VARIABLES, domains(), assignments, False), why


def test_a_label_with_too_few_cells_left_fails():
    # rows 1 and 2, and r3c1-r4c2 as regions; r3c3 and r3c4 may not take label 4
    assignments = labels_only({i: ROWS[i] for i in range(8)} | {8: 3, 9: 3, 12: 3, 13: 3})
    doms = domains()
    for cell in (10, 11):
        doms[M + cell].remove(4)
    assert not constraint()(VARIABLES, doms, assignments, True)


def test_a_free_digit_of_a_known_region_loses_its_digits():
    assignments = {M + i: ROWS[i] for i in range(M)}  # the rows as regions
    assignments.update({i: LATIN[i] for i in range(M) if i != 3})
    doms = domains()
    for dom in doms.values():
        dom.pushState()
    assert constraint()(VARIABLES, doms, assignments, True)
    assert list(doms[3]) == [LATIN[3]]


def test_a_pair_only_one_cell_can_take_goes_there():
    """V = N: region 1 lacks a 4 that only r1c4 (label and digit free) can bring."""
    assignments = {M + i: ROWS[i] for i in range(M) if i != 3}
    assignments.update({i: LATIN[i] for i in range(M) if i != 3})
    doms = domains()
    for dom in doms.values():
        dom.pushState()
    assert constraint()(VARIABLES, doms, assignments, True)
    assert (list(doms[M + 3]), list(doms[3])) == ([1], [LATIN[3]])


def test_more_digits_than_labels_do_not_ask_for_every_digit():
    """V > N: a region holds N of the V digits, so a missing digit is not forced."""
    assignments = {M + i: ROWS[i] for i in range(M)}
    assignments.update({0: 1, 1: 2, 2: 3})  # row 1 holds 1, 2, 3: r1c4 may be 4 or 5
    doms = domains(values=5)
    for dom in doms.values():
        dom.pushState()
    assert constraint(values=5)(VARIABLES, doms, assignments, True)
    assert sorted(doms[3]) == [4, 5]
