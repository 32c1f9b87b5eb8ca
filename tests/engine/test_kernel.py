"""The C kernel of the native engine: it agrees with the Python engine, counts,
honours deadlines and Ctrl-C, rejects bad structures, and is optional."""

from __future__ import annotations

import _thread
import random
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import read_set
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpsudoku import BackendError, Puzzle, is_solution, solve
from cpsudoku.engine import kernel
from cpsudoku.engine.plan import compile_model
from cpsudoku.grid.geometry import boxed, irregular
from cpsudoku.model import build_model, find_conflicts
from cpsudoku.result import Status
from cpsudoku.rules import by_names

ROOT = Path(__file__).resolve().parents[2]
needs_kernel = pytest.mark.skipif(not kernel.available(), reason="the C kernel is not built")

# Shapes of every size the parser knows, with a box shape that tiles it.
SHAPES = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 10: (2, 5), 12: (3, 4), 16: (4, 4),
          25: (5, 5)}
JIGSAW_9 = ["442229999", "442229919", "442229918", "447777118", "477551118",
            "775551818", "375558888", "333566666", "333336666"]


def random_grid(size: int, rng: random.Random) -> list[int]:
    """A valid grid: the shifted pattern, shuffled by moves that keep it valid."""
    br, bc = SHAPES[size]

    def shuffled(group, count):
        out = []
        for b in rng.sample(range(count // group), count // group):
            out += rng.sample(range(b * group, b * group + group), group)
        return out

    labels = rng.sample(range(1, size + 1), size)
    rows, cols = shuffled(br, size), shuffled(bc, size)
    return [labels[(r % br * bc + r // br + c) % size] for r in rows for c in cols]


def both_ways(puzzle: Puzzle, **kw):
    """The same search by the kernel and by the Python engine."""
    return (solve(puzzle, "native", kernel="c", **kw),
            solve(puzzle, "native", kernel="python", **kw))


def assert_agree(puzzle: Puzzle, max_solutions: int = 3, **options):
    c, py = both_ways(puzzle, max_solutions=max_solutions, **options)
    assert c.stats["kernel"] == "c" and py.stats["kernel"] == "python"
    assert c.status is py.status, (c.status, py.status)
    assert set(c.solutions) == set(py.solutions)
    for found in c.solutions:
        assert is_solution(puzzle, found)
    return c, py


# --- agreement with the Python engine ------------------------------------------

@needs_kernel
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.sampled_from([4, 6, 8, 9, 10, 12, 16]), seed=st.integers(0, 2**32 - 1),
       blank_share=st.floats(0.3, 0.8))
def test_agrees_with_python_on_random_puzzles(size, seed, blank_share):
    rng = random.Random(seed)
    grid = random_grid(size, rng)
    puzzle = Puzzle(boxed(size, SHAPES[size]),
                    tuple(0 if rng.random() < blank_share else v for v in grid))
    c, py = assert_agree(puzzle)
    assert c.status is not Status.UNSOLVABLE  # the grid it came from is a solution
    if c.status is Status.UNIQUE:
        assert c.solution == tuple(grid)
    # The kernel runs the same algorithm: the same tree, node for node.
    assert c.stats["nodes"] == py.stats["nodes"]


def variant_puzzle(kind: str, rng: random.Random, givens: int) -> Puzzle | None:
    """A few random non-conflicting givens under a variant rule: unique, multiple or
    unsolvable, whichever it turns out, for both engines to agree on."""
    if kind == "jigsaw":
        geometry = irregular(9, [[r * 9 + c for r in range(9) for c in range(9)
                                  if JIGSAW_9[r][c] == label] for label in "123456789"])
        rules = []
    else:
        geometry, rules = boxed(9), by_names(kind)
    values = [0] * 81
    for cell in rng.sample(range(81), givens):
        values[cell] = rng.randint(1, 9)
    puzzle = Puzzle(geometry, tuple(values), tuple(rules))
    return None if find_conflicts(build_model(puzzle)) else puzzle


@needs_kernel
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["jigsaw", "diagonal", "windoku", "anti-knight",
                             "disjoint-groups", "anti-king"]),
       seed=st.integers(0, 2**32 - 1), givens=st.integers(8, 22))
def test_agrees_with_python_on_variants(kind, seed, givens):
    puzzle = variant_puzzle(kind, random.Random(seed), givens)
    if puzzle is None:  # random givens in conflict: most draws (no assume: too many)
        return
    c, py = both_ways(puzzle, max_solutions=2, time_limit=20)
    if c.status.ran_out_of_time or py.status.ran_out_of_time:
        return  # a refutation that outlasts the limit: no answer to compare
    assert c.status is py.status, (c.status, py.status)
    assert set(c.solutions) == set(py.solutions)
    assert all(is_solution(puzzle, found) for found in c.solutions)


@needs_kernel
@pytest.mark.parametrize("name,limit", [("norvig_top95", 30), ("forum_hardest_1106", 15),
                                        ("gecode_16x16", 5), ("serg_benchmark", 30)])
def test_agrees_on_published_sets(name, limit):
    from cpsudoku.bench.datasets import puzzle_of
    for text, solution, nsol in read_set(name, limit):
        c, _ = assert_agree(puzzle_of(text), max_solutions=2)
        assert c.status is (Status.UNIQUE if nsol == 1 else Status.MULTIPLE)
        if nsol == 1:
            assert "".join("123456789ABCDEFG"[v - 1] for v in c.solution) == solution.upper()


@needs_kernel
@pytest.mark.parametrize("options", [{}, {"pairs": True}, {"probing": True},
                                     {"pairs": True, "probing": True, "locked_candidates": True},
                                     {"locked_candidates": False}])
def test_every_reasoning_option_agrees(options):
    rng = random.Random(7)
    for size in (9, 16):
        grid = random_grid(size, rng)
        puzzle = Puzzle(boxed(size), tuple(0 if rng.random() < 0.6 else v for v in grid))
        assert_agree(puzzle, **options)


# --- counting, deadlines, interruption ------------------------------------------

@needs_kernel
def test_counts_every_solution_of_the_blank_4x4():
    result = solve("." * 16, "native", max_solutions=1000, kernel="c")
    assert result.status is Status.MULTIPLE and result.stats["kernel"] == "c"
    assert len(set(result.solutions)) == 288


@needs_kernel
@pytest.mark.parametrize("limit", [1, 2, 5, 17])
def test_counting_stops_at_the_limit(limit):
    result = solve("." * 81, "native", max_solutions=limit, kernel="c")
    assert len(set(result.solutions)) == limit
    assert not result.stats["timed_out"]


@needs_kernel
def test_unsolvable_without_given_conflicts():
    text = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    # r1c2 is 1 in the only solution; 2 there clashes with no given but has no solution.
    result = solve("82" + text[2:], "native", max_solutions=2, kernel="c")
    assert result.status is Status.UNSOLVABLE and result.reason is None


@needs_kernel
@pytest.mark.timing
def test_deadline_inside_the_kernel():
    hard = read_set("gecode_25x25", 1)[0][0]
    started = time.monotonic()
    result = solve(hard, "native", max_solutions=2, time_limit=0.3, kernel="c")
    elapsed = time.monotonic() - started
    assert result.status is Status.TIMEOUT and result.stats["timed_out"]
    assert elapsed < 0.3 * 1.1 + 0.3


@needs_kernel
@pytest.mark.timing
def test_ctrl_c_interrupts_the_kernel():
    hard = read_set("gecode_25x25", 1)[0][0]
    solve(hard, "native", time_limit=0.01, kernel="c")  # tables built outside the timing
    timer = threading.Timer(0.3, _thread.interrupt_main)
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            solve(hard, "native", max_solutions=2, time_limit=30, kernel="c")
    finally:
        timer.cancel()
    assert time.monotonic() - started < 5


@needs_kernel
def test_searches_in_threads_at_once():
    # The kernel releases the GIL while it searches; each thread keeps its own state.
    rows = read_set("forum_hardest_1106", 8)
    results: dict[int, tuple] = {}

    def work(i, text):
        results[i] = solve(text, "native", max_solutions=2, kernel="c").solution

    threads = [threading.Thread(target=work, args=(i, text)) for i, (text, _, _) in
               enumerate(rows)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert ["".join(map(str, results[i])) for i in range(len(rows))] == [s for _, s, _ in rows]


# --- choosing the kernel ----------------------------------------------------------

def test_stats_say_which_kernel_ran():
    auto = solve("." * 16, "native")
    assert auto.stats["kernel"] == ("c" if kernel.available() else "python")
    assert solve("." * 16, "native", kernel="python").stats["kernel"] == "python"


def test_traces_take_the_python_engine_and_sums_the_variant_kernel():
    killer = ROOT / "examples" / "variants" / "killer.toml"
    from cpsudoku.engine import vkernel
    from cpsudoku.formats.puzzlefile import load
    puzzle = load(killer.read_text(), str(killer))[0]
    assert solve(puzzle, "native").stats["kernel"] == ("c" if vkernel.available() else "python")
    assert solve(puzzle, "native", kernel="python").stats["kernel"] == "python"
    assert solve("." * 16, "native", trace=True).stats["kernel"] == "python"
    assert kernel.applicable(compile_model(build_model(puzzle))) == (
        "the model has constraints other than all-different" if kernel.available()
        else "the C kernel is not built")
    if kernel.available():
        with pytest.raises(BackendError, match="kernel=c.*trace"):
            solve("." * 16, "native", kernel="c", trace=True)


@pytest.mark.parametrize("bad", ["fortran", 3, ""])
def test_kernel_option_refuses_nonsense(bad):
    with pytest.raises(BackendError, match="kernel must be auto, c or python"):
        solve("." * 16, "native", kernel=bad)


# --- the boundary: bad structures and masks are refused, never a crash ----------

def good_structure(size: int = 4):
    plan = compile_model(build_model(Puzzle(boxed(size), (0,) * size ** 2)))
    return plan, [size, plan.units, plan.peers, plan.intersections]


@needs_kernel
@pytest.mark.parametrize("change,message", [
    (lambda a: a.__setitem__(0, 0), "size 0 out of range"),
    (lambda a: a.__setitem__(0, 33), "size 33 out of range"),
    (lambda a: a.__setitem__(1, [(0, 1, 2)]), "unit 0 has 3 cells, not 4"),
    (lambda a: a.__setitem__(1, [(0, 1, 2, 99)]), "cell 99 out of range"),
    (lambda a: a.__setitem__(1, [(0, 1, 2, -1)]), "cell -1 out of range"),
    (lambda a: a.__setitem__(1, [(0, 1, 1, 2)]), "holds cell 1 twice"),
    (lambda a: a.__setitem__(1, [("a", 1, 2, 3)]), "not a cell index"),
    (lambda a: a.__setitem__(1, 7), "units must be a sequence"),
    (lambda a: a.__setitem__(2, a[2][:3]), "peers has 3 entries, not 16"),
    (lambda a: a.__setitem__(2, [(c,) for c in range(16)]), "cell 0 is listed as its own peer"),
    (lambda a: a.__setitem__(2, [(16,)] * 16), "out of range"),
    (lambda a: a.__setitem__(3, [((0, 1), (2,))]), "not \\(shared, rest a, rest b\\)"),
    (lambda a: a.__setitem__(3, [((0, 1), (2,), (500,))]), "out of range"),
])
def test_bad_structures_are_refused(change, message):
    _, args = good_structure()
    change(args)
    with pytest.raises((ValueError, TypeError), match=message):
        kernel._kernel.Kernel(*args)


@needs_kernel
@pytest.mark.parametrize("domains,message", [
    ([15] * 15, "15 domains for 16 cells"),
    ([15] * 15 + [16], "mask 16 has values beyond 4"),
    ([15] * 15 + [-1], "mask -1"),
    ([15] * 15 + [2**70], "not a mask"),
    ([15] * 15 + ["x"], "not a mask"),
])
def test_bad_domains_are_refused(domains, message):
    _, args = good_structure()
    with pytest.raises(ValueError, match=message):
        kernel._kernel.Kernel(*args).solve(domains)


@needs_kernel
@pytest.mark.parametrize("kw,message", [({"max_solutions": 0}, "max_solutions"),
                                        ({"locked_depth": -1}, "locked_depth"),
                                        ({"probing": 3}, "probing must be 0, 1"),
                                        ({"time_limit": float("nan")}, "time_limit")])
def test_bad_search_settings_are_refused(kw, message):
    _, args = good_structure()
    with pytest.raises(ValueError, match=message):
        kernel._kernel.Kernel(*args).solve([15] * 16, **kw)


@needs_kernel
def test_any_group_structure_is_searched_safely():
    """Random peer relations and units from random partitions: every answer is
    consistent with the structure, whatever it is."""
    rng = random.Random(3)
    for _ in range(30):
        n = rng.choice([4, 5, 6])
        cells = list(range(n * n))
        units = [tuple(rng.sample(cells, n)) for _ in range(rng.randint(0, 6))]
        peers = [set() for _ in cells]
        for u in units:
            for a in u:
                peers[a].update(c for c in u if c != a)
        k = kernel._kernel.Kernel(n, units, [tuple(p) for p in peers], [])
        domains = [rng.randint(1, (1 << n) - 1) for _ in cells]
        solutions, exhausted, timed_out, stats = k.solve(domains, 5, 1.0, 2, True, True)
        for s in solutions:
            assert all(domains[c] >> (v - 1) & 1 for c, v in enumerate(s))
            assert all(s[a] != s[b] for a in cells for b in peers[a])
        assert not timed_out or not exhausted


# --- packaging: the extension is optional ------------------------------------------

def test_the_kernel_is_built_where_a_compiler_is():
    # the README's install (pip install -e '.[test]', as CI runs it) compiles it in place
    if not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler here")
    assert kernel.available(), "a compiler is installed but the C kernel was not built"


@pytest.mark.process
def test_without_the_extension_the_python_engine_is_used():
    code = ("import sys; sys.modules['cpsudoku.engine._kernel'] = None\n"
            "from cpsudoku import solve, BackendError, backends\n"
            "r = solve('.' * 16, 'native', max_solutions=2)\n"
            "assert r.stats['kernel'] == 'python' and r.status.value == 'multiple'\n"
            "assert 'not built' in backends.get('native').version()\n"
            "try:\n"
            "    solve('.' * 16, 'native', kernel='c')\n"
            "except BackendError as e:\n"
            "    assert 'not built' in str(e), e\n"
            "else:\n"
            "    raise AssertionError('kernel=c accepted without the kernel')\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


@pytest.mark.process
def test_a_build_without_a_compiler_succeeds_with_a_note(tmp_path):
    """setup.py's build_ext with a compiler that always fails: the build ends well,
    prints the note and leaves no extension behind."""
    env = {"CC": "false", "LDSHARED": "false", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--build-lib",
                           str(tmp_path / "lib"), "--build-temp", str(tmp_path / "tmp")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "the C kernel was not built" in done.stderr
    assert not list((tmp_path / "lib").rglob("_kernel*"))


@needs_kernel
@pytest.mark.parametrize("seed", [2])
def test_agrees_with_python_on_random_25x25(seed):
    # On 25x25 the kernel probes more than the Python engine (see engine.kernel):
    # the answers agree, the trees differ.
    rng = random.Random(seed)
    grid = random_grid(25, rng)
    puzzle = Puzzle(boxed(25), tuple(0 if rng.random() < 0.6 else v for v in grid))
    c, py = both_ways(puzzle, max_solutions=2, time_limit=60)
    assert c.status is py.status and c.status in (Status.UNIQUE, Status.MULTIPLE)
    assert len(set(c.solutions)) == len(c.solutions) == len(py.solutions)
    assert all(is_solution(puzzle, found) for found in c.solutions)
    if c.status is Status.UNIQUE:
        assert c.solution == py.solution == tuple(grid)
