"""Every backend on every variant example: the time to prove its solution unique.

    python -m cpsudoku.bench.variants [FOLDER] [--backends native,cpsat] [--repeat 3]
        [--time-limit 60] [--only whispers,renban]

FOLDER defaults to `examples/variants`. Each cell of the table is the best of
`--repeat` runs of `solve(puzzle, backend, max_solutions=2)` in milliseconds
(the status must be unique with the recorded solution, else the cell says
what happened instead: `t/o`, `wrong`, `--` for a backend that declines the
puzzle's rules). Backends run in this process; the first run of each backend
(importing its library, starting its child process) is not counted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .. import backends as B
from ..api import solve
from ..errors import BackendError
from ..formats.read import parse


def measure(puzzle, backend: str, repeat: int, time_limit: float) -> str:
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        try:
            result = solve(puzzle, backend, max_solutions=2, time_limit=time_limit)
        except BackendError:
            return "--"
        elapsed = time.perf_counter() - t0
        if result.status.value in ("timeout", "unproven"):
            return "t/o"
        if result.status.value != "unique" or result.solution != puzzle.meta.get("solution"):
            return "wrong"
        best = elapsed if best is None else min(best, elapsed)
    ms = (best or 0.0) * 1000
    return f"{ms:.0f}" if ms >= 10 else f"{ms:.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cpsudoku.bench.variants",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default="examples/variants")
    parser.add_argument("--backends", default=None,
                        help="comma-separated (default: every installed backend)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--only", default=None, help="comma-separated file stems")
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    paths = sorted(folder.glob("*.toml")) + sorted(folder.glob("*.json"))
    if args.only:
        wanted = {s.strip() for s in args.only.split(",")}
        paths = [p for p in paths if p.stem in wanted]
    if not paths:
        print(f"no puzzle files in {folder}", file=sys.stderr)
        return 2
    names = ([n.strip() for n in args.backends.split(",")] if args.backends
             else B.installed())
    puzzles = [(p.stem, parse(p.read_text(encoding="utf-8"), source=p.name)[0]) for p in paths]
    for name in names:  # warm-up: imports and child processes are not the puzzle's time
        measure(puzzles[0][1], name, 1, args.time_limit)
    width = max(len(stem) for stem, _ in puzzles)
    print(f"milliseconds to prove the solution unique (best of {args.repeat}; "
          f"t/o: over {args.time_limit:g} s; --: declined)")
    print(f"{'example':<{width}}  " + "  ".join(f"{n:>8}" for n in names))
    for stem, puzzle in puzzles:
        cells = [measure(puzzle, n, args.repeat, args.time_limit) for n in names]
        print(f"{stem:<{width}}  " + "  ".join(f"{c:>8}" for c in cells), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
