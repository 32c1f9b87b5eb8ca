"""Shared fixtures: the public puzzle data (../shared/data next to the repository)."""

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

DATA_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if not DATA_DIR.is_dir():
        pytest.skip(f"puzzle data not found at {DATA_DIR}")
    return DATA_DIR


def read_set(name: str, limit: int | None = None) -> list[tuple[str, str, int]]:
    """(puzzle line, solution line, capped solution count) triples of a data set
    (skips the calling test when the data is missing)."""
    if not DATA_DIR.is_dir():
        pytest.skip(f"puzzle data not found at {DATA_DIR}")
    from cpsudoku.bench.datasets import load_set
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
