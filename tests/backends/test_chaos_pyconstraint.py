"""The python-constraint backend on chaos constructions: the region labels are variables
of the library's search, and `Regions` one constraint of its interface
(`_pyconstraint_library.Regions`) that rejects partial assignments that can no longer
become a partition and hides the values that would break one.

Held to CP-SAT and to a brute force that keeps what the definition keeps
(`Regions.holds`, through every constraint's check): every solution found, none twice,
two partitions of one grid as two solutions; and the constraint alone, on partial
assignments of valid solutions, never rejects one nor hides one of its values."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from cpsudoku import backends, parse, solve
from cpsudoku.errors import BackendError
from cpsudoku.formats import puzzlefile
from cpsudoku.grid.constraints import Regions

pc = pytest.importorskip("constraint", reason="python-constraint2 is not installed")
library = pytest.importorskip("cpsudoku.backends._pyconstraint_library")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "variants" / "chaos.toml"
ALL = 1000  # max_solutions: more than any small case has, so each is listed whole
LIMIT = 300  # seconds: a generous bound, never reached


def cpsat() -> str:
    try:
        backends.get("cpsat")
    except (BackendError, ModuleNotFoundError) as exc:
        pytest.skip(f"backend cpsat is not usable here: {exc}")
    return "cpsat"


def chaos(size: int, grid: str, **extra):
    """A chaos puzzle of rows (the geometry's regions, which rows repeat), its givens
    and clues: the form of a puzzle file."""
    data = {"size": size, "regions": [str(r) * size for r in range(1, size + 1)],
            "rules": ["chaos"], "grid": grid, **extra}
    return puzzlefile.from_dict(data, "chaos")


SMALL = {
    "arrow": chaos(4, "1......." "..3....2", chaos_arrows=[{"cell": "r2c2"}]),
    "count": chaos(4, ".....2.." "....3..4", chaos_counts=[{"cell": "r3c3"}]),
    "arrow and count": chaos(4, "1......." ".......4", chaos_arrows=[{"cell": "r1c4"}],
                             chaos_counts=[{"cell": "r3c2"}]),
    "more digits than cells a row": chaos(3, "1.3.2....", digits="1-4"),  # V = 4 > N = 3
}
# Every digit given: the solutions differ by their regions alone.
ONE_GRID = chaos(4, "1234" "3412" "2143" "4321")
# r1c1 = 4 with the start left out: a run of 4 more cells, in a region of 4.
TOO_LONG = chaos(4, "4" + "." * 15, chaos_arrows=[{"cell": "r1c1", "offset": 1}])


def splits(n: int):
    """Labellings that split the n x n grid into n orthogonally connected pieces of n
    cells, each label given to the piece of the first cell left (so in the order of the
    pieces' first cells): every partition `Regions.holds` can accept, and more."""
    m = n * n
    labels = [0] * m

    def place(label: int):
        free = [i for i in range(m) if not labels[i]]
        if not free:
            yield tuple(labels)
            return
        for others in itertools.combinations(free[1:], n - 1):
            piece = (free[0],) + others
            if joined(piece, n):
                for i in piece:
                    labels[i] = label
                yield from place(label + 1)
                for i in piece:
                    labels[i] = 0

    yield from place(1)


def joined(piece, n: int) -> bool:
    """Whether grid positions form one orthogonal piece."""
    inside, reached, todo = set(piece), {piece[0]}, [piece[0]]
    while todo:
        i = todo.pop()
        for j in (i - n, i + n, i - 1 if i % n else -1, i + 1 if (i + 1) % n else -1):
            if j in inside and j not in reached:
                reached.add(j)
                todo.append(j)
    return reached == inside


def grids(puzzle):
    """Every digit grid with its givens and different digits in each row and column."""
    n, values = puzzle.geometry.size, puzzle.geometry.values
    rows: list[tuple[int, ...]] = []

    def fill(r: int):
        if r == n:
            yield tuple(v for row in rows for v in row)
            return
        given = puzzle.givens[r * n:(r + 1) * n]
        for row in itertools.permutations(range(1, values + 1), n):
            if all(g in (0, v) for g, v in zip(given, row)) \
                    and all(v not in column for v, column in zip(row, zip(*rows))):
                rows.append(row)
                yield from fill(r + 1)
                rows.pop()

    yield from fill(0)


def brute_force(puzzle) -> set[tuple[int, ...]]:
    """Every solution, digits then labels: each grid with each split, kept when every
    constraint of the puzzle holds (the partition's by `Regions.holds`)."""
    constraints = puzzle.constraints()
    labellings = list(splits(puzzle.geometry.size))
    return {grid + labels for grid in grids(puzzle) for labels in labellings
            if all(con.check(grid + labels) for con in constraints)}


def found(result) -> list[tuple[int, ...]]:
    """The solutions of a result, each its digits then its labels."""
    assert result.stats.get("timed_out") is False
    return [digits + labels for digits, labels in zip(result.solutions, result.variables or [])]


def test_python_constraint_searches_auxiliary_variables():
    assert "python-constraint" in backends.with_auxiliary()


@pytest.mark.slow  # about 30 s: the constraint prunes far less than a solver's propagators
def test_the_example_is_unique_as_on_cpsat():
    [puzzle] = parse(EXAMPLE.read_text(encoding="utf-8"), source=EXAMPLE.name)
    result = solve(puzzle, "python-constraint", max_solutions=2, time_limit=LIMIT)
    reference = solve(puzzle, cpsat(), max_solutions=2, time_limit=LIMIT)
    assert result.status.value == reference.status.value == "unique"
    assert result.solutions == reference.solutions == [puzzle.meta["solution"]]
    assert result.variables == reference.variables



def iss_puzzle(name: str):
    """A puzzle of the ISS benchmark's collection, and its recorded solution."""
    from cpsudoku.bench.iss import expressed, load_puzzles, recorded_for
    [entry] = [e for e in load_puzzles("all", name=name) if e["name"] == name]
    puzzle, why = expressed(entry)
    assert puzzle is not None, why
    return puzzle, recorded_for(entry["solution"], puzzle.geometry)


@pytest.mark.parametrize("name, shape", [
    ("Order From Chaos", (6, 9)),  # 6x6 of digits 1-9: a region holds 6 of them
    ("Chaos Construction: cell count", (6, 6)),
])
def test_iss_puzzles_are_unique_as_on_cpsat(name, shape):
    puzzle, solution = iss_puzzle(name)
    assert (puzzle.geometry.size, puzzle.geometry.values) == shape
    result = solve(puzzle, "python-constraint", max_solutions=2, time_limit=LIMIT)
    reference = solve(puzzle, cpsat(), max_solutions=2, time_limit=LIMIT)
    assert result.status.value == reference.status.value == "unique"
    assert result.solutions == reference.solutions == [solution]
    assert result.variables == reference.variables

@pytest.mark.parametrize("name", sorted(SMALL))
def test_every_solution_of_a_small_puzzle_once(name):
    puzzle = SMALL[name]
    expected = brute_force(puzzle)
    assert 1 < len(expected) < ALL
    solutions = found(solve(puzzle, "python-constraint", max_solutions=ALL, time_limit=LIMIT))
    assert len(solutions) == len(set(solutions))  # none twice
    assert set(solutions) == expected
    assert set(found(solve(puzzle, cpsat(), max_solutions=ALL, time_limit=LIMIT))) == expected


def test_two_partitions_of_one_grid_are_two_solutions():
    expected = brute_force(ONE_GRID)
    result = solve(ONE_GRID, "python-constraint", max_solutions=ALL, time_limit=LIMIT)
    assert result.status.value == "multiple"
    assert set(result.solutions) == {ONE_GRID.givens}  # the digits are all given
    partitions = result.variables or []
    assert len(set(partitions)) == len(partitions) == len(expected) > 1
    assert set(found(result)) == expected


def test_a_run_longer_than_a_region_is_unsolvable():
    assert not brute_force(TOO_LONG)
    result = solve(TOO_LONG, "python-constraint", max_solutions=2, time_limit=LIMIT)
    assert result.status.value == "unsolvable" and result.reason is None  # searched


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
