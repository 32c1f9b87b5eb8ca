"""cpsudoku's logical solver beside pencilmark, a human-style grader, puzzle by puzzle.

    python -m cpsudoku.bench.explain [--pencilmark-python PATH] [-t 30] [--set examples|all]
                                     [--variants [DIR]] [--limit K] [--name TEXT] [--json FILE]

Puzzles: ISS's 62 example puzzles (`data/iss_puzzles.json`, as `cpsudoku.bench.iss` reads
them; `--set all` adds its collection puzzles) and, with `--variants`, the puzzle files
of examples/variants. cpsudoku reads each as it is; pencilmark gets the f-puzzles form
cpsudoku writes of it, through `pencilmark_driver.py` run by the interpreter given with
`--pencilmark-python` (pencilmark is no dependency of cpsudoku; without it only
cpsudoku's column is filled). Each tool runs in its own process per puzzle, killed past
the time limit, so a puzzle that hangs one tool costs the limit and no more.

Per tool and puzzle: read or not (and why); explained to the end without a guess, or
stuck / guessed (a cpsudoku step with `guess`, an explanation whose status is "stuck",
pencilmark's Trial and error or Guess steps or its band "Unknown"), refused (the tool
reads it and declines: not unique, a rule it has no logic for), or timed out; unsound
steps (a placement other than the known solution's digit, or an elimination of it);
the wall time. Then, on the puzzles both read, how many each explains, and Spearman's
rank correlation of cpsudoku's ER with pencilmark's difficulty where both explain.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CpsudokuError
from . import iss as iss_bench
from .stats import spearman

DRIVER = Path(__file__).with_name("pencilmark_driver.py")
DEFAULT_TIME_LIMIT = 30.0
VARIANTS_DIR = Path("examples/variants")
# Past the limit a tool's process is given this long to answer before it is killed:
# time limits are checked between steps, and pencilmark's interpreter starts and imports
# pencilmark before its clock starts.
GRACE = 5.0
INSTALL = "python -m venv DIR && DIR/bin/pip install pencilmark, then --pencilmark-python " \
          "DIR/bin/python"
# pencilmark's codes for a step that is no logic: a refutation by full search (what it
# does with guessing off where no technique applies) and a guess.
PENCILMARK_GUESSES = ("TRL", "GSS")
TOOLS = ("cpsudoku", "pencilmark")


@dataclass
class Case:
    """One puzzle, as each tool is given it."""

    name: str
    group: str  # "iss examples", "iss collection" or "variants"
    text: str  # an ISS constraint string or a puzzle file's text
    source: str  # the name cpsudoku's readers are given
    solution: list[int] | None = None  # recorded, as values; else cpsudoku's solve's


@dataclass
class Outcome:
    """One tool's result on one puzzle."""

    read: bool
    # explained, stuck, guessed, refused, timeout, not read, missing (no pencilmark)
    status: str
    detail: str = ""
    seconds: float | None = None
    rating: float | None = None  # cpsudoku's ER, pencilmark's difficulty
    steps: int = 0
    unsound: list[str] = field(default_factory=list)
    grid_right: bool | None = None  # the givens and every placement make the solution
    unreasoned: int = 0  # steps whose record has no `reason` (cpsudoku's)

    @property
    def explained(self) -> bool:
        return self.status == "explained"


def load_cases(which: str = "examples", variants: Path | None = None, limit: int | None = None,
               name: str | None = None) -> list[Case]:
    """ISS's puzzles (`which` as `cpsudoku.bench.iss` takes it) and the variant files."""
    cases = [Case(e["name"], "iss examples" if e["set"] == "examples" else "iss collection",
                  e["input"], e["name"], _recorded(e))
             for e in iss_bench.load_puzzles(which)]
    if variants is not None:
        paths = sorted(variants.glob("*.toml"))
        if not paths:
            raise CpsudokuError(f"{variants}: no puzzle files (*.toml)")
        cases += [Case(p.stem, "variants", p.read_text(encoding="utf-8"), p.name)
                  for p in paths]
    if name:
        cases = [c for c in cases if name.lower() in c.name.lower()]
    return cases[:limit] if limit else cases


def _recorded(entry: dict) -> list[int] | None:
    puzzle, _ = iss_bench.expressed(entry)
    if puzzle is None:
        return None
    found = iss_bench.recorded_for(entry.get("solution"), puzzle.geometry)
    return list(found) if found else None


def read_case(case: Case):
    """cpsudoku's puzzle of the case; CpsudokuError when it cannot read it."""
    from ..formats import iss
    from ..formats.read import parse
    if case.group.startswith("iss"):
        if not iss.looks_like_iss(case.text):
            raise CpsudokuError("ISS text shorthand, not a constraint string")
        return iss.from_string(case.text, source=case.source)
    return parse(case.text, source=case.source)[0]


def check_steps(steps: Sequence[tuple[str, list[tuple[int, int]], list[tuple[int, int]]]],
                solution: Sequence[int], names: Callable[[int], str]) -> list[str]:
    """Every step (its text, placements and eliminations as (cell, value)) that places
    a value other than the solution's or eliminates the solution's, one line each."""
    bad = []
    for text, placements, eliminations in steps:
        wrong = [f"{names(c)}={v}" for c, v in placements if solution[c] != v]
        wrong += [f"{names(c)}<>{v}" for c, v in eliminations if solution[c] == v]
        if wrong:
            bad.append(f"{text[:80]}: {', '.join(wrong)}")
    return bad


# ---------------------------------------------------------------- cpsudoku


def _cpsudoku_child(case: Case, time_limit: float, conn) -> None:
    try:
        conn.send(asdict(explain_with_cpsudoku(case, time_limit)))
    except BaseException as exc:  # the parent must hear of any failure, not wait for it
        conn.send(asdict(Outcome(True, "refused", f"{type(exc).__name__}: {exc}"[:300])))
    finally:
        conn.close()


def explain_with_cpsudoku(case: Case, time_limit: float) -> Outcome:
    """cpsudoku's explanation of the puzzle, checked against its solution."""
    from .. import api
    from ..logic import explain
    from ..result import Status

    started = time.monotonic()
    try:
        puzzle = read_case(case)
    except CpsudokuError as exc:
        return Outcome(False, "not read", str(exc)[:300])
    try:
        explanation = explain(puzzle, time_limit=time_limit)
    except CpsudokuError as exc:  # not unique, no solution, a rule without logic
        return Outcome(True, "refused", str(exc)[:300], time.monotonic() - started)
    seconds = time.monotonic() - started
    steps = explanation.steps
    # Older explanations mark a step taken from the solution with `guess`; newer ones
    # take no such step and say "stuck" where no technique applies: both are read.
    guessed = any(getattr(s, "guess", False) for s in steps)
    said = getattr(explanation, "status", None)
    said = said() if callable(said) else said
    stuck = said == "stuck" or bool(getattr(explanation, "stuck", False))
    if explanation.solved and not guessed and not stuck:
        status = "explained"
    elif guessed:
        status = "guessed"
    elif stuck or (said != "timeout" and seconds < time_limit):
        status = "stuck"
    else:
        status = "timeout"
    solution = case.solution or puzzle.meta.get("solution")
    if solution is None:  # not recorded: the solver's own answer, proved unique
        result = api.solve(puzzle, max_solutions=2, time_limit=time_limit)
        solution = result.solution if result.status is Status.UNIQUE else None
    out = Outcome(True, status, seconds=seconds, steps=len(steps),
                  rating=max((s.rating for s in steps), default=0.0),
                  unreasoned=sum(not s.as_dict().get("reason") for s in steps))
    if status == "guessed":
        first = next(s for s in steps if getattr(s, "guess", False))
        out.detail = f"guess at step {first.number}: {first.text[:100]}"
    elif status in ("stuck", "timeout"):
        out.detail = f"{len(steps)} steps, unsolved"
    if solution is not None:
        out.unsound = check_steps([(s.text, s.placements, s.eliminations) for s in steps],
                                  solution, puzzle.geometry.cell_name)
        out.grid_right = explanation.solved and list(explanation.grid)[:len(solution)] == \
            list(solution)
    else:
        out.detail = (out.detail + "; no known solution, soundness unchecked").lstrip("; ")
    return out


def run_cpsudoku(case: Case, time_limit: float) -> Outcome:
    """`explain_with_cpsudoku` in a child process, killed past the limit."""
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context: Any = multiprocessing.get_context(method)  # typeshed's BaseContext has no Process
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_cpsudoku_child, args=(case, time_limit, send), daemon=True)
    started = time.monotonic()
    child.start()
    send.close()
    try:
        if receive.poll(time_limit + GRACE):
            return Outcome(**receive.recv())
        return Outcome(True, "timeout", f"no answer within {time_limit:g} s",
                       time.monotonic() - started)
    except EOFError:  # the child died without a word (out of memory, a signal)
        return Outcome(True, "refused", f"the process ended with code {child.exitcode}",
                       time.monotonic() - started)
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()


# ---------------------------------------------------------------- pencilmark


def pencilmark_missing(python: str | None) -> str | None:
    """Why pencilmark cannot run, or None when `python` imports it."""
    if not python:
        return f"no --pencilmark-python given; to get pencilmark: {INSTALL}"
    try:
        done = subprocess.run([python, "-c", "import pencilmark"], capture_output=True,
                              text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{python} does not run: {exc}"
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return f"{python} cannot import pencilmark ({last}); to get it: {INSTALL}"
    return None


def call_driver(python: str, request: dict, timeout: float) -> dict | None:
    """The driver's answer, or None past `timeout` (its process group is killed, so
    whatever pencilmark started goes too)."""
    process = subprocess.Popen([python, str(DRIVER)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        out, err = process.communicate(json.dumps(request), timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return None
    lines = out.strip().splitlines()
    if process.returncode or not lines:
        last = (err.strip().splitlines() or ["no output"])[-1]
        return {"read": True, "error": f"the driver ended with code {process.returncode}: "
                                       f"{last}"[:300]}
    return json.loads(lines[-1])


def _cell_value(text: str, cells: dict[str, int]) -> tuple[int, int] | None:
    """("r2c8=3" or "r2c8#3") as (cell, value); None for a cell outside the grid."""
    name, _, digit = text.replace("#", "=").partition("=")
    cell = cells.get(name.strip().lower())
    return None if cell is None or not digit.strip().isdigit() else (cell, int(digit))


def explain_with_pencilmark(case: Case, python: str, time_limit: float) -> Outcome:
    """pencilmark's steps on the f-puzzles form of the puzzle, checked against its
    solution: each step, and the grid its placements fill in."""
    from ..formats.fpuzzles_write import to_fpuzzles
    try:
        puzzle = read_case(case)
        form = to_fpuzzles(puzzle)
    except CpsudokuError as exc:
        return Outcome(False, "not read", f"no f-puzzles form: {exc}"[:300])
    started = time.monotonic()
    answer = call_driver(python, {"fpuzzles": form, "max_seconds": time_limit},
                         time_limit + GRACE)
    if answer is None:
        return Outcome(True, "timeout", f"no answer within {time_limit:g} s",
                       time.monotonic() - started)
    if not answer.get("read"):
        return Outcome(False, "not read", answer.get("reason", ""))
    seconds = answer.get("seconds")
    if "error" in answer:
        return Outcome(True, "refused", answer["error"], seconds)
    steps = answer.get("steps") or []
    geometry = puzzle.geometry
    cells = {geometry.cell_name(c).lower(): c for c in range(geometry.ncells)}
    read_steps = []
    for s in steps:
        placed = _cell_value(s["placement"], cells) if s.get("placement") else None
        struck = [cv for cv in (_cell_value(e, cells) for e in s.get("eliminations") or [])
                  if cv is not None]
        read_steps.append((f"step {steps.index(s) + 1} {s.get('technique')}",
                           [placed] if placed else [], struck))
    guesses = [s for s in steps if s.get("code") in PENCILMARK_GUESSES]
    if guesses or answer.get("band") == "Unknown":
        status = "guessed"
    elif answer.get("contains_complete") is False:
        status = "stuck"
    else:
        status = "explained"
    out = Outcome(True, status, seconds=seconds, steps=len(steps),
                  rating=answer.get("difficulty"))
    if guesses:
        out.detail = f"{len(guesses)} {guesses[0].get('technique')} step(s)"
    solution = case.solution or puzzle.meta.get("solution")
    if solution is None:
        from .. import api
        from ..result import Status
        result = api.solve(puzzle, max_solutions=2, time_limit=time_limit)
        solution = result.solution if result.status is Status.UNIQUE else None
    if solution is not None:
        out.unsound = check_steps(read_steps, solution, geometry.cell_name)
        grid = list(puzzle.givens[:geometry.ncells])
        for _text, placed_list, _struck in read_steps:
            for c, v in placed_list:
                grid[c] = v
        out.grid_right = grid == list(solution)[:geometry.ncells]
    if status == "explained" and out.grid_right is False:
        out.detail = "its placements leave the grid unlike the solution"
    return out


# ---------------------------------------------------------------- the run


@dataclass
class Row:
    case: Case
    outcomes: dict[str, Outcome]

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.case.name, "group": self.case.group,
                **{tool: asdict(o) for tool, o in self.outcomes.items()}}


def measure(cases: Sequence[Case], python: str | None, time_limit: float,
            emit: Callable[[Row], object] = lambda row: None) -> tuple[list[Row], str | None]:
    """Every case's row (handed to `emit` as it finishes) and why pencilmark did not
    run, if it did not. Ctrl-C ends the run early; the rows so far are kept."""
    missing = pencilmark_missing(python)
    rows: list[Row] = []
    try:
        for case in cases:
            outcomes = {"cpsudoku": run_cpsudoku(case, time_limit)}
            if missing is None and python:
                outcomes["pencilmark"] = explain_with_pencilmark(case, python, time_limit)
            else:
                outcomes["pencilmark"] = Outcome(False, "missing")
            row = Row(case, outcomes)
            rows.append(row)
            emit(row)
    except KeyboardInterrupt:
        pass
    return rows, missing


def _cell(o: Outcome) -> str:
    if o.status in ("not read", "missing"):
        return o.status
    shown = o.status + (f" {o.rating:g}" if o.explained and o.rating is not None else "")
    shown += f" {o.seconds:.1f}s" if o.seconds is not None else ""
    return shown + (f" UNSOUND x{len(o.unsound)}" if o.unsound else "")


def row_line(row: Row) -> str:
    cp, pm = row.outcomes["cpsudoku"], row.outcomes["pencilmark"]
    return f"{row.case.name[:40]:<40} {_cell(cp):<24} {_cell(pm)}".rstrip()


def summary(rows: Sequence[Row], time_limit: float, missing: str | None) -> list[str]:
    """The table of both tools, the comparison on the puzzles both read, Spearman's rho."""
    tools = [t for t in TOOLS if t == "cpsudoku" or missing is None]
    many = "puzzle" if len(rows) == 1 else "puzzles"
    out = [f"{len(rows)} {many}, time limit {time_limit:g} s per puzzle and tool", "",
           "| tool | read | explained | stuck / guessed | timed out | refused | "
           "unsound steps | median s | max s |", "|---|---|---|---|---|---|---|---|---|"]
    for tool in tools:
        got = [r.outcomes[tool] for r in rows]
        read = [o for o in got if o.read]
        times = [o.seconds for o in read if o.seconds is not None]
        stuck = sum(o.status == "stuck" for o in read)
        guessed = sum(o.status == "guessed" for o in read)
        out.append(
            f"| {tool} | {len(read)} | {sum(o.explained for o in read)} | {stuck} / {guessed} "
            f"| {sum(o.status == 'timeout' for o in read)} "
            f"| {sum(o.status == 'refused' for o in read)} "
            f"| {sum(len(o.unsound) for o in read)} "
            f"| {statistics.median(times) if times else 0:.2f} "
            f"| {max(times) if times else 0:.2f} |")
    made = [r.outcomes["cpsudoku"] for r in rows if r.outcomes["cpsudoku"].read]
    out += ["", f"cpsudoku steps without a reason: {sum(o.unreasoned for o in made)} of "
                f"{sum(o.steps for o in made)}"]
    if missing is not None:
        out += ["", f"pencilmark column missing: {missing}"]
        return out
    both = [r for r in rows if r.outcomes["cpsudoku"].read and r.outcomes["pencilmark"].read]
    cp = [r.outcomes["cpsudoku"].explained for r in both]
    pm = [r.outcomes["pencilmark"].explained for r in both]
    pairs_of = list(zip(cp, pm))
    counts = (sum(a and b for a, b in pairs_of), sum(a and not b for a, b in pairs_of),
              sum(b and not a for a, b in pairs_of), sum(not (a or b) for a, b in pairs_of))
    out += ["", f"On the {len(both)} puzzles both read: both explain {counts[0]}, only cpsudoku "
                f"{counts[1]}, only pencilmark {counts[2]}, neither {counts[3]}"]
    pairs = [(r.outcomes["cpsudoku"].rating, r.outcomes["pencilmark"].rating) for r in both
             if r.outcomes["cpsudoku"].explained and r.outcomes["pencilmark"].explained]
    rated = [(a, b) for a, b in pairs if a is not None and b is not None]
    rho = spearman([a for a, _ in rated], [b for _, b in rated])
    out.append(f"Spearman's rho, cpsudoku ER against pencilmark difficulty ({len(rated)} "
               f"puzzles both explain): " + ("n/a" if rho is None else f"{rho:.3f}"))
    return out


def run(python: str | None, time_limit: float = DEFAULT_TIME_LIMIT, *, which: str = "examples",
        variants: Path | None = None, limit: int | None = None, name: str | None = None,
        json_out: Path | None = None, out=None) -> int:
    """Measure and print; 0 when no step of either tool was unsound, 1 otherwise."""
    stream = out or sys.stdout

    def say(text: str) -> None:
        print(text, file=stream, flush=True)

    cases = load_cases(which, variants, limit, name)
    say(f"{'puzzle':<40} {'cpsudoku':<24} pencilmark")
    rows, missing = measure(cases, python, time_limit, lambda row: say(row_line(row)))
    say("")
    for line in summary(rows, time_limit, missing):
        say(line)
    if json_out is not None:
        json_out.write_text(json.dumps([r.as_dict() for r in rows], indent=1) + "\n",
                            encoding="utf-8")
    return 1 if any(o.unsound for r in rows for o in r.outcomes.values()) else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cpsudoku.bench.explain",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--pencilmark-python", metavar="PATH",
                        help="a Python interpreter with pencilmark installed")
    parser.add_argument("-t", "--time-limit", type=float, default=DEFAULT_TIME_LIMIT,
                        help="seconds per puzzle and tool (default %(default)g)")
    parser.add_argument("--set", dest="which", default="examples", choices=("examples", "all"),
                        help="ISS's 62 examples, or all with its collection puzzles")
    parser.add_argument("--variants", nargs="?", type=Path, const=VARIANTS_DIR, default=None,
                        metavar="DIR", help=f"add the variant examples (default DIR: "
                                            f"{VARIANTS_DIR})")
    parser.add_argument("--limit", type=int, default=None, help="the first K puzzles only")
    parser.add_argument("--name", default=None, help="only puzzles whose name holds TEXT")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE",
                        help="write the per-puzzle rows as JSON")
    args = parser.parse_args(argv)
    if not args.time_limit > 0:
        parser.error(f"-t must be a positive number of seconds, not {args.time_limit}")
    if args.limit is not None and args.limit < 1:
        parser.error(f"--limit must be 1 or more, not {args.limit}")
    try:
        return run(args.pencilmark_python, args.time_limit, which=args.which,
                   variants=args.variants, limit=args.limit, name=args.name,
                   json_out=args.json)
    except CpsudokuError as exc:
        print(f"cpsudoku: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
