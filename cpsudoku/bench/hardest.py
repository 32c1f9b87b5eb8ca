"""Benchmark of the top of the rating scale: cpsudoku beside Sudoku Explainer (SE).

    python -m cpsudoku.bench.hardest [FILE ...] [--se PATH] [--limit N]

FILE holds `PUZZLE ER EP ED [SECONDS]` lines: SE's ratings and, optionally, the
time SE took (`serate --format='%g %r %p %d %e'` writes exactly that). Every puzzle
is rated by cpsudoku (every step audited against the solution); with `--se PATH`
(SE's classes folder or jar) SE rates it too, on the same machine, one puzzle at a
time. Times are CPU seconds (SE's: its process's user and system time, JVM threads
included; cpsudoku's: `time.process_time`), which a loaded machine disturbs far less
than wall time; the wall times are printed too. Prints one row per puzzle (both
ratings, both times, the ratio) and the totals: ER within 0.1, EP and ED exact,
the puzzles beyond the scale (no technique finishes them), the speed-up.
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

from .rating import audited_rating

DEFAULT = Path(__file__).resolve().parents[2] / "tests" / "logic" / "data" / "se_nested.txt"


def read_rated(path: Path) -> list[tuple[str, float, float, float, float | None]]:
    """(puzzle, ER, EP, ED, SE seconds or None) per line; `#` lines are comments."""
    rows = []
    for raw in path.read_text().splitlines():
        fields = raw.split()
        if not fields or raw.startswith("#"):
            continue
        seconds = _seconds(fields[4]) if len(fields) > 4 else None
        rows.append((fields[0], float(fields[1]), float(fields[2]), float(fields[3]), seconds))
    return rows


def _seconds(text: str) -> float:
    """serate's %e: `52.46s`, `2m33s`, `1h2m3s`."""
    total = 0.0
    for amount, unit in re.findall(r"([\d.]+)([hms])", text):
        total += float(amount) * {"h": 3600, "m": 60, "s": 1}[unit]
    return total


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_se(se: Path, puzzle: str) -> tuple[float, float, float, float, float]:
    """SE's ER, EP, ED, the CPU time and the wall time of its run."""
    started, cpu = time.perf_counter(), _children_cpu()
    out = subprocess.run(["java", "-Xmx500m", "-cp", str(se), "diuf.sudoku.test.serate",
                          "--format=%r/%p/%d", puzzle], capture_output=True, text=True,
                         check=True).stdout
    er, ep, ed = (float(x) for x in out.split()[-1].split("/"))
    return er, ep, ed, _children_cpu() - cpu, time.perf_counter() - started


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cpsudoku.bench.hardest", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path, default=[DEFAULT],
                    help=f"files of SE-rated puzzles (default {DEFAULT.name})")
    ap.add_argument("--se", type=Path, default=None,
                    help="SE's classes folder or jar: rate with SE here too and time it")
    ap.add_argument("--limit", type=int, default=None, help="the first N puzzles only")
    args = ap.parse_args(argv)
    rows = []
    for path in args.files:
        if not path.is_file():
            print(f"cpsudoku: error: {path}: no such file", file=sys.stderr)
            return 5
        rows += read_rated(path)
    rows = rows[:args.limit] if args.limit else rows
    print("| # | SE ER/EP/ED | cpsudoku ER/EP/ED | SE CPU s | cpsudoku CPU s | SE / cpsudoku "
          "| SE wall s | cpsudoku wall s | beyond the scale |")
    print("|---|---|---|---|---|---|---|---|---|")
    near = ep_same = ed_same = beyond = unsound = 0
    se_total = our_total = 0.0
    worst = (0.0, "")
    for i, (puzzle, er, ep, ed, se_seconds) in enumerate(rows, 1):
        se_wall = None
        if args.se is not None:
            er, ep, ed, se_seconds, se_wall = run_se(args.se, puzzle)
        started, cpu = time.perf_counter(), time.process_time()
        mine_er, mine_ep, mine_ed, stuck, problems = audited_rating(puzzle)
        ours, wall = time.process_time() - cpu, time.perf_counter() - started
        near += abs(mine_er - er) <= 0.1 + 1e-9
        ep_same += abs(mine_ep - ep) < 0.05
        ed_same += abs(mine_ed - ed) < 0.05
        beyond += stuck
        unsound += len(problems)
        if abs(mine_er - er) > worst[0]:
            worst = (abs(mine_er - er), f"SE {er:.1f} vs {mine_er:.1f}")
        our_total += ours
        se_total += se_seconds or 0.0
        ratio = f"{se_seconds / ours:.1f}x" if se_seconds else "-"
        se_time = f"{se_seconds:.1f}" if se_seconds else "-"
        se_wall_text = f"{se_wall:.1f}" if se_wall else "-"
        stopped = "yes" if stuck else "no"
        print(f"| {i} | {er:.1f}/{ep:.1f}/{ed:.1f} | {mine_er:.1f}/{mine_ep:.1f}/{mine_ed:.1f} "
              f"| {se_time} | {ours:.2f} | {ratio} | {se_wall_text} | {wall:.2f} | {stopped} |",
              flush=True)
    n = len(rows)
    print(f"\nER within 0.1: {near}/{n}; EP exact {ep_same}/{n}; ED exact {ed_same}/{n}; "
          f"worst {worst[1] or 'none'}; beyond the scale {beyond}; unsound steps {unsound}")
    if se_total:
        print(f"CPU time: SE {se_total:.1f} s, cpsudoku {our_total:.1f} s: "
              f"{se_total / our_total:.1f}x faster")
    return 1 if unsound else 0


if __name__ == "__main__":
    sys.exit(main())
