"""The public puzzle sets with their solutions (../shared/data, or a folder given with
--data): finding the folder, listing and loading the sets."""

from __future__ import annotations

import csv
from pathlib import Path

from ..errors import CpsudokuError
from ..grid.puzzle import Puzzle
from ..grid.symbols import value_of

DEFAULT_SETS = ("norvig_top95", "norvig_hardest", "forum_hardest_1106", "magictour_top1465",
                "royle_17clue", "gecode_16x16")
SUBFOLDERS = ("classic", "sizes", "variants")
REFERENCE_MAX_SIZE = 16  # the reference has no time limit; 25x25 minimal puzzles defeat it


class DataError(CpsudokuError):
    """The data folder or a set is missing, or a set's file is malformed."""



def find_data_dir(explicit: str | Path | None = None) -> Path:
    """The puzzle data folder: `explicit`, else ../shared/data relative to the
    current directory or to the repository root."""
    if explicit is not None:
        path = Path(explicit)
        if not path.is_dir():
            raise DataError(f"data folder {path} does not exist")
        return path
    repo_root = Path(__file__).resolve().parents[2]
    tried = []
    for base in (Path.cwd(), repo_root):
        path = (base / ".." / "shared" / "data").resolve()
        tried.append(str(path))
        if path.is_dir():
            return path
    raise DataError("puzzle data not found (looked in " + ", ".join(tried)
                    + "); give its folder with --data DIR")


def set_names(data_dir: Path) -> list[str]:
    """Every set with solutions: NAME.txt with NAME.sol, or a Kaggle-style NAME.csv."""
    names: set[str] = set()
    for sub in SUBFOLDERS:
        folder = data_dir / sub
        if folder.is_dir():
            names.update(p.stem for p in folder.glob("*.sol"))
            names.update(p.stem for p in folder.glob("*.csv"))
    return sorted(names)


def load_set(data_dir: Path, name: str, limit: int | None = None) -> list[tuple[str, str, int]]:
    """(puzzle line, solution line, capped solution count) triples of a set."""
    for sub in SUBFOLDERS:
        folder = data_dir / sub
        sol = folder / f"{name}.sol"
        if sol.is_file() and (folder / f"{name}.txt").is_file():
            puzzles = _lines(folder / f"{name}.txt")
            answers = [_answer(sol, k, line) for k, line in enumerate(_lines(sol), 1)]
            if len(puzzles) != len(answers):
                raise DataError(f"{name}: {len(puzzles)} puzzles but {len(answers)} "
                                f"solution lines")
            rows = [(p, a, n) for p, (a, n) in zip(puzzles, answers)]
            return rows[:limit] if limit else rows
        table = folder / f"{name}.csv"
        if table.is_file():
            rows = []
            with table.open(newline="") as f:
                for k, rec in enumerate(csv.DictReader(f), 2):
                    try:
                        rows.append((rec["puzzle"], rec["solution"], int(rec.get("nsol") or 1)))
                    except (KeyError, TypeError, ValueError):
                        raise DataError(f"{table}:{k}: expected the columns puzzle, "
                                        f"solution and an optional nsol") from None
                    if limit and len(rows) >= limit:
                        break
            return rows
    raise DataError(f"no data set {name!r} in {data_dir}; choose from: "
                    + ", ".join(set_names(data_dir)))


def _answer(path: Path, number: int, line: str) -> tuple[str, int]:
    """A solution line `SOLUTION,COUNT` (the count capped as the set records it)."""
    solution, _, count = line.partition(",")
    if not count.strip().isdigit():
        raise DataError(f"{path}: solution line {number}: expected SOLUTION,COUNT, "
                        f"not {line[:40]!r}")
    return solution, int(count)


def _lines(path: Path) -> list[str]:
    with path.open() as f:
        return [s for s in (raw.strip() for raw in f) if s and not s.startswith("#")]


def puzzle_of(line: str):
    """A data set's one-line puzzle (its symbols as the sets write them)."""
    values = [v for v in map(value_of, line) if v is not None]
    if len(values) != len(line):
        raise DataError(f"not a one-line puzzle: {line[:40]!r}")
    return Puzzle.from_values(values)


