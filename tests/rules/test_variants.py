"""Variant rules on every backend: the examples, the killer data set, random puzzles.

Every rule lowers to the shared vocabulary, so every backend must give the same
answer; the independent checker judges each solution.
"""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest
from conftest import data_file, usable
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpsudoku import backends, boxed, is_solution, parse, rules, solve
from cpsudoku.errors import BackendError
from cpsudoku.grid.constraints import (
    AllDifferent,
    Allowed,
    AnyOf,
    InSet,
    Less,
    RegionRuns,
    Regions,
    Regular,
    SameCount,
    SameSet,
    Sandwich,
    Sum,
    XSum,
)
from cpsudoku.grid.geometry import regions_from_labels
from cpsudoku.grid.puzzle import Puzzle
from cpsudoku.grid.ranks import FullRank
from cpsudoku.rules import XV, Cage, Killer, Kropki, Mark

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "variants").glob("*.toml")) + sorted(
    (ROOT / "examples" / "variants").glob("*.json"))
BACKENDS = backends.names()


def available() -> list[str]:
    out = []
    for name in BACKENDS:
        try:
            backends.get(name)
        except (BackendError, ModuleNotFoundError):
            continue
        out.append(name)
    return out


def declines(backend: str, puzzle: Puzzle) -> bool:
    """Whether the backend refuses the puzzle's rules (dlx: exact cover has no sums,
    orderings or tables; naive and dlx search no auxiliary variables), checked on the
    lowered model."""
    from cpsudoku.model import build_model, lower_for
    model, engine = build_model(puzzle), backends.get(backend)
    if model.aux_domains and not engine.auxiliary:  # it searches the grid's digits only
        return True
    try:
        lower_for(model, engine.native_kinds, backend)
    except BackendError as exc:
        assert "cannot be expressed" in str(exc)
        return True
    return False


def load(path: Path) -> Puzzle:
    [puzzle] = parse(path.read_text(encoding="utf-8"), source=path.name)
    return puzzle


# --- every example puzzle on every backend --------------------------------------------

# Pairs measured over a second (python -m cpsudoku.bench.variants): run with -m slow.
SLOW_EXAMPLES = {("double-arrows", "mip"), ("double-arrows", "naive"),
                 ("dutch-whispers", "naive"), ("modular-lines", "naive"),
                 ("palindromes", "naive"), ("whispers", "naive"),
                 ("anti-taxicab", "mip"), ("anti-taxicab", "choco"), ("anti-taxicab", "cpsat"),
                 ("same-values", "naive"), ("look-and-say", "naive"),
                 ("sum-line-loops", "naive"), ("sum-line-loops", "choco"),
                 ("distinct-counts", "naive"), ("distinct-region-counts", "cpsat"),
                 ("distinct-region-counts", "sat"), ("sum-line-loops", "cpsat"),
                 ("same-regions", "python-constraint")}
# Pairs that do not finish in minutes (measured: over 120 s each): the backend is held
# to what it finishes, never a wrong answer, within a short limit.
TOO_SLOW = {("distinct-region-counts", "mip"), ("distinct-region-counts", "choco"),
            ("distinct-region-counts", "python-constraint"), ("same-regions", "mip")}


def example_cases():
    for path in EXAMPLES:
        for backend in BACKENDS:
            marks = [pytest.mark.slow] if (path.stem, backend) in SLOW_EXAMPLES else []
            yield pytest.param(path, backend, marks=marks, id=f"{backend}-{path.name}")


@pytest.mark.cross
@pytest.mark.parametrize("path, backend", list(example_cases()))
def test_example_is_unique_with_its_recorded_solution(path, backend):
    puzzle = load(path)
    expected = puzzle.meta["solution"]
    assert is_solution(puzzle, expected), "the recorded solution breaks the puzzle's rules"
    if declines(usable(backend), puzzle):
        with pytest.raises(BackendError, match="cannot be expressed"):
            solve(puzzle, backend, max_solutions=2)
        return
    if (path.stem, backend) in TOO_SLOW:
        result = solve(puzzle, usable(backend), max_solutions=2, time_limit=5)
        assert result.status.value in ("timeout", "unique"), result.status
        assert result.status.value == "timeout" or result.solution == expected
        return
    result = solve(puzzle, usable(backend), max_solutions=2, time_limit=120)
    assert result.status.value == "unique", result.status
    assert result.solution == expected
    assert is_solution(puzzle, result.solution)


@pytest.mark.unit
def test_rules_lower_only_to_the_vocabulary():
    vocabulary = (AllDifferent, Sum, Less, Allowed, InSet, Regular, RegionRuns, SameSet,
                  SameCount, Sandwich, XSum, Regions, AnyOf, FullRank)
    for path in EXAMPLES:
        puzzle = load(path)
        for rule in puzzle.rules:
            for con in rule.constraints(puzzle.geometry):
                assert type(con) in vocabulary and con.label, (path.name, con)


def test_every_rule_has_an_example():
    used = set()
    for path in EXAMPLES:
        puzzle = load(path)
        used.update(rule.name for rule in puzzle.rules)
        if puzzle.geometry.box is None:
            used.add("jigsaw")
    assert set(rules.names()) <= used
    assert {"killer", "little-killer", "thermometer", "arrow", "parity", "kropki", "xv",
            "greater-than", "extra-region", "jigsaw"} <= used
    assert {cls.name for cls in rules.LINE_RULES} <= used


def test_every_puzzle_file_key_has_an_example():
    keys = {key.split(" ")[0] for key, _ in rules.describe_elements()}
    used = set()
    for path in EXAMPLES:
        if path.suffix == ".toml":
            used.update(tomllib.loads(path.read_text()))
    assert keys - used == set()


# --- the killer data set: every backend but naive, which may only decline -------------

@pytest.fixture(scope="module")
def killers():
    path = data_file("variants/constraintsolver_jl_killer_9x9.jsonl")
    puzzles = parse(path.read_text(encoding="utf-8"), source=path.name)
    assert len(puzzles) == 7 and all(not any(p.givens) for p in puzzles)
    return puzzles


@pytest.fixture(scope="module")
def killer_solutions(killers):
    """Reference answers from CP-SAT, checked independently."""
    out = []
    for puzzle in killers:
        result = solve(puzzle, usable("cpsat"), max_solutions=2, time_limit=60)
        assert result.status.value == "unique" and is_solution(puzzle, result.solution)
        out.append(result.solution)
    return out


# CP-SAT gives the reference answers above.
# Without the killer "45 rule" the integer program and Choco's default search need
# more than the limit on some of these (measured on a busy machine): they must then
# say so (timeout, or one solution not proven unique), never answer wrongly. In the
# default run they take the first two puzzles, 5 s each; -m slow runs all seven.
MAY_RUN_OUT = {"mip", "choco"}


def killer_param(backend: str, slow: bool = False):
    marks = [pytest.mark.slow] if slow else []
    if backend in MAY_RUN_OUT:
        marks.append(pytest.mark.timing)  # may wait out its limit on every puzzle
    return pytest.param(backend, marks=marks, id=backend + ("-all" if slow else ""))


@pytest.mark.parametrize("backend", [killer_param(b) for b in
                                     ("native", "python-constraint", "sat", "mip", "choco")]
                         + [killer_param(b, slow=True) for b in sorted(MAY_RUN_OUT)])
def test_killer_data_set(backend, killers, killer_solutions, request):
    whole = request.node.callspec.id.endswith("-all")
    pairs = list(zip(killers, killer_solutions))
    if backend in MAY_RUN_OUT and not whole:
        pairs = pairs[:2]
    for puzzle, expected in pairs:
        limit = 5 if backend in MAY_RUN_OUT and not whole else 30
        result = solve(puzzle, usable(backend), max_solutions=2, time_limit=limit)
        if backend in MAY_RUN_OUT and result.stats["timed_out"]:
            assert result.status.value in ("timeout", "unproven"), puzzle.name
            assert all(s == expected for s in result.solutions), puzzle.name
            continue
        assert (result.status.value, result.solution) == ("unique", expected), puzzle.name


@pytest.mark.timing  # naive runs out of its 1 s on both
def test_naive_never_answers_a_killer_wrongly(killers, killer_solutions):
    for puzzle, expected in list(zip(killers, killer_solutions))[:2]:
        result = solve(puzzle, usable("naive"), max_solutions=2, time_limit=1)
        assert result.status.value in ("unique", "unproven", "timeout"), puzzle.name
        assert all(s == expected for s in result.solutions)


# --- random puzzles built from random valid grids: all backends agree -----------------

RULE_SETS = {
    "diagonal+anti-knight": (["diagonal", "anti-knight"], None),
    "windoku+disjoint-groups": (["windoku", "disjoint-groups"], None),
    "non-consecutive": (["non-consecutive"], None),
    "killer cages": ([], "cages"),
    "jigsaw+anti-king": (["anti-king"], "jigsaw"),
    "kropki and XV, all given": ([], "marks"),
}
JIGSAW = ("442229999"
          "442229919"
          "442229918"
          "447777118"
          "477551118"
          "775551818"
          "375558888"
          "333566666"
          "333336666")  # the layout of examples/variants/jigsaw.toml


def random_grid(geometry, chosen, rnd: random.Random):
    """A valid grid for the rules: CP-SAT on an empty grid with a few random givens."""
    n = geometry.size
    for _ in range(50):
        givens = [0] * (n * n)
        for cell in rnd.sample(range(n * n), 4):
            givens[cell] = rnd.randint(1, n)
        puzzle = Puzzle(geometry, tuple(givens), tuple(chosen))
        result = solve(puzzle, usable("cpsat"), time_limit=30, workers=1)
        if result.solution:
            return result.solution
    pytest.fail("no valid grid found")


def random_cages(grid, n, rnd: random.Random) -> Killer:
    """Cages of 2-3 orthogonally joined cells with different digits, sums from the grid."""
    free, cages = set(range(n * n)), []
    while free:
        cage = [rnd.choice(sorted(free))]
        free.discard(cage[0])
        for _ in range(rnd.randint(1, 2)):
            r, c = divmod(cage[-1], n)
            near = [x for x in (cage[-1] + 1 if c + 1 < n else -1, cage[-1] + n)
                    if x in free and grid[x] not in {grid[y] for y in cage}]
            if near:
                cage.append(rnd.choice(near))
                free.discard(cage[-1])
        if len(cage) > 1:
            cages.append(Cage.of(sum(grid[x] for x in cage),
                                 [(x // n + 1, x % n + 1) for x in cage]))
    return Killer(cages)


def all_marks(grid, n) -> list:
    """Every kropki dot and X/V mark the grid shows, with both negative rules."""
    dots, xv = [], []
    for a in range(n * n):
        for b in (a + 1, a + n):
            if (b == a + 1 and b % n == 0) or b >= n * n:
                continue
            x, y = grid[a], grid[b]
            pair = [(a // n + 1, a % n + 1), (b // n + 1, b % n + 1)]
            if abs(x - y) == 1:
                dots.append(Mark.of("white", pair))
            elif x == 2 * y or y == 2 * x:
                dots.append(Mark.of("black", pair))
            if x + y in (5, 10):
                xv.append(Mark.of("X" if x + y == 10 else "V", pair))
    return [Kropki(dots, negative=["white", "black"]), XV(xv, negative=["x", "v"])]


@pytest.mark.parametrize("rule_set", list(RULE_SETS))
@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_backends_agree_on_random_puzzles(rule_set, seed):
    names, extra = RULE_SETS[rule_set]
    rnd = random.Random(seed)
    geometry = regions_from_labels(JIGSAW, 9) if extra == "jigsaw" else boxed(9)
    chosen = rules.by_names(names)
    grid = random_grid(geometry, chosen, rnd)
    if extra == "cages":
        chosen = chosen + [random_cages(grid, 9, rnd)]
    if extra == "marks":
        chosen = chosen + all_marks(grid, 9)
    keep = set(rnd.sample(range(81), 36 if extra not in ("cages", "marks") else 20))
    puzzle = Puzzle(geometry, tuple(v if i in keep else 0 for i, v in enumerate(grid)),
                    tuple(chosen))
    answers = {}
    for backend in available():
        if declines(backend, puzzle):
            continue
        limit = 5 if backend == "naive" else 120
        result = solve(puzzle, usable(backend), max_solutions=2, time_limit=limit)
        assert all(is_solution(puzzle, s) for s in result.solutions), backend
        assert grid in result.solutions or result.status.value != "unique"
        if result.status.value != "timeout":
            answers[backend] = (result.status.value, tuple(result.solutions)
                                if result.status.value == "unique" else None)
        else:
            assert backend == "naive", f"{backend} timed out"
    assert len(set(answers.values())) == 1, answers


# --- size-generic rules --------------------------------------------------------------

def test_sixteen_by_sixteen_diagonal_and_windoku():
    g16 = boxed(16)
    [diagonal, windoku] = rules.by_names("diagonal,windoku")
    assert [len(c.cells) for c in diagonal.constraints(g16)] == [16, 16]
    assert len(list(windoku.constraints(g16))) == 9
    puzzle = Puzzle(g16, (0,) * 256, (diagonal, windoku))
    result = solve(puzzle, usable("native"), time_limit=60)
    assert result.status.value == "solved" and is_solution(puzzle, result.solution)


def test_six_by_six_anti_knight_and_disjoint_groups_solve():
    puzzle = Puzzle(boxed(6), (0,) * 36, tuple(rules.by_names("anti-king,disjoint-groups")))
    for backend in ("native", "cpsat"):
        result = solve(puzzle, usable(backend), max_solutions=2, time_limit=60)
        assert result.solutions and is_solution(puzzle, result.solutions[0])
