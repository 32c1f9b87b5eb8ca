"""Backend overhead and time-limit accuracy, side by side for every solver-library backend.

    python -m cpsudoku.bench.backends [--sets norvig_top95,gecode_16x16] [--limit 30]
    python -m cpsudoku.bench.backends --limits 0.1,0.2,0.5,1

Overhead: per puzzle, `api` is `cpsudoku.solve` on the parsed puzzle (model,
conflict check, lowering, the backend's translation, the solver, the result);
`direct` is a program calling the same solver library itself: it builds the
same encoding with the library's calls and solves it (one solution, one
worker). The ratio api/direct is what going through cpsudoku adds.
Time limits: each backend on a 25x25 puzzle it cannot finish, the time from
calling `solve` to its return against the limit.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from ..backends import get
from ..errors import CpsudokuError
from ..model import build_model, lower_for
from .datasets import find_data_dir, load_set, puzzle_of

BACKENDS = ("cpsat", "sat", "mip", "choco")


def _direct(backend: str, model) -> float:
    """Seconds to build the encoding with the solver library's own calls and solve it,
    from a model already lowered (as a program using the library directly would)."""
    clock = time.perf_counter
    t0 = clock()
    if backend == "cpsat":
        from ortools.sat.python import cp_model

        from ..backends.cpsat import _build
        cells = _build(cp_model, model)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.solve(cells.model)
        return clock() - t0
    if backend == "sat":
        from pysat.solvers import Solver

        from ..backends.base import Request
        from ..backends.sat import CADICAL_SAT, Cnf, solver_of
        cnf = Cnf(model)
        name = solver_of(Request(), model.size)
        with Solver(name=name) as sat:
            if name == "cadical195":
                sat.configure(CADICAL_SAT)
            sat.append_formula(cnf.clauses)
            sat.solve()
            return clock() - t0
    if backend == "mip":
        import highspy

        from ..backends.mip import _Program
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("threads", 1)
        _Program(model).load(h, highspy)
        h.run()
        return clock() - t0
    if backend == "choco":
        import pychoco

        from ..backends.choco import _post, _variable
        cp = pychoco.Model()
        ncells = len(model.domains)
        variables = [_variable(cp, c, d, model.width, ncells)
                     for c, d in enumerate(model.all_domains)]
        for con in model.constraints:
            _post(cp, con, variables, model.values)
        cp.get_solver().solve()
        return clock() - t0
    raise ValueError(backend)


def overhead(sets, backends, limit: int | None) -> None:
    from ..api import solve
    data = find_data_dir()
    print(f"{'set':<14} {'backend':<8} {'puzzles':>7} {'api median ms':>14} "
          f"{'direct median ms':>17} {'api/direct':>10}")
    for name in sets:
        rows = load_set(data, name, limit)
        for backend in backends:
            engine = get(backend)
            puzzles = [puzzle_of(text) for text, _, _ in rows]
            solve(puzzles[0], backend)  # load the library outside the measure
            api, direct = [], []
            for puzzle in puzzles:
                t0 = time.perf_counter()
                solve(puzzle, backend)
                api.append(time.perf_counter() - t0)
                direct.append(_direct(backend, lower_for(
                    build_model(puzzle), engine.native_kinds,
                    whole_when_too_big=engine.whole_when_too_big)))
            a, d = statistics.median(api), statistics.median(direct)
            print(f"{name:<14} {backend:<8} {len(rows):>7} {a * 1e3:>14.2f} {d * 1e3:>17.2f} "
                  f"{a / d:>9.2f}x", flush=True)


def limits(values, backends) -> None:
    from ..api import solve
    data = find_data_dir()
    hard = puzzle_of(load_set(data, "gecode_25x25", 1)[0][0])
    print(f"{'backend':<18} {'limit s':>8} {'returned after s':>17} {'over by':>8}  status")
    for backend in backends:
        for limit in values:
            t0 = time.monotonic()
            result = solve(hard, backend, max_solutions=2, time_limit=limit)
            took = time.monotonic() - t0
            print(f"{backend:<18} {limit:>8.2f} {took:>17.3f} {took / limit - 1:>+8.0%}  "
                  f"{result.status.value}", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cpsudoku.bench.backends",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--sets", default="norvig_top95,gecode_16x16")
    parser.add_argument("--limit", type=int, default=None, help="first K puzzles of each set")
    parser.add_argument("--backends", default=None,
                        help="comma-separated (default: " + ",".join(BACKENDS) + "; with "
                             "--limits every installed backend)")
    parser.add_argument("--limits", default=None, metavar="SECONDS,...",
                        help="measure time-limit accuracy instead (the first run of each "
                             "backend includes importing its library)")
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        parser.error(f"--limit must be at least 1, not {args.limit}")
    seconds: list[float] = []
    if args.limits:
        try:
            seconds = [float(v) for v in args.limits.split(",")]
        except ValueError:
            parser.error(f"--limits takes seconds separated by commas, not {args.limits!r}")
        if not all(0 < v < float("inf") for v in seconds):
            parser.error(f"--limits must be positive numbers of seconds, not {args.limits!r}")
    try:
        if args.backends:
            chosen = args.backends.split(",")
        elif seconds:
            from ..backends import load, names
            chosen = [n for n in names() if load(n).is_available()]
        else:
            chosen = list(BACKENDS)
        for name in chosen:  # every name checked before the first row
            get(name)
        if seconds:
            limits(seconds, chosen)
        else:
            overhead(args.sets.split(","), chosen, args.limit)
    except CpsudokuError as exc:  # an unknown set or backend, a limit out of range
        print(f"cpsudoku: error: {exc}", file=sys.stderr)
        return exc.exit_code
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
