"""Chaos constructions shared by the backends' tests: small puzzles whose every
solution (digits, then region labels) a brute force lists from the definition
(`Regions.holds`, through every constraint's check), and the helpers that read them."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from cpsudoku import backends
from cpsudoku.errors import BackendError
from cpsudoku.formats import puzzlefile

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "variants" / "chaos.toml"
ALL = 1000  # max_solutions: more than any small case has, so each is listed whole


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


def iss_puzzle(name: str):
    """A puzzle of the ISS benchmark's collection, and its recorded solution."""
    from cpsudoku.bench.iss import expressed, load_puzzles, recorded_for
    [entry] = [e for e in load_puzzles("all", name=name) if e["name"] == name]
    puzzle, why = expressed(entry)
    assert puzzle is not None, why
    return puzzle, recorded_for(entry["solution"], puzzle.geometry)
