"""The public puzzle sets with their solutions (../shared/data, or a folder given with
--data or CPSUDOKU_DATA): finding the folder, listing and loading the sets."""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import CpsudokuError
from ..grid.puzzle import Puzzle
from ..grid.symbols import value_of

DEFAULT_SETS = ("norvig_top95", "norvig_hardest", "forum_hardest_1106", "magictour_top1465",
                "royle_17clue", "gecode_16x16")
SUBFOLDERS = ("classic", "sizes", "variants")
REFERENCE_MAX_SIZE = 16  # the reference has no time limit; 25x25 minimal puzzles defeat it
ENV_VAR = "CPSUDOKU_DATA"
# The sets are not shipped with the package (the large ones are megabytes), so a user
# needs to be told where they come from and how to point cpsudoku at a copy.
HOW_TO_GET = (
    "The sets are public: each entry above names its origin and licence. A checkout of "
    "the repository ships the small ones in tests/data (--data tests/data).",
    "For the others, fetch them from their origins and lay them out as the files listed: "
    "NAME.txt one puzzle a line (. for a blank; 16x16 and 25x25 use 1-9 then A-P), "
    "NAME.sol one SOLUTION,COUNT line per puzzle (the count of solutions capped at 2), "
    "a Kaggle sample as NAME.csv with the columns puzzle, solution and nsol.",
    f"Then give that folder with --data DIR or {ENV_VAR}=DIR, or put it at "
    "../shared/data beside the repository.",
)


class DataError(CpsudokuError):
    """The data folder or a set is missing, or a set's file is malformed."""


@dataclass(frozen=True)
class KnownSet:
    """A public set the benchmarks know: where its files go and what it holds."""

    name: str
    folder: str
    puzzles: int
    grid: str
    about: str
    origin: str
    table: bool = False  # a Kaggle-style NAME.csv rather than NAME.txt with NAME.sol

    def files(self) -> tuple[str, ...]:
        if self.table:
            return (f"{self.folder}/{self.name}.csv",)
        return (f"{self.folder}/{self.name}.txt", f"{self.folder}/{self.name}.sol")


KNOWN_SETS = (
    KnownSet("norvig_easy50", "classic", 50, "9x9", "easy puzzles (Project Euler 96)",
             "norvig/pytudes, MIT"),
    KnownSet("norvig_top95", "classic", 95, "9x9", 'the classic "top95" hard set',
             "magictour via norvig/pytudes, MIT"),
    KnownSet("norvig_hardest", "classic", 11, "9x9", '"hardest" puzzles collected by Norvig',
             "norvig/pytudes, MIT"),
    KnownSet("magictour_top1465", "classic", 1465, "9x9", "magictour's top1465",
             "t-dillon/tdoku's benchmark data, BSD-2"),
    KnownSet("forum_hardest_1106", "classic", 375, "9x9",
             "hardest puzzles of the Enjoy Sudoku forum list",
             "t-dillon/tdoku's benchmark data, BSD-2"),
    KnownSet("royle_17clue", "classic", 49158, "9x9", "every known 17-clue puzzle",
             "Gordon Royle's list via t-dillon/tdoku, CC BY 2.5"),
    KnownSet("serg_benchmark", "classic", 10000, "9x9", "puzzles with 2 or more solutions",
             "t-dillon/tdoku's benchmark data, BSD-2"),
    KnownSet("gecode_9x9", "classic", 18, "9x9", "Gecode's example instances",
             "Gecode/gecode, MIT-style"),
    KnownSet("kaggle_rohanrao_10k", "classic", 10000, "9x9",
             "a sample of the 9M Kaggle set, with solutions", "Kaggle (rohanrao), public domain",
             table=True),
    KnownSet("kaggle_radcliffe_sample7034", "classic", 7034, "9x9",
             "a sample of the 3M rated Kaggle set, with solutions",
             "Kaggle (radcliffe), CC0", table=True),
    KnownSet("gecode_16x16", "sizes", 55, "16x16", "16x16 puzzles, all unique",
             "Gecode/gecode, MIT-style"),
    KnownSet("gecode_25x25", "sizes", 18, "25x25", "minimal 25x25 puzzles, all unique",
             "Gecode/gecode, MIT-style"),
)
KNOWN = {known.name: known for known in KNOWN_SETS}
DEFAULT_ORIGIN = "../shared/data, the default"


def default_data_dirs() -> list[Path]:
    """Where the data folder is looked for without --data: ../shared/data relative to
    the current directory, then to the repository root."""
    repo_root = Path(__file__).resolve().parents[2]
    places = []
    for base in (Path.cwd(), repo_root):
        path = (base / ".." / "shared" / "data").resolve()
        if path not in places:
            places.append(path)
    return places


def data_dir_candidates(explicit: str | Path | None = None) -> tuple[list[Path], str]:
    """The folders to look in, in order, and where they came from (for messages)."""
    if explicit is not None:
        return [Path(explicit)], "--data"
    from_env = os.environ.get(ENV_VAR)
    if from_env:
        return [Path(from_env)], ENV_VAR
    return default_data_dirs(), DEFAULT_ORIGIN


def find_data_dir(explicit: str | Path | None = None) -> Path:
    """The puzzle data folder: `explicit`, else $CPSUDOKU_DATA, else ../shared/data
    relative to the current directory or to the repository root."""
    places, origin = data_dir_candidates(explicit)
    for path in places:
        if path.is_dir():
            return path
    if origin != DEFAULT_ORIGIN:
        raise DataError(f"data folder {places[0]} (from {origin}) does not exist "
                        f"(cpsudoku bench --list: the sets and how to get them)")
    raise DataError("puzzle data not found (looked in " + ", ".join(map(str, places))
                    + f"); give its folder with --data DIR or {ENV_VAR}=DIR "
                    "(cpsudoku bench --list: the sets and how to get them)")


def listing(explicit: str | Path | None = None, width: int = 88) -> list[str]:
    """`bench --list`: every known set (what it is, its files and whether they are
    there), any other set the data folder holds, and how to get the sets that are
    missing. Never fails for a missing folder: saying what to fetch is its point."""
    import textwrap

    places, origin = data_dir_candidates(explicit)
    data_dir = next((path for path in places if path.is_dir()), None)
    if data_dir is not None:
        lines = [f"Data folder: {data_dir} (from {origin})"]
    elif origin == DEFAULT_ORIGIN:
        lines = ["Data folder: not found (looked in " + ", ".join(map(str, places)) + ")"]
    else:
        lines = [f"Data folder: {places[0]} (from {origin}) does not exist"]
    lines.append("")
    missing_any = False
    for known in KNOWN_SETS:
        default = " (run by default)" if known.name in DEFAULT_SETS else ""
        lines.append(f"{known.name}  {known.puzzles:,} puzzles, {known.grid}{default}")
        lines.append(f"    {known.about}; from {known.origin}")
        absent = [f for f in known.files() if data_dir is None or not (data_dir / f).is_file()]
        missing_any = missing_any or bool(absent)
        if not absent:
            state = "found"
        elif len(absent) == len(known.files()):
            state = "missing"
        else:
            state = "missing " + ", ".join(absent)
        lines.append(f"    {', '.join(known.files())}: {state}")
    others = [n for n in set_names(data_dir) if n not in KNOWN] if data_dir else []
    if others:
        lines += ["", "Other sets in the data folder: " + ", ".join(others)]
    if missing_any:
        lines.append("")
        for paragraph in HOW_TO_GET:
            lines += textwrap.wrap(paragraph, width)
    return lines


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
    known = KNOWN.get(name)
    if known is not None:
        missing = [str(data_dir.resolve() / f) for f in known.files()
                   if not (data_dir / f).is_file()]
        raise DataError(f"data set {name}: {', '.join(missing)} not found; give the folder "
                        f"holding {known.folder}/ with --data DIR or {ENV_VAR}=DIR "
                        f"(cpsudoku bench --list: the sets and how to get them)")
    raise DataError(f"no data set {name!r} in {data_dir}; choose from: "
                    + ", ".join(sorted(set(set_names(data_dir)) | set(KNOWN))))


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


