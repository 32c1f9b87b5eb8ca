"""Benchmark of the logical solver: agreement with Sudoku Explainer, soundness, speed.

    python -m cpsudoku.bench.rating [--data ../shared/data] [--limit N] [--speed N]

Prints three tables: ER agreement with SE's ratings per band (exact, within 0.3,
Spearman's rho), soundness (every placement is the solution's value, no
elimination removes it) over the rated set and slices of the classic sets, and
rate time on royle_17clue and norvig_top95 beside hodoku-py and pencilmark when
they are installed (measured, never required).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ..formats.read import parse_one
from ..logic.levels import level_of
from ..logic.solver import Solver
from .stats import spearman

BANDS = ((0.0, 1.5), (1.6, 2.8), (2.9, 4.5), (4.6, 6.9), (7.0, 7.9), (8.0, 99.0))


def audited_rating(line: str) -> tuple[float, float, float, bool, list[str]]:
    """(ER, EP, ED, stuck, problems): the rating, and every unsound step found on the way.
    `stuck`: no technique applied before the end, so the puzzle is beyond the scale and
    ER is only the hardest step made."""
    puzzle = parse_one(line)
    solver = Solver(puzzle)
    solution = solver.solution
    er = ep = ed = 0.0
    placed = False
    problems = []
    state = solver.start()
    for step in solver.run(state):
        er = max(er, step.rating)
        if step.number == 1:
            ed = step.rating
        if not placed:
            ep = max(ep, step.rating)
            placed = bool(step.placements)
        if solver.unique and solution is not None:
            bad = [f"{c}={v}" for c, v in step.placements if solution[c] != v]
            bad += [f"{c}<>{v}" for c, v in step.eliminations if solution[c] == v]
            if bad:
                problems.append(f"{line}: step {step.number} {step.text} removes the solution "
                                f"({', '.join(bad)})")
    return er, ep, ed, solver.stuck, problems


def calibration(path: Path, limit: int | None, out) -> list[str]:
    rows: list[tuple[str, float, float, float]] = []
    for raw in path.read_text().splitlines():
        if raw.strip() and not raw.startswith("#"):
            fields = raw.split()
            rows.append((fields[0], float(fields[1]), float(fields[2]), float(fields[3])))
    rows = rows[:limit] if limit else rows
    mine, problems, times = [], [], []
    for i, (p, *_rest) in enumerate(rows):
        t = time.perf_counter()
        er, ep, ed, stuck, bad = audited_rating(p)
        times.append(time.perf_counter() - t)
        mine.append((er, ep, ed, stuck))
        problems += bad
        if (i + 1) % 50 == 0:
            print(f"  ... {i + 1}/{len(rows)} rated", file=sys.stderr, flush=True)
    out(f"\nER agreement with Sudoku Explainer ({path.name}, {len(rows)} puzzles)\n")
    out("| SE ER band | puzzles | exact | within 0.3 | mean abs diff | beyond the scale |")
    out("|---|---|---|---|---|---|")
    for lo, hi in BANDS:
        idx = [i for i, r in enumerate(rows) if lo <= r[1] <= hi]
        if not idx:
            continue
        diffs = [abs(mine[i][0] - rows[i][1]) for i in idx]
        out(f"| {lo:.1f}-{min(hi, 11.0):.1f} | {len(idx)} | "
            f"{sum(d < 0.05 for d in diffs) / len(idx):.1%} | "
            f"{sum(d <= 0.3 + 1e-9 for d in diffs) / len(idx):.1%} | "
            f"{statistics.fmean(diffs):.2f} | {sum(mine[i][3] for i in idx)} |")
    low = [i for i, r in enumerate(rows) if r[1] <= 4.5]
    high = [i for i, r in enumerate(rows) if r[1] > 4.5]
    exact_low = sum(abs(mine[i][0] - rows[i][1]) < 0.05 for i in low) / max(1, len(low))
    near_high = sum(abs(mine[i][0] - rows[i][1]) <= 0.3 + 1e-9 for i in high) / max(1, len(high))
    rho = spearman([m[0] for m in mine], [r[1] for r in rows]) or 0.0  # None: no spread
    ep_exact = sum(abs(m[1] - r[2]) < 0.05 for m, r in zip(mine, rows)) / len(rows)
    ed_exact = sum(abs(m[2] - r[3]) < 0.05 for m, r in zip(mine, rows)) / len(rows)
    level_same = sum(level_of(m[0]) == level_of(r[1]) for m, r in zip(mine, rows)) / len(rows)
    out("\n| goal | measured | target |")
    out("|---|---|---|")
    out(f"| exact ER, SE ER <= 4.5 ({len(low)}) | {exact_low:.1%} | >= 90% |")
    out(f"| ER within 0.3, SE ER > 4.5 ({len(high)}) | {near_high:.1%} | >= 80% |")
    out(f"| Spearman rho, all | {rho:.3f} | >= 0.95 |")
    out(f"| exact EP / exact ED | {ep_exact:.1%} / {ed_exact:.1%} | |")
    out(f"| same level | {level_same:.1%} | |")
    out(f"| unsound steps (every step checked) | {len(problems)} | 0 |")
    slowest = max(range(len(rows)), key=lambda i: times[i])
    out(f"| rate time median / max | {statistics.median(times) * 1000:.0f} ms / "
        f"{max(times):.1f} s (SE ER {rows[slowest][1]}: {rows[slowest][0]}) | |")
    return problems


def read_set(data: Path, name: str, limit: int | None) -> list[str]:
    lines = [s.strip() for s in (data / "classic" / f"{name}.txt").read_text().splitlines()
             if s.strip() and not s.startswith("#")]
    if limit and len(lines) > limit:
        step = len(lines) / limit  # an even spread over the file, the same every run
        lines = [lines[int(i * step)] for i in range(limit)]
    return lines


def _peers():
    peers: dict[str, Callable[[str], object]] = {}
    try:
        import hodoku
        peers["hodoku-py"] = hodoku.Solver().rate
    except ImportError:
        pass
    try:
        import pencilmark
        peers["pencilmark"] = lambda p: pencilmark.rate(p, max_seconds=60)
    except ImportError:
        pass
    return peers


def speed(data: Path, sets: dict[str, int | None], out, with_peers: bool) -> list[str]:
    peers = _peers() if with_peers else {}
    out("\nRate time per puzzle (one process, pure Python; every step audited)\n")
    header = "| set | puzzles | cpsudoku median ms | p90 ms | max ms | beyond the scale | " + \
        " | ".join(f"{name} median ms" for name in peers) + " |"
    out(header)
    out("|" + "---|" * (header.count("|") - 1))
    problems: list[str] = []
    for name, limit in sets.items():
        lines = read_set(data, name, limit)
        times, beyond = [], 0
        for p in lines:
            t = time.perf_counter()
            _er, _ep, _ed, stuck, bad = audited_rating(p)
            times.append(time.perf_counter() - t)
            beyond += stuck
            problems += bad
        peer_cols = []
        for rate_peer in peers.values():
            ptimes = []
            for p in lines:
                t = time.perf_counter()
                try:
                    rate_peer(p)
                except Exception:  # a peer's own failure is its result, not ours
                    pass
                ptimes.append(time.perf_counter() - t)
            peer_cols.append(f"{statistics.median(ptimes) * 1000:.1f}")
        times.sort()
        out(f"| {name} | {len(lines)} | {statistics.median(times) * 1000:.1f} | "
            f"{times[int(0.9 * (len(times) - 1))] * 1000:.0f} | {times[-1] * 1000:.0f} | "
            f"{beyond} | " + " | ".join(peer_cols) + (" |" if peer_cols else ""))
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cpsudoku.bench.rating", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"),
                    help="the shared data folder (rated/ and classic/)")
    ap.add_argument("--limit", type=int, default=None,
                    help="rate only the first N puzzles of the calibration set (0: skip it)")
    ap.add_argument("--speed", type=int, default=200,
                    help="puzzles taken (evenly spread) from royle_17clue and the other "
                         "classic sets; 0 skips the speed and classic soundness runs")
    ap.add_argument("--no-peers", action="store_true", help="skip hodoku-py and pencilmark")
    args = ap.parse_args(argv)
    for option in ("limit", "speed"):
        if (getattr(args, option) or 0) < 0:
            ap.error(f"--{option} must be 0 or more, not {getattr(args, option)}")
    rated = args.data / "rated" / "se_calibration_850.txt"
    if not rated.is_file():
        print(f"cpsudoku: error: {rated}: no such file (give --data)", file=sys.stderr)
        return 5

    def out(text: str) -> None:
        print(text, flush=True)

    try:
        problems = calibration(rated, args.limit, out) if args.limit != 0 else []
        if args.speed:
            problems += speed(args.data, {"royle_17clue": args.speed, "norvig_top95": None,
                                          "norvig_easy50": None, "norvig_hardest": None,
                                          "magictour_top1465": args.speed},
                              out, not args.no_peers)
    except KeyboardInterrupt:
        print("cpsudoku: interrupted", file=sys.stderr)
        return 130
    out(f"\nSoundness: {len(problems)} unsound steps")
    for line in problems[:20]:
        out(f"  {line}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
