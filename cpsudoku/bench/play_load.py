"""The play server's light answers while heavy requests run:
`python -m cpsudoku.bench.play_load [--runs 3] [--data ../shared/data]`.

Each run starts the server (its default lanes), measures 20 light requests (check with
candidates, parse, a 9x9 solve, a new 9x9, a check against the solution) idle, then the
same 20 at once while two hints on a 25x25 (which search for about a minute without
looking at the clock) and a rating run with a 3 s limit; prints their latencies and
how the heavy ones ended.
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..web.server import running
from .play import INKALA, post

HEAVY_LIMIT = 3.0


def light(api: str) -> list[tuple[str, dict]]:
    return [(api + "check", {"puzzle": INKALA, "candidates": True}),
            (api + "parse", {"puzzle": INKALA}),
            (api + "solve", {"puzzle": INKALA, "max_solutions": 2}),
            (api + "generate", {"size": 9, "seed": 11}),
            (api + "check", {"puzzle": INKALA, "solution": True})] * 4


def row(name: str, ms: list[float]) -> str:
    ordered = sorted(ms)
    return (f"{name:<34} {len(ms):>4} {statistics.median(ms):>9.1f} "
            f"{ordered[int(0.95 * (len(ms) - 1))]:>9.1f} {max(ms):>9.1f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    args = parser.parse_args(argv)
    source = args.data / "sizes" / "gecode_25x25.txt"
    if args.runs < 1 or not source.is_file():
        parser.error(f"--runs must be 1 or more, and {source} must exist")
    big = source.read_text().splitlines()[0].strip()
    idle: list[float] = []
    loaded: list[float] = []
    heavy: list[str] = []
    for _ in range(args.runs):
        with running() as url, ThreadPoolExecutor(24) as pool:
            api = url + "api/"
            idle += [post(path, body)[2] for path, body in light(api)]
            started = [pool.submit(post, api + "hint", {"puzzle": big,
                                                        "time_limit": HEAVY_LIMIT})
                       for _ in range(2)]
            started.append(pool.submit(post, api + "rate", {"puzzle": INKALA,
                                                            "time_limit": HEAVY_LIMIT}))
            time.sleep(0.5)
            loaded += [f.result()[2] for f in [pool.submit(post, path, body)
                                               for path, body in light(api)]]
            for future in started:
                status, data, ms = future.result()
                heavy.append(f"HTTP {status} exit_code {data.get('exit_code')} "
                             f"after {ms / 1000:.2f} s")
    print(f"{'light requests (ms)':<34} {'n':>4} {'median':>9} {'p95':>9} {'max':>9}")
    print(row("idle, one at a time", idle))
    print(row("20 at once, 3 heavy running", loaded))
    print(f"\nheavy requests (limit {HEAVY_LIMIT:g} s): 2 hints on a 25x25, 1 rating")
    for line in heavy:
        print(f"  {line}")


if __name__ == "__main__":
    main()
