"""Which new-puzzle options the play page can offer: `python -m cpsudoku.bench.menu`.

For every size, variant and difficulty the menu could offer (`web.menu.candidates`),
each symmetry is tried with several seeds through the API's own generate job, each
with a time limit. An option is offered when every seed finished within the limit.
Symmetry `none` is tried first: when it fails, the other symmetries of that difficulty
are not tried. Prints the measured table, then `OFFERED` for cpsudoku/web/menu.py.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ..web import jobs
from ..web.menu import SYMMETRIES, candidates
from ..web.schemas import GenerateIn


def attempt(size: int, variant: str, difficulty: str, symmetry: str, seed: int,
            limit: float) -> tuple[float, str]:
    """Seconds taken, and "ok" or the one-line reason it failed."""
    body = GenerateIn.model_validate({"size": size, "variant": variant,
                                      "difficulty": difficulty or None, "symmetry": symmetry,
                                      "seed": seed, "time_limit": limit})
    started = time.monotonic()
    try:
        jobs.generate(body, limit)
        outcome = "ok"
    except Exception as exc:  # a timeout, or an option the generator refuses
        outcome = f"{type(exc).__name__}: {str(exc)[:60]}"
    return time.monotonic() - started, outcome


def measure(size: int, variant: str, difficulty: str, symmetry: str, seeds: int,
            limit: float) -> tuple[list[float], str]:
    """Times of the seeds tried (stopping at the first failure) and "ok" or why not."""
    times = []
    for seed in range(1, seeds + 1):
        took, outcome = attempt(size, variant, difficulty, symmetry, seed, limit)
        times.append(took)
        if outcome == "ok" and took > limit:  # the rating inside does not watch the clock
            outcome = f"finished, but after {took:.1f} s"
        if outcome != "ok":
            return times, outcome
    return times, "ok"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--limit", type=float, default=6.0, help="seconds per puzzle")
    parser.add_argument("--sizes", default="", help="e.g. 9,16 (default: every size)")
    parser.add_argument("--variants", default="", help="e.g. killer,jigsaw (default: all)")
    parser.add_argument("--difficulties", default="",
                        help="e.g. any,easy (default: every one the menu could offer)")
    args = parser.parse_args(argv)
    if args.seeds < 1 or not args.limit > 0:
        parser.error("--seeds must be 1 or more and --limit a positive number of seconds")
    sizes = {int(s) for s in args.sizes.split(",") if s.strip()}
    variants = {v.strip() for v in args.variants.split(",") if v.strip()}
    difficulties = {d.strip().replace("any", "") for d in args.difficulties.split(",")
                    if d.strip()}
    offered: dict[tuple[int, str], dict[str, list[str]]] = {}
    print(f"{'size':>4} {'variant':<16} {'difficulty':<10} {'symmetry':<12} "
          f"{'seeds ok':>8} {'median s':>8} {'max s':>6}  note", flush=True)
    for size, variant, difficulty in candidates():
        if (sizes and size not in sizes or variants and variant not in variants
                or difficulties and difficulty not in difficulties):
            continue
        for symmetry in SYMMETRIES:
            times, outcome = measure(size, variant, difficulty, symmetry, args.seeds,
                                     args.limit)
            good = len(times) if outcome == "ok" else len(times) - 1
            print(f"{size:>4} {variant:<16} {difficulty or 'any':<10} {symmetry:<12} "
                  f"{good:>4}/{args.seeds:<3} {statistics.median(times):>8.2f} "
                  f"{max(times):>6.2f}  {'' if outcome == 'ok' else outcome}", flush=True)
            if outcome == "ok":
                offered.setdefault((size, variant), {}).setdefault(difficulty, []) \
                    .append(symmetry)
            elif symmetry == "none":
                break
    print("\nOFFERED = {")
    for key, by_difficulty in offered.items():
        inner = ", ".join(f"{d!r}: {tuple(s)!r}" for d, s in by_difficulty.items())
        print(f"    {key!r}: {{{inner}}},")
    print("}")


if __name__ == "__main__":
    main()
