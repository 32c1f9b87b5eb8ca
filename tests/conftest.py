"""Shared fixtures: the public puzzle data (../shared/data next to the repository, and
the few small sets copied into tests/data) and random grids."""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest

from cpsudoku.grid.geometry import boxed, infer_box
from cpsudoku.grid.puzzle import Puzzle

# A run started in the background (`cmd &`, nohup) inherits an ignored SIGINT, and so
# would every process the Ctrl-C tests start: give them the usual Ctrl-C back.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = ROOT.parent / "shared" / "data"
# A few small public sets shipped with the tests, laid out as DATA_DIR (see its README):
# what needs only these runs in a clone without ../shared.
BUNDLED_DIR = ROOT / "tests" / "data"


def usable(name: str) -> str:
    """The backend's name, or the test skipped saying why it is not usable here."""
    from cpsudoku import backends
    from cpsudoku.errors import BackendError
    try:
        backends.get(name)
    except (BackendError, ModuleNotFoundError) as exc:
        pytest.skip(f"backend {name} is not usable here: {exc}")
    return name


def _need_shared_data() -> None:
    if not DATA_DIR.is_dir():
        pytest.skip(f"puzzle data not found at {DATA_DIR}")


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The whole public data folder (skips the test when it is missing)."""
    _need_shared_data()
    return DATA_DIR


@pytest.fixture(scope="session")
def bundled_data() -> Path:
    """tests/data, a data folder holding only the small sets shipped with the tests."""
    return BUNDLED_DIR


def data_file(relative: str) -> Path:
    """A data-set file such as "classic/norvig_top95.txt": the copy in tests/data when
    there is one, else the public data's (skips the calling test when that is missing)."""
    if (BUNDLED_DIR / relative).is_file():
        return BUNDLED_DIR / relative
    _need_shared_data()
    return DATA_DIR / relative


def read_set(name: str, limit: int | None = None) -> list[tuple[str, str, int]]:
    """(puzzle line, solution line, capped solution count) triples of a data set, from
    tests/data when it is shipped there, else from the public data (skips the calling
    test when that is missing)."""
    from cpsudoku.bench.datasets import load_set, set_names
    if name in set_names(BUNDLED_DIR):
        return load_set(BUNDLED_DIR, name, limit)
    _need_shared_data()
    return load_set(DATA_DIR, name, limit)


# --- random grids, for property tests ----------------------------------------------

def random_grid(size: int, rng: random.Random) -> list[int]:
    """A valid complete grid: the shifted base pattern, then symmetry-preserving shuffles."""
    br, bc = infer_box(size)
    digits = list(range(1, size + 1))
    rng.shuffle(digits)

    def shuffled_lines(group, count):
        blocks = list(range(count))
        rng.shuffle(blocks)
        out = []
        for b in blocks:
            inner = list(range(group))
            rng.shuffle(inner)
            out += [b * group + i for i in inner]
        return out

    rows = shuffled_lines(br, size // br)  # rows move within bands, bands move as a whole
    cols = shuffled_lines(bc, size // bc)
    return [digits[(bc * (r % br) + r // br + c) % size] for r in rows for c in cols]


def blanked(grid: list[int], size: int, fraction: float, rng: random.Random) -> Puzzle:
    givens = [0 if rng.random() < fraction else v for v in grid]
    return Puzzle(boxed(size), tuple(givens))


@pytest.fixture
def interrupting_backend():
    """A backend named `interrupted` that solves like native until the user presses
    Ctrl-C during its search number `stop_at` (counting the untimed warm-up that
    batch commands do first); registered for the test only."""
    from cpsudoku import backends
    from cpsudoku.backends.base import Backend

    class Interrupting(Backend):
        name = "interrupted"
        description = "raises KeyboardInterrupt on a chosen search"
        stop_at = 3
        calls = 0

        def search(self, model, request):
            type(self).calls += 1
            if type(self).calls == self.stop_at:
                raise KeyboardInterrupt
            return backends.get("native").search(model, request)

    backends.register("interrupted", Interrupting)
    yield Interrupting
    backends.unregister("interrupted")


def cli(*args, stdin: str | None = None):
    """The CLI run in this process (typer's runner), arguments as strings."""
    from typer.testing import CliRunner

    from cpsudoku.cli import app
    return CliRunner().invoke(app, [str(a) for a in args], input=stdin)


def one_error_line(result) -> str:
    """A refusal's one line on standard error, with no traceback anywhere."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def solve_given(how: str, text: str, tmp_path: Path):
    """`cpsudoku solve` of `text` given as an argument, on standard input or in a file."""
    if how == "argument":
        return cli("solve", text)
    if how == "stdin":
        return cli("solve", "-", stdin=text + "\n")
    path = tmp_path / "puzzle.txt"
    path.write_text(text + "\n", encoding="utf-8")
    return cli("solve", path)


def with_two_solutions(grid: str) -> str:
    """A classic puzzle's solution with a rectangle over two boxes blanked whose values
    can swap: a grid of two solutions (no logic tells them apart)."""
    from cpsudoku import solve
    sol = solve(grid).solution
    r1, r2, c1, c2 = next((a, b, c, d) for a in range(3) for b in range(3, 9)
                          for c in range(9) for d in range(c + 1, 9)
                          if c // 3 == d // 3 and sol[a * 9 + c] == sol[b * 9 + d]
                          and sol[a * 9 + d] == sol[b * 9 + c])
    cells = list(sol)
    for r in (r1, r2):
        for c in (c1, c2):
            cells[r * 9 + c] = 0
    return "".join(str(v) if v else "." for v in cells)


def same_graph_searches(compiled, python, pure) -> None:
    """Every search of a compiled chain graph (`chains.Graph` with its C tables) is its
    Python twin's, reached in the same order with the same paths back; `pure(on)` turns
    the compiled searches off and on."""
    for src in python.ons:
        for a, b in zip(compiled.reach_from_on(src), python.reach_from_on(src)):
            assert [(k, a[k]) for k in a] == list(b.items())  # same order reached
        pure(True)
        try:
            nearest = python.nearest_turned_off(src)
        finally:
            pure(False)
        assert compiled.nearest_turned_off(src) == nearest
        dist, parent = compiled.reach_from_off(src, until=src)
        want_dist, want_parent = python.reach_from_off(src, until=src)
        assert dist.get(src) == want_dist.get(src)
        if src in want_dist:
            node = src
            while node is not None:  # the same path back
                assert parent[node] == want_parent[node]
                node = want_parent[node][0]
