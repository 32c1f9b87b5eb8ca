"""Shared fixtures: the public puzzle data (../shared/data next to the repository)."""

from __future__ import annotations

from pathlib import Path

import pytest

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
    from cpsudoku.bench import load_set
    return load_set(DATA_DIR, name, limit)
