"""Generation throughput, printed as a table: `python -m cpsudoku.bench.generate`.

Each row makes puzzles for a while on one core and reports puzzles per second and
clue counts. Every puzzle is then checked outside the timing: unique by CP-SAT
(not by the engine that made it) and, where minimal puzzles were asked for,
minimal (each clue blanked gives several solutions, by the native engine).
Installed peers (hodoku-py, pencilmark) run beside, their puzzles checked the same way.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..api import count
from ..generator.core import generate
from ..grid.geometry import boxed
from ..grid.puzzle import Puzzle


@dataclass
class Row:
    name: str
    goal: str = ""
    times: list[float] = field(default_factory=list)
    clues: list[int] = field(default_factory=list)
    unique: int = 0
    minimal: int | None = None
    note: str = ""

    def cells(self) -> list[str]:
        n = len(self.times)
        if not n:
            return [self.name, "0", "-", "-", "-", "-", "-", self.goal, self.note]
        total = sum(self.times)
        minimal = "-" if self.minimal is None else f"{self.minimal}/{n}"
        return [self.name, str(n), f"{n / total:.2f}", f"{1000 * statistics.mean(self.times):.0f}",
                f"{statistics.mean(self.clues):.1f}", f"{self.unique}/{n}", minimal, self.goal,
                self.note]


HEADER = ["generator", "puzzles", "puzzles/s", "mean ms", "mean clues", "unique (cpsat)",
          "minimal", "goal", "note"]


def run(row: Row, make: Callable[[int], tuple[Puzzle, tuple[int, ...] | None]], count_: int,
        seconds: float, minimal: bool) -> Row:
    """Make up to `count_` puzzles (stopping after `seconds`), then check them."""
    made = []
    started = time.monotonic()
    for i in range(count_):
        t0 = time.perf_counter()
        try:
            puzzle, solution = make(i)
        except Exception as exc:  # a peer's failure is a result to show, not a crash
            row.note = f"failed: {type(exc).__name__}: {str(exc)[:60]}"
            break
        row.times.append(time.perf_counter() - t0)
        row.clues.append(sum(1 for v in puzzle.givens if v))
        made.append((puzzle, solution))
        if time.monotonic() - started > seconds:
            break
    row.unique = sum(1 for p, s in made if _unique(p, s))
    if minimal:
        row.minimal = sum(1 for p, _ in made if _minimal(p))
    return row


def _unique(puzzle: Puzzle, solution) -> bool:
    result = count(puzzle, "cpsat", limit=2)
    return result.status.value == "unique" and (solution is None
                                                 or result.solution == tuple(solution))


def _minimal(puzzle: Puzzle) -> bool:
    for cell, v in enumerate(puzzle.givens):
        if v:
            givens = list(puzzle.givens)
            givens[cell] = 0
            if count(replace(puzzle, givens=tuple(givens)), limit=2).status.value != "multiple":
                return False
    return True


def ours(**options) -> Callable[[int], tuple[Puzzle, tuple[int, ...]]]:
    def make(i: int):
        made = generate(seed=1, index=i, **options)
        return made.puzzle, made.solution
    return make


def hodoku_py():
    try:
        from hodoku.generator import SudokuGenerator
    except ImportError:
        return None
    gen = SudokuGenerator(random.Random(1))

    def make(i: int):
        text = gen.generate_sudoku(symmetric=False)
        if text is None:
            raise RuntimeError("hodoku-py made no puzzle")
        return Puzzle.from_values([int(ch) for ch in text]), None
    return make


def pencilmark(seconds: float):
    try:
        from pencilmark.gen.api import generate as pm_generate
    except ImportError:
        return None

    def make(i: int):
        out = pm_generate({"size": 9, "seed": i + 1, "solver": "cpsat", "time_limit": seconds})
        grid = out["puzzle"]["grid"] if "grid" in out["puzzle"] else out["puzzle"]
        values = [int(cell.get("value", 0)) if cell.get("given") else 0
                  for row in grid for cell in row]
        return Puzzle(boxed(9), tuple(values)), None
    return make


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="puzzles per 9x9 row")
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="stop a row after this long (default 30)")
    parser.add_argument("--no-peers", action="store_true", help="only cpsudoku's rows")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error(f"--count must be at least 1, not {args.count}")
    if not 0 < args.seconds < float("inf"):
        parser.error(f"--seconds must be a positive number, not {args.seconds}")
    few = max(3, args.count // 10)
    plan: list[tuple[Row, Callable | None, int, bool]] = [
        (Row("cpsudoku 9x9 minimal", ">= 40/s, <= 25 clues"), ours(), args.count, True),
        (Row("cpsudoku 9x9 rot180"), ours(symmetry="rot180"), args.count, False),
        (Row("cpsudoku 16x16 minimal", ">= 1/s"), ours(size=16), few, True),
        (Row("cpsudoku killer 9x9, 0 givens", ">= 1/s"), ours(killer=True), few, False),
    ]
    if not args.no_peers:
        plan.append((Row("hodoku-py 9x9 (random removal)"), hodoku_py(), args.count, True))
        made = pencilmark(args.seconds)
        plan.append((Row("pencilmark 9x9 (cpsat)"), made and in_child(made, args.seconds),
                     few, True))
    widths = [34, 7, 9, 8, 10, 14, 7, 20, 0]
    print(_line(HEADER, widths))
    print("-|-".join("-" * w for w in widths[:-1]) + "-|-----")
    try:
        for row, make, n, minimal in plan:
            if make is None:
                row.note = "not installed"
            else:
                run(row, make, n, args.seconds, minimal)
            print(_line(row.cells(), widths), flush=True)  # each row as it finishes
    except KeyboardInterrupt:
        print("# interrupted: the rows above are complete")


def _line(cells: list[str], widths: list[int]) -> str:
    return " | ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()


def in_child(make: Callable, seconds: float) -> Callable:
    """`make` run in a forked child that is stopped after `seconds`: a peer library
    that overruns its own time limit cannot stall the benchmark (9x9 puzzles only)."""
    import multiprocessing

    def guarded(i: int):
        ctx = multiprocessing.get_context("fork")
        receive, send = ctx.Pipe(duplex=False)

        def child() -> None:
            try:
                puzzle, _ = make(i)
                send.send(("ok", puzzle.givens))
            except Exception as exc:
                send.send(("error", f"{type(exc).__name__}: {exc}"))

        proc = ctx.Process(target=child, daemon=True)
        proc.start()
        try:
            if not receive.poll(seconds):
                raise TimeoutError(f"no puzzle within {seconds:g} s")
            kind, value = receive.recv()
        finally:
            proc.kill()
            proc.join()
        if kind != "ok":
            raise RuntimeError(value)
        return Puzzle(boxed(9), tuple(value)), None
    return guarded


if __name__ == "__main__":
    main()
