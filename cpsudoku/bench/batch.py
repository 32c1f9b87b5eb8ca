"""The batch benchmark: throughput of --jobs 1, --jobs 2 and a local Dask cluster, peak
memory against input size, and resume after a kill. Prints a table.

    python -m cpsudoku.bench.batch [--data ../shared/data] [--limit N] [--skip-dask]
    python -m cpsudoku.bench.batch --command rate --limit 2000 --parts throughput
    python -m cpsudoku.bench.batch --command generate --limit 2000 --parts throughput
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..batch import BatchOptions, SolveTask
from ..batch.run import _ordered

SET = "classic/royle_17clue.txt"
COMMANDS = ("solve", "rate", "generate")
PARTS = ("throughput", "memory", "resume")
GENERATED = 2000  # puzzles of a generate run without --limit (about 10 s on one core)


def _work(command: str, path: Path, limit: int | None):
    """The task of `command` and its items (the puzzles of `path`, or puzzle numbers)."""
    from ..formats.sources import iter_entries
    if command == "generate":
        from ..batch.generating import GenerateTask
        from ..generator import core
        return GenerateTask("jsonl", core.options(), seed=1), range(limit or GENERATED)
    if command == "rate":
        from ..batch.rating import RateTask
        return RateTask("jsonl"), iter_entries(str(path))
    return SolveTask("jsonl"), iter_entries(str(path))


def throughput(path: Path, options: BatchOptions, label: str, command: str = "solve",
               limit: int | None = None) -> dict:
    """Puzzles a second of one batch, timed apart from starting the workers and from
    stopping them (the last record is written before the workers are stopped)."""
    task, items = _work(command, path, limit)
    began = time.perf_counter()
    executor = options.executor(task)  # a Dask cluster is up when this returns
    started = time.perf_counter()
    count = 0
    try:
        for _ in _ordered(enumerate(items), task, executor, None):
            count += 1
        seconds = time.perf_counter() - started
    finally:
        stopping = time.perf_counter()
        executor.close()
    return {"run": label, "puzzles": count, "start_s": started - began,
            "batch_s": seconds, "stop_s": time.perf_counter() - stopping,
            "rate": count / seconds}


def peak_memory(path: Path) -> int:
    """Peak resident memory (KB) of `cpsudoku solve PATH -f jsonl -o /dev/null`."""
    proc = subprocess.Popen([sys.executable, "-m", "cpsudoku", "solve", str(path), "-f",
                             "jsonl", "-o", os.devnull], stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss


def resume_after_kill(path: Path, folder: Path, seed: int) -> dict:
    """SIGKILL a --jobs 2 run at a random moment, resume it, compare with a whole run."""
    def solve(out: Path, *extra):
        return subprocess.Popen([sys.executable, "-m", "cpsudoku", "solve", str(path), "-f",
                                 "jsonl", "-o", str(out), "-j", "2", *extra],
                                stderr=subprocess.DEVNULL)
    whole, cut = folder / "whole.jsonl", folder / "cut.jsonl"
    began = time.monotonic()
    solve(whole).wait()
    run_s = time.monotonic() - began
    proc = solve(cut)
    time.sleep(random.Random(seed).uniform(0.2, 0.8) * run_s)
    proc.kill()
    proc.wait()
    kept = cut.read_bytes().count(b"\n") if cut.exists() else 0
    solve(cut, "--resume").wait()

    def records(file: Path) -> list[dict]:
        rows = [json.loads(line) for line in file.read_text().splitlines()]
        for row in rows:  # everything but the timings
            row.pop("time_s")
            for key in ("setup_s", "search_s"):
                row.get("stats", {}).pop(key, None)
        return rows
    return {"kept": kept, "total": sum(1 for _ in open(whole)),
            "identical": records(cut) == records(whole)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="../shared/data", type=Path)
    parser.add_argument("--limit", type=int, default=None,
                        help="puzzles of royle_17clue to use (default: all 49,158); "
                             f"generate: puzzles to make (default {GENERATED})")
    parser.add_argument("--command", choices=COMMANDS, default="solve",
                        help="the batch task timed by the throughput part")
    parser.add_argument("--skip-dask", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--parts", default=",".join(PARTS),
                        help="which of throughput, memory, resume to run")
    args = parser.parse_args(argv)
    parts = set(args.parts.split(","))
    if not parts <= set(PARTS):
        parser.error(f"--parts: unknown {', '.join(sorted(parts - set(PARTS)))} "
                     f"(choose from {', '.join(PARTS)})")
    if args.limit is not None and args.limit < 1:
        parser.error(f"--limit must be at least 1, not {args.limit}")
    source = args.data / SET  # after the options: a bad one is named wherever the data is
    if not source.is_file():
        parser.error(f"{source}: no such file (give the data folder with --data)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        full = folder / "set.txt"
        with open(source) as handle, open(full, "w") as out:
            out.writelines(itertools.islice(handle, args.limit))
        small = folder / "small.txt"
        with open(full) as handle, open(small, "w") as out:
            out.writelines(itertools.islice(handle, 1000))

        if "throughput" in parts:
            print_throughput(full, args.skip_dask, args.command, args.limit)
        if "memory" in parts:
            print_memory(full, small)
        if "resume" in parts:
            check = resume_after_kill(full, folder, args.seed)
            print(f"resume after SIGKILL: {check['kept']:,} of {check['total']:,} records "
                  f"kept at the kill; after --resume identical to a whole run: "
                  f"{'yes' if check['identical'] else 'NO'}")


def print_throughput(full: Path, skip_dask: bool, command: str = "solve",
                     limit: int | None = None) -> None:
    configs = [(BatchOptions(jobs=1), "--jobs 1"), (BatchOptions(jobs=2), "--jobs 2")]
    if not skip_dask:
        configs.append((BatchOptions(dask="local:2"), "--dask local:2"))
    runs = [throughput(full, options, label, command, limit) for options, label in configs]
    base = runs[0]["rate"]
    what = "made" if command == "generate" else f"of {SET}"
    print(f"cores: {len(os.sched_getaffinity(0))}  load average: "
          f"{os.getloadavg()[0]:.1f}  command: {command} ({runs[0]['puzzles']:,} "
          f"puzzles {what})")
    print()
    print(f"{'run':<16}{'start s':>9}{'batch s':>10}{'stop s':>9}{'puzzles/s':>11}"
          f"{'speed-up':>10}")
    for row in runs:
        print(f"{row['run']:<16}{row['start_s']:>9.2f}{row['batch_s']:>10.2f}"
              f"{row['stop_s']:>9.2f}{row['rate']:>11,.0f}{row['rate'] / base:>9.2f}x")
    print()


def print_memory(full: Path, small: Path) -> None:
    big, little = peak_memory(full), peak_memory(small)
    lines = sum(1 for _ in open(full))
    print(f"{'peak memory':<16}{'puzzles':>9}{'MB':>10}")
    print(f"{'':<16}{1000:>9,}{little / 1024:>10.1f}")
    print(f"{'':<16}{lines:>9,}{big / 1024:>10.1f}   ratio {big / little:.2f}")
    print()


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    main()
