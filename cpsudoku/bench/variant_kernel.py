"""The native engine's compiled variant search beside its Python path, CP-SAT and ISS.

    python -m cpsudoku.bench.variant_kernel [--iss PATH] [--set iss|variants]
        [--repeat 3] [--time-limit 20] [--name TEXT]

Puzzles: ISS's examples that cpsudoku expresses and that hold constraints other
than all-different (`--set iss`, the default; the data is `data/iss_puzzles.json`),
or the files of `examples/variants` (`--set variants`). Per puzzle, the time to
prove the solution unique (two solutions asked for) with the native backend on its
C kernel (`kernel=c`), on its Python path (`kernel=python`), with CP-SAT, and with
ISS in Node when a checkout is given (`bench.iss`'s driver): each the best of
`--repeat` runs, checked against the recorded solution (`C first`: the C kernel's
first run, which also builds the puzzle's structure and kernel). Then the ratio of
the C kernel's best time to ISS's, and a summary: per solver the puzzles right and the
median time; for C against ISS the median and largest ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

from .. import api
from ..engine.plan import compile_model
from ..errors import CpsudokuError, UsageError
from ..formats.read import parse
from ..model import build_model
from ..result import Status
from . import iss

SOLVERS: tuple[tuple[str, str, dict], ...] = (
    ("C", "native", {"kernel": "c"}), ("Python", "native", {"kernel": "python"}),
    ("cpsat", "cpsat", {}))
VARIANTS = Path(__file__).resolve().parents[2] / "examples" / "variants"


def iss_puzzles(name: str | None = None) -> list[tuple[str, object, str | None, tuple | None]]:
    """(name, puzzle, ISS's input, recorded solution) for each expressible ISS example
    with constraints other than all-different."""
    out = []
    for entry in iss.load_puzzles("examples", name=name):
        puzzle, _ = iss.expressed(entry)
        if puzzle is None or not compile_model(build_model(puzzle)).structure.others:
            continue
        expected = iss.recorded_for(entry.get("solution"), puzzle.geometry)
        out.append((entry["name"], puzzle, entry["input"], expected))
    return out


def variant_puzzles(name: str | None = None, folder: Path = VARIANTS):
    """(name, puzzle, None, its recorded solution) for each example variant file."""
    out = []
    for path in sorted(folder.glob("*.toml")) + sorted(folder.glob("*.json")):
        if name and name.lower() not in path.stem.lower():
            continue
        puzzle = parse(path.read_text(encoding="utf-8"), source=path.name)[0]
        expected = puzzle.meta.get("solution")
        out.append((path.stem, puzzle, None, tuple(expected) if expected else None))
    return out


def best_of(puzzle, backend: str, options: dict, expected, time_limit: float,
            repeat: int) -> tuple[iss.Answer, float]:
    """The fastest of `repeat` right answers (one run when it is slow or wrong), and
    the first run's time: the only one that builds the puzzle's structure."""
    best: iss.Answer | None = None
    first = 0.0
    for _ in range(repeat):
        try:
            result = api.solve(puzzle, backend, max_solutions=2, time_limit=time_limit,
                               **options)
        except CpsudokuError as exc:
            return iss.Answer("error", False, detail=str(exc)), first
        first = first or result.time_s
        status = result.status
        right = status is Status.UNIQUE and (expected is None or result.solution == expected)
        if not right:
            shown = "timeout" if status.ran_out_of_time else "wrong" if status is Status.UNIQUE \
                else status.value
            return iss.Answer(shown, False, result.time_s), first
        if best is None or result.time_s < (best.seconds or 0):
            best = iss.Answer("unique", True, result.time_s)
        if result.time_s > 1.0:
            break
    assert best is not None
    return best, first


def iss_best(solver: iss.IssSolver, text: str | None, expected, time_limit: float,
             repeat: int) -> iss.Answer | None:
    if text is None or solver.process is None:
        return None
    best: iss.Answer | None = None
    for _ in range(repeat):
        answer = solver.solve(text, expected, time_limit)
        if not answer.right:
            return answer
        if best is None or (answer.seconds or 0) < (best.seconds or 0):
            best = answer
        if (answer.seconds or 0) > 1.0:
            break
    return best


def ms(answer: iss.Answer | None) -> str:
    if answer is None:
        return "-"
    if not answer.right or answer.seconds is None:
        return answer.status
    value = answer.seconds * 1000
    return f"{value:.2f}" if value < 10 else f"{value:.1f}" if value < 1000 else f"{value:.0f}"


def ratio(c: iss.Answer, other: iss.Answer | None) -> float | None:
    if other is None or not (c.right and other.right) or not other.seconds or not c.seconds:
        return None
    return c.seconds / other.seconds


def run(which: str = "iss", checkout=None, repeat: int = 3, time_limit: float = 20.0,
        name: str | None = None, out=None) -> int:
    """Print the table and the summary; 0 when the C kernel was right on every puzzle."""
    out = out or sys.stdout
    if which not in ("iss", "variants"):
        raise UsageError(f"--set must be iss or variants, not {which!r}")
    if repeat < 1:
        raise UsageError(f"--repeat must be at least 1, not {repeat}")
    if not time_limit > 0:
        raise UsageError(f"--time-limit must be more than 0, not {time_limit:g}")
    puzzles = iss_puzzles(name) if which == "iss" else variant_puzzles(name)
    node = iss.IssSolver(checkout if which == "iss" else None)
    try:
        iss._warm_up([backend for _, backend, _ in SOLVERS], node)
        print(f"{len(puzzles)} puzzles ({which}); ms to prove the solution unique, best of "
              f"{repeat}; time limit {time_limit:g} s", file=out)
        if node.missing and which == "iss":
            print(f"ISS column missing: {node.missing}", file=out)
        names = ["C first"] + [label for label, _, _ in SOLVERS] + ["ISS", "C/ISS"]
        print(f"{'puzzle':<30} " + " ".join(f"{n:>9}" for n in names), file=out)
        rows = []
        for title, puzzle, text, expected in puzzles:
            runs = [best_of(puzzle, backend, options, expected, time_limit, repeat)
                    for _, backend, options in SOLVERS]
            answers = [answer for answer, _ in runs]
            theirs = iss_best(node, text, expected, time_limit, repeat)
            r = ratio(answers[0], theirs)
            rows.append((answers, theirs, r))
            cells = ([ms(iss.Answer("unique", True, runs[0][1])) if answers[0].right else "-"]
                     + [ms(a) for a in answers] + [ms(theirs), "-" if r is None else f"{r:.2f}"])
            print(f"{title[:30]:<30} " + " ".join(f"{c:>9}" for c in cells), file=out,
                  flush=True)
    finally:
        node.close()
    print(summary(rows), file=out)
    return 0 if all(answers[0].right for answers, _, _ in rows) else 1


def summary(rows: Sequence) -> str:
    parts = []
    for i, (label, _, _) in enumerate(SOLVERS):
        right = [answers[i] for answers, _, _ in rows if answers[i].right]
        text = f"{label} right {len(right)}/{len(rows)}"
        if right:
            text += f", median {statistics.median(a.seconds for a in right) * 1000:.2f} ms"
        parts.append(text)
    ratios = [r for _, _, r in rows if r is not None]
    if ratios:
        parts.append(f"C/ISS median {statistics.median(ratios):.2f}, max {max(ratios):.2f} "
                     f"({sum(r > 5 for r in ratios)} over 5)")
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cpsudoku.bench.variant_kernel",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--iss", metavar="PATH", default=os.environ.get(iss.CHECKOUT_ENV),
                        help=f"an ISS checkout (default: ${iss.CHECKOUT_ENV})")
    parser.add_argument("--set", default="iss", choices=("iss", "variants"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--time-limit", "-t", type=float, default=20.0, metavar="SECONDS")
    parser.add_argument("--name", metavar="TEXT", help="only puzzles whose name holds TEXT")
    args = parser.parse_args(argv)
    try:
        return run(args.set, args.iss, args.repeat, args.time_limit, args.name)
    except CpsudokuError as exc:
        print(f"cpsudoku bench variant_kernel: {exc}", file=sys.stderr)
        return exc.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
