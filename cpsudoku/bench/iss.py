"""cpsudoku beside the Interactive Sudoku Solver (ISS) on ISS's own puzzles.

    python -m cpsudoku.bench.iss --iss PATH [--backends native,cpsat] [--time-limit 60]
                                 [--set examples|all] [--limit K] [--name TEXT]

For each of ISS's example puzzles (and, with `--set all`, its collection puzzles with a
recorded solution; the data, with its attribution, is `data/iss_puzzles.json`): whether
cpsudoku can express it (if not, the first ISS type it lacks), each backend's answer
checked against the recorded solution and for uniqueness (two solutions asked for), its
time, and ISS's own time measured in the same run by `iss_driver.mjs` in Node, which
loads ISS's solver from the checkout at PATH. One table row per puzzle as it finishes,
then a summary line. Both sides' times count the same work: reading the constraint
string, building the model and searching (cpsudoku's parse is added to each backend's
time). Without a checkout or without `node`, cpsudoku's side still runs
and the ISS column says why it is missing. Ctrl-C prints the summary of what finished.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import selectors
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from .. import api
from ..errors import CpsudokuError, UsageError
from ..formats import iss
from ..grid.geometry import boxed
from ..result import Status

DATA = Path(__file__).with_name("data") / "iss_puzzles.json"
DRIVER = Path(__file__).with_name("iss_driver.mjs")
DEFAULT_BACKENDS = ("native", "cpsat")
DEFAULT_TIME_LIMIT = 60.0
CHECKOUT_ENV = "CPSUDOKU_ISS_CHECKOUT"  # where the tests look for an ISS checkout


@dataclass
class Answer:
    """One solver's answer to one puzzle."""

    status: str  # unique, multiple, unsolvable, timeout, error, missed, ...
    # the recorded solution, proved unique; or, where ISS calls the puzzle unique, a
    # second solution that ISS itself accepts once it is given (see `cross_check`)
    right: bool
    seconds: float | None = None
    detail: str = ""
    solutions: tuple[tuple[int, ...], ...] = ()  # what cpsudoku found, as values

    def cell(self) -> str:
        if self.seconds is None or self.status in ("timeout", "error"):
            return self.status
        shown = self.status if not self.right else (
            "ok" if self.status == "unique" else f"ok, {self.status}")
        return f"{shown} {self.seconds * 1000:.1f}ms"


@dataclass
class Row:
    name: str
    why_not: str | None  # None: cpsudoku expresses the puzzle
    answers: dict[str, Answer] = field(default_factory=dict)
    iss: Answer | None = None


def load_puzzles(which: str = "examples", limit: int | None = None,
                 name: str | None = None) -> list[dict]:
    """ISS's puzzles: its 62 displayed examples, or `all` with its collections'."""
    if which not in ("examples", "all"):
        raise UsageError(f"--set must be examples or all, not {which!r}")
    puzzles = json.loads(DATA.read_text(encoding="utf-8"))["puzzles"]
    chosen = [p for p in puzzles if which == "all" or p["set"] == "examples"]
    if name:
        chosen = [p for p in chosen if name.lower() in p["name"].lower()]
    return chosen[:limit] if limit else chosen


def recorded_solution(text: str | None, size: int, *, first: int = 1,
                      values: int | None = None, width: int = 0) -> tuple[int, ...] | None:
    """ISS's solution string as values: one character a cell, digits while the largest
    digit is at most 9, else letters A=1 ... A puzzle whose digits start at `first` (V of
    them) has value digit - first + 1; a grid of `size` rows of `width` cells."""
    width = width or size
    most = values or max(size, width)
    if not text or len(text) != size * width:
        return None
    if first + most - 1 > 9:
        digits = [ord(ch) - ord("A") + 1 for ch in text]
    else:
        digits = [int(ch) if ch.isdigit() else -1 for ch in text]
    out = tuple(d - first + 1 for d in digits)
    return out if all(1 <= v <= most for v in out) else None


def recorded_for(text: str | None, geometry) -> tuple[int, ...] | None:
    """ISS's solution string as the values of a puzzle of this geometry."""
    return recorded_solution(text, geometry.size, first=geometry.first,
                             values=geometry.values, width=geometry.width)


def expressed(entry: dict):
    """(the cpsudoku puzzle, None), or (None, why cpsudoku cannot express it)."""
    text = entry["input"]
    if not iss.looks_like_iss(text):
        return None, "ISS text shorthand, not a constraint string"
    try:
        return iss.from_string(text, source=entry["name"]), None
    except CpsudokuError as exc:
        message = str(exc)
        return None, message.split(": ", 1)[1] if message.startswith(entry["name"]) else message


def solve_with(puzzle, backend: str, expected, time_limit: float) -> Answer:
    try:
        result = api.solve(puzzle, backend=backend, max_solutions=2, time_limit=time_limit)
    except CpsudokuError as exc:
        return Answer("error", False, detail=str(exc))
    status = result.status
    right = status is Status.UNIQUE and (expected is None or result.solution == expected)
    shown = "timeout" if status.ran_out_of_time else status.value
    if status is Status.UNIQUE and not right:
        shown = "wrong"
    return Answer(shown, right, result.time_s, solutions=tuple(result.solutions))


class IssSolver:
    """ISS's solver in a Node process (`iss_driver.mjs`), restarted after a time-out."""

    def __init__(self, checkout: str | Path | None):
        self.checkout = Path(checkout) if checkout else None
        self.process: subprocess.Popen | None = None
        self.missing = self._why_missing()
        if self.missing is None:
            self.missing = self._start()

    def _why_missing(self) -> str | None:
        if self.checkout is None:
            return "no ISS checkout given (--iss PATH)"
        if shutil.which("node") is None:
            return "node is not installed (ISS runs in Node)"
        if not (self.checkout / "js" / "solver" / "sudoku_builder.js").is_file():
            return f"{self.checkout} is not an ISS checkout (no js/solver/sudoku_builder.js)"
        return None

    def _start(self) -> str | None:
        self.process = subprocess.Popen(
            ["node", str(DRIVER), str(self.checkout)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=self.checkout)
        line = self._line(60.0)
        if line is None or not line.get("ready"):
            err = self.process.stderr.read() if self.process.stderr else ""
            self.close()
            return f"ISS did not load in Node: {(err.strip().splitlines() or ['no output'])[-1]}"
        return None

    def _line(self, timeout: float) -> dict | None:
        assert self.process is not None and self.process.stdout is not None
        with selectors.DefaultSelector() as watch:
            watch.register(self.process.stdout, selectors.EVENT_READ)
            if not watch.select(timeout):
                return None
        text = self.process.stdout.readline()
        return json.loads(text) if text.strip() else None

    def solve(self, text: str, expected, time_limit: float, first: int = 1) -> Answer:
        if self.process is None:
            return Answer("missing", False, detail=self.missing or "")
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"id": 0, "input": text}) + "\n")
        self.process.stdin.flush()
        answer = self._line(time_limit)
        if answer is None:  # out of time (or Node died): start afresh for the next puzzle
            self.close()
            self.missing = self._start()
            return Answer("timeout", False)
        if "error" in answer:
            return Answer("error", False, detail=answer["error"])
        count, seconds = answer["count"], answer["ms"] / 1000
        status = "unique" if count == 1 else "multiple" if count > 1 else "unsolvable"
        found = tuple(d - first + 1 for d in answer["solution"]) if answer.get(
            "solution") else None  # ISS answers in digits
        right = count == 1 and (expected is None or found == expected)
        return Answer(status if right or count != 1 else "wrong", right, seconds)

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def cross_check(answer: Answer, iss_answer: Answer, entry: dict, geometry, ran: IssSolver,
                time_limit: float) -> None:
    """Where cpsudoku finds two solutions, the recorded one among them, give ISS the
    other as givens: when ISS accepts it, the puzzle has two solutions, so cpsudoku's
    answer is right, and so is ISS's when it found two (Sandwich snipe 18), not when it
    found one (0-indexed: Sums and indexing)."""
    iss_unique = iss_answer.right or iss_answer.status == "missed"  # (another backend's check)
    if not (answer.status == "multiple" and (iss_unique or iss_answer.status == "multiple")
            and ran.process is not None):
        return
    expected = recorded_for(entry.get("solution"), geometry)
    other = next((s for s in answer.solutions if s != expected), None)
    if other is None or (expected is not None and expected not in answer.solutions):
        return
    givens = ".~" + "~".join(f"{iss.iss_cell(geometry.cell_name(c))}_{geometry.digits[v - 1]}"
                             for c, v in enumerate(other[:geometry.ncells]))
    checked = ran.solve(entry["input"] + givens, None, time_limit, geometry.first)
    if checked.status in ("unique", "multiple"):
        answer.right = True
        answer.detail = "a second solution, which ISS accepts when it is given"
        if iss_answer.status == "multiple":
            iss_answer.right = True
        else:
            iss_answer.right, iss_answer.status = False, "missed"
            iss_answer.detail = "reported one solution, and accepts a second one"


DEFAULT_REPEAT = 3
# seconds: a puzzle answered faster is timed `repeat` times, the best kept. On a shared
# machine one time may be two to five times another minutes apart (Heat up - global
# entropy: 48 ms and 280 ms in one process), under a second as much as under 0.1 s.
QUICK = 2.0


def best_of(repeat: int, attempt: Callable[[], Answer]) -> Answer:
    """The first answer, with the best time of `repeat` attempts when it came in under
    QUICK (as timeit does): a quick puzzle's single time is mostly the machine's noise
    (Quadruple X: 4-6 ms in most runs, 36 ms in one). Each attempt starts from the
    puzzle's text, on either side."""
    answer = attempt()
    for _ in range(repeat - 1):
        if answer.seconds is None or answer.seconds >= QUICK:
            break
        again = attempt()
        if again.status == answer.status and again.seconds is not None:
            answer.seconds = min(answer.seconds, again.seconds)
    return answer


def _native(entry: dict, backend: str, time_limit: float) -> Answer:
    """Read the puzzle and solve it, timed from its text as ISS is."""
    # The last puzzle's garbage (its plan, kernel, automata) is collected before the
    # clock starts, not charged to this one: Sum lines - long loop took 17 ms after
    # Sum lines - single line, 5 ms on its own.
    gc.collect()
    started = time.monotonic()
    puzzle, _ = expressed(entry)
    parse_s = time.monotonic() - started
    assert puzzle is not None
    expected = recorded_for(entry.get("solution"), puzzle.geometry)
    if expected is None and entry.get("solution"):
        # a recorded solution that does not read as the grid checks nothing
        return Answer("unread", False)
    answer = solve_with(puzzle, backend, expected, time_limit)
    if answer.seconds is not None:  # ISS's time counts its parse too
        answer.seconds += parse_s
    return answer


def measure(entries: Iterable[dict], backends: Sequence[str], checkout, time_limit: float,
            emit: Callable[[Row], object] = lambda row: None,
            repeat: int = 1) -> tuple[list[Row], str | None]:
    """Every puzzle's row (handed to `emit` as it finishes) and, when ISS could not
    run, why. Ctrl-C ends the run early; the rows so far are kept."""
    rows: list[Row] = []
    ran = IssSolver(checkout)
    why_missing = ran.missing
    try:
        _warm_up(backends, ran)
        for entry in entries:
            puzzle, why_not = expressed(entry)
            row = Row(entry["name"], why_not)
            g = puzzle.geometry if puzzle is not None else boxed(9)
            expected = recorded_for(entry.get("solution"), g)
            puzzle = None
            if why_not is None:
                for backend in backends:
                    row.answers[backend] = best_of(
                        repeat, partial(_native, entry, backend, time_limit))
            if ran.process is not None:
                row.iss = best_of(repeat, partial(ran.solve, entry["input"], expected,
                                                  time_limit, g.first))
                for answer in row.answers.values():
                    cross_check(answer, row.iss, entry, g, ran, time_limit)
            rows.append(row)
            emit(row)
    except KeyboardInterrupt:
        pass
    finally:
        ran.close()
    return rows, why_missing


# Solved once, untimed, before the run: library imports, the rules read from their
# files and Node's compiler warming up would otherwise land on the first puzzle's time
# (or the first with a rule: 159 Sudoku's 7.7 ms held 5 ms of reading them).
_CLASSIC = ".~R1C1_5~R1C2_3~R1C5_7~R2C1_6~R2C4_1~R2C5_9~R2C6_5~R3C2_9~R3C3_8~R3C8_6"
_WARM_UP = (_CLASSIC, _CLASSIC + ".AntiKnight")


def _warm_up(backends: Sequence[str], ran: IssSolver) -> None:
    for text in _WARM_UP:
        puzzle = iss.from_string(text)
        for backend in backends:
            solve_with(puzzle, backend, None, DEFAULT_TIME_LIMIT)
        if ran.process is not None:
            ran.solve(text, None, DEFAULT_TIME_LIMIT)


def header(backends: Sequence[str]) -> str:
    return f"{'puzzle':<34} {'cpsudoku':<10} " + " ".join(
        f"{b:<14}" for b in backends) + f" {'ISS':<14} first missing type"


def row_line(row: Row, backends: Sequence[str]) -> str:
    cells = [row.answers[b].cell() if b in row.answers else "-" for b in backends]
    return (f"{row.name[:34]:<34} {'yes' if row.why_not is None else 'no':<10} "
            + " ".join(f"{c:<14}" for c in cells)
            + f" {row.iss.cell() if row.iss else 'missing':<14} {row.why_not or ''}").rstrip()


def summary(rows: list[Row], backends: Sequence[str], time_limit: float) -> str:
    """`expressible 19/62; native right 17/19 (2 timeouts at 60 s), median time ratio to
    ISS 0.51, max 1172; cpsat right 19/19, median ratio 2.21; ISS right 60/62`."""
    able = [r for r in rows if r.why_not is None]
    parts = [f"expressible {len(able)}/{len(rows)}"]
    for i, backend in enumerate(backends):
        answers = [r.answers[backend] for r in able if backend in r.answers]
        text = f"{backend} right {sum(a.right for a in answers)}/{len(answers)}"
        timeouts = sum(a.status == "timeout" for a in answers)
        if timeouts:
            text += f" ({timeouts} timeout{'s' if timeouts > 1 else ''} at {time_limit:g} s)"
        ratios = []
        for r in able:
            mine = r.answers.get(backend)
            if (mine is not None and mine.right and mine.seconds is not None
                    and r.iss is not None and r.iss.right and r.iss.seconds):
                ratios.append(mine.seconds / r.iss.seconds)
        if ratios:
            text += (f", median {'time ratio to ISS' if i == 0 else 'ratio'} "
                     f"{statistics.median(ratios):.2f}, max {max(ratios):.3g}")
        parts.append(text)
    ran = [r.iss for r in rows if r.iss is not None]
    if ran:
        parts.append(f"ISS right {sum(a.right for a in ran)}/{len(ran)}")
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cpsudoku.bench.iss",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--iss", metavar="PATH", default=os.environ.get(CHECKOUT_ENV),
                        help=f"an ISS checkout (default: ${CHECKOUT_ENV}); without one only "
                             "cpsudoku's side runs")
    parser.add_argument("--backends", default=",".join(DEFAULT_BACKENDS), metavar="NAME,...")
    parser.add_argument("--time-limit", "-t", type=float, default=DEFAULT_TIME_LIMIT,
                        metavar="SECONDS", help="per puzzle and solver (default 60)")
    parser.add_argument("--set", default="examples", choices=("examples", "all"))
    parser.add_argument("--limit", type=int, metavar="K", help="only the first K puzzles")
    parser.add_argument("--name", metavar="TEXT", help="only puzzles whose name holds TEXT")
    parser.add_argument("--repeat", type=int, default=DEFAULT_REPEAT, metavar="N",
                        help=f"time puzzles answered in under {QUICK:g} s N times on each "
                             f"side and keep the best (default {DEFAULT_REPEAT})")
    args = parser.parse_args(argv)
    try:
        return run(args.iss, [b.strip() for b in args.backends.split(",") if b.strip()],
                   args.time_limit, args.set, args.limit, args.name, repeat=args.repeat)
    except CpsudokuError as exc:
        print(f"cpsudoku bench iss: {exc}", file=sys.stderr)
        return exc.exit_code


def run(checkout, backends: Sequence[str], time_limit: float = DEFAULT_TIME_LIMIT,
        which: str = "examples", limit: int | None = None, name: str | None = None,
        out=None, repeat: int = 3) -> int:
    """Print the table and the summary; 0 when every expressible puzzle was right on
    every backend, 1 otherwise, 130 when interrupted."""
    out = out or sys.stdout
    if not time_limit > 0:
        raise UsageError(f"--time-limit must be more than 0, not {time_limit:g}")
    if limit is not None and limit < 1:
        raise UsageError(f"--limit must be more than 0, not {limit}")
    if not 1 <= repeat <= 100:
        raise UsageError(f"--repeat must be 1 to 100, not {repeat}")
    from ..backends import get
    for backend in backends:
        get(backend)  # an unknown backend is refused before any puzzle runs
    entries = load_puzzles(which, limit, name)
    print(f"ISS puzzles ({which}), {len(entries)}; two solutions asked for, time limit "
          f"{time_limit:g} s per puzzle and solver; best of {repeat} under {QUICK:g} s",
          file=out)
    print(header(backends), file=out)
    started = time.monotonic()
    rows, why_missing = measure(entries, backends, checkout, time_limit,
                                lambda row: print(row_line(row, backends), file=out,
                                                  flush=True), repeat)
    if why_missing:
        print(f"ISS column missing: {why_missing}", file=out)
    interrupted = len(rows) < len(entries)
    if interrupted:
        print(f"interrupted after {len(rows)} of {len(entries)} puzzles", file=out)
    print(summary(rows, backends, time_limit), file=out)
    print(f"({time.monotonic() - started:.1f} s)", file=out)
    if interrupted:
        return 130
    return 0 if all(a.right for r in rows for a in r.answers.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
