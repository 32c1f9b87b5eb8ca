"""Classic puzzles end to end: the whole `cpsudoku solve` process beside the fastest
classic solver, tdoku, or beside hodoku-py when no tdoku is given. Prints a table.

    python -m cpsudoku.bench.classic --tdoku /path/to/tdoku   (a build or a checkout)
    python -m cpsudoku.bench.classic --hodoku-python /path/to/venv/bin/python

Each workload is one file of puzzles, solved counting to 2 (uniqueness proven):
royle_17clue once, the hard sets repeated so that start-up does not decide
(magictour_top1465 ten times, forum_hardest_1106 twenty times). Each solver runs as a
process of its own (under /usr/bin/time where it exists); its CPU time (user +
system, the child's rusage) and peak
memory (ru_maxrss) are read when it ends. The runs alternate between the solvers,
three rounds by default, and the table shows the medians. Every answer is checked
against the set's `.sol` file: the count (capped at 2), and the solution when unique.
The Python programs run as installed ones do: their bytecode compiled by an untimed
first run (kept in the temporary folder, PYTHONPYCACHEPREFIX) and used by the others.

tdoku: `--tdoku` names its `solve` example program, a build folder holding it, or a
checkout, which is then built in a temporary folder with cmake and gcc (the library
`tdoku_static`, then `example/solve.c` linked against it). hodoku-py is a peer, not a
dependency: install it into a virtual environment of its own (`pip install hodoku-py`)
and give that environment's python with `--hodoku-python`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .datasets import find_data_dir, load_set

# (set, times repeated): the workloads the targets name
WORKLOADS = (("royle_17clue", 1), ("magictour_top1465", 10), ("forum_hardest_1106", 20))
ROUNDS = 3

# hodoku-py in its own interpreter: one puzzle a line in, "count:solution" a line out
HODOKU_DRIVER = """
import sys
from hodoku.generator.generator import SudokuGenerator
gen = SudokuGenerator()
out = []
for line in open(sys.argv[1]):
    line = line.strip()
    if len(line) != 81:
        continue
    gen.solve_string(line.replace(".", "0"))
    count = gen.get_solution_count()
    out.append(f"{min(count, 2)}:{gen.get_solution_as_string() if count else ''}")
sys.stdout.write("\\n".join(out) + "\\n")
"""


@dataclass
class Run:
    """One process's figures."""

    cpu_s: float
    peak_mb: float
    correct: int


@dataclass
class Row:
    """One workload: its puzzles and each solver's runs."""

    name: str
    puzzles: int
    runs: dict[str, list[Run]] = field(default_factory=dict)

    def median(self, solver: str, what: str) -> float:
        return statistics.median(getattr(r, what) for r in self.runs[solver])

    def correct(self, solver: str) -> int:
        return min(r.correct for r in self.runs[solver])


def measure(command: list[str], stdin: Path | None, out: Path,
            env: dict[str, str] | None = None) -> tuple[float, float]:
    """(CPU seconds, peak MB) of one process writing its standard output to `out`.

    The process is started by /usr/bin/time where it exists: a child forked from this
    (large) interpreter would report the interpreter's memory as its own peak."""
    timer = shutil.which("time") or ""
    figures = out.with_suffix(".time")
    wrapped = [timer, "-f", "%U %S %M", "-o", str(figures), *command] if timer else command
    with open(out, "wb") as sink, open(stdin or os.devnull, "rb") as source:
        proc = subprocess.Popen(wrapped, stdin=source, stdout=sink,
                                stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise RuntimeError(f"{command[0]} exited with status {code}")
    if timer:
        user, system, peak_kb = figures.read_text().split()[-3:]
        return float(user) + float(system), int(peak_kb) / 1024
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


# --- checking answers: one (count, solution) per puzzle, in input order ---------------

def cpsudoku_answers(text: str) -> list[tuple[int, str]]:
    """`solve -f line -n 2`: the solutions of a puzzle, then its verdict as a comment."""
    answers: list[tuple[int, str]] = []
    found: list[str] = []
    for line in text.splitlines():
        if line.startswith("#"):
            answers.append((min(len(found), 2), found[0] if found else ""))
            found = []
        elif line:
            found.append(line)
    return answers


def tdoku_answers(text: str) -> list[tuple[int, str]]:
    """tdoku's `solve 2`: `puzzle:count:solution` a line."""
    answers = []
    for line in text.splitlines():
        _, count, solution = line.split(":")
        answers.append((min(int(count), 2), solution))
    return answers


def hodoku_answers(text: str) -> list[tuple[int, str]]:
    answers = []
    for line in text.splitlines():
        count, solution = line.split(":")
        answers.append((int(count), solution))
    return answers


def correct(answers: list[tuple[int, str]], expected: list[tuple[str, str, int]]) -> int:
    """How many answers match the set's: the capped count, and the solution when unique."""
    good = 0
    for (count, solution), (_, want, nsol) in zip(answers, expected):
        if count == nsol and (nsol != 1 or solution == want):
            good += 1
    return good


# --- the peers ----------------------------------------------------------------------

def tdoku_program(given: Path, work: Path) -> Path:
    """tdoku's `solve` program: the file given, `solve` in the folder given, or built
    from a checkout in `work`."""
    if given.is_file():
        return given
    for candidate in (given / "solve", given / "build" / "solve"):
        if candidate.is_file():
            return candidate
    if not (given / "CMakeLists.txt").is_file() or not (given / "example" / "solve.c").is_file():
        raise SystemExit(f"{given}: neither tdoku's solve program nor a tdoku checkout")
    build = work / "tdoku-build"
    print(f"building tdoku from {given} in {build} ...", file=sys.stderr)
    subprocess.run(["cmake", "-S", str(given), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", str(build), "--target", "tdoku_static"], check=True,
                   stdout=subprocess.DEVNULL)
    program = build / "solve"
    subprocess.run([os.environ.get("CC", "gcc"), "-O3", "-o", str(program),
                    str(given / "example" / "solve.c"), str(build / "libtdoku_static.a"),
                    "-lstdc++", "-lm"], check=True)
    return program


@dataclass(frozen=True)
class Solver:
    name: str
    command: tuple[str, ...]  # the puzzle file's path is appended, or given on stdin
    stdin: bool
    answers: object  # text -> [(count, solution)]
    env: dict[str, str] | None = None


def installed_python(folder: Path) -> dict[str, str]:
    """The environment of a Python program run as installed: its modules' bytecode
    compiled once and kept (in `folder`, not beside the sources), whatever
    PYTHONDONTWRITEBYTECODE says here."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return env


def solvers(tdoku: Path | None, hodoku_python: str | None, folder: Path) -> list[Solver]:
    env = installed_python(folder)
    here = [Solver("cpsudoku", (sys.executable, "-m", "cpsudoku", "solve", "-f", "line",
                                "-n", "2"), False, cpsudoku_answers, env)]
    if tdoku is not None:
        here.append(Solver("tdoku", (str(tdoku), "2"), True, tdoku_answers))
    elif hodoku_python:
        here.append(Solver("hodoku-py", (hodoku_python, "-c", HODOKU_DRIVER), False,
                           hodoku_answers, env))
    return here


def run_workloads(data: Path, folder: Path, peers: list[Solver], rounds: int,
                  limit: int | None) -> list[Row]:
    rows = []
    warm = folder / "warm.txt"  # one untimed run each: the bytecode compiled, caches warm
    warm.write_text("".join(line + "\n" for line, _, _ in load_set(data, WORKLOADS[0][0], 5)))
    for solver in peers:
        command = list(solver.command) + ([] if solver.stdin else [str(warm)])
        measure(command, warm if solver.stdin else None, folder / "out.txt", solver.env)
    for name, repeat in WORKLOADS:
        expected = load_set(data, name, limit) * repeat
        path = folder / f"{name}x{repeat}.txt"
        path.write_text("".join(line + "\n" for line, _, _ in expected))
        row = Row(f"{name}" + (f" x{repeat}" if repeat > 1 else ""), len(expected))
        for _ in range(rounds):  # alternated: a busy moment spreads over every solver
            for solver in peers:
                out = folder / "out.txt"
                command = list(solver.command) + ([] if solver.stdin else [str(path)])
                cpu, peak = measure(command, path if solver.stdin else None, out, solver.env)
                got = solver.answers(out.read_text())  # type: ignore[operator]
                row.runs.setdefault(solver.name, []).append(
                    Run(cpu, peak, correct(got, expected)))
        rows.append(row)
        print_row(row, peers, header=len(rows) == 1)
    return rows


def print_row(row: Row, peers: list[Solver], header: bool) -> None:
    base = peers[0].name
    if header:
        cols = [f"{'workload':<24}", f"{'puzzles':>8}"]
        for solver in peers:
            cols += [f"{solver.name + ' s':>13}", f"{'MB':>6}", f"{'correct':>8}"]
        if len(peers) > 1:
            cols.append(f"{'ratio':>7}")
        print("".join(cols))
    cols = [f"{row.name:<24}", f"{row.puzzles:>8,}"]
    for solver in peers:
        cols += [f"{row.median(solver.name, 'cpu_s'):>13.3f}",
                 f"{row.median(solver.name, 'peak_mb'):>6.1f}",
                 f"{row.correct(solver.name):>8,}"]
    if len(peers) > 1:
        peer = row.median(peers[1].name, "cpu_s")
        cols.append(f"{row.median(base, 'cpu_s') / peer:>6.1f}x" if peer else f"{'-':>7}")
    print("".join(cols), flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None, help="the puzzle data folder")
    parser.add_argument("--tdoku", type=Path, default=None,
                        help="tdoku's solve program, its build folder or a checkout")
    parser.add_argument("--hodoku-python", default=None,
                        help="the python of a virtual environment with hodoku-py installed "
                             "(the peer when --tdoku is not given)")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--limit", type=int, default=None,
                        help="puzzles of each set (default: all)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.hodoku_python and not shutil.which(args.hodoku_python):
        parser.error(f"--hodoku-python: {args.hodoku_python} not found")
    data = find_data_dir(args.data)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        tdoku = tdoku_program(args.tdoku, folder) if args.tdoku else None
        peers = solvers(tdoku, args.hodoku_python, folder)
        print(f"whole process, CPU seconds and peak MB, medians of {args.rounds} "
              f"alternated runs; cores: {len(os.sched_getaffinity(0))}, load average "
              f"{os.getloadavg()[0]:.1f}")
        run_workloads(data, folder, peers, args.rounds, args.limit)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    main()
