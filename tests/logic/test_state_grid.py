"""The candidate grid explain prints and the state hint reads are one format: printing a
state and reading it back gives the same candidates, on every size and on variants."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsudoku.errors import ModelError, ParseError
from cpsudoku.formats.read import parse_one
from cpsudoku.formats.sources import read_puzzles
from cpsudoku.logic import Unsolvable, explain, hint
from cpsudoku.logic.api import _read_state
from cpsudoku.logic.show import candidate_grid
from cpsudoku.logic.solver import Solver, apply

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
FOUR = "1...3..2...3..2."  # one solution; at step 0, r1c4 has 4 left while r1c3 still lists it
TUTORIAL = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def load(source: str):
    path = EXAMPLES / source
    return read_puzzles(str(path))[0] if path.exists() else parse_one(source)


def states(puzzle, counts):
    """(step count, state) after each of `counts` steps along explain's path."""
    solver = Solver(puzzle)
    state = solver.start()
    wanted = sorted(counts)
    if 0 in wanted:
        yield 0, state.copy()
    for done, step in enumerate(solver.run(state.copy()), 1):
        apply(state, step)
        if done in wanted and not state.solved():
            yield done, state.copy()
        if done >= wanted[-1]:
            break


def candidates(state) -> list[set[int]]:
    """Each cell's possible values: a placed value is its own only candidate."""
    return [{v} if v else {x + 1 for x in range(state.size) if m >> x & 1}
            for v, m in zip(state.values, state.cand)]


@pytest.mark.parametrize("source,counts", [
    (FOUR, [0, 1, 3]),
    ("six.txt", [0, 4, 10]),
    ("tutorial.txt", [0, 5, 20]),
    ("inkala.txt", [0, 5]),
    ("twelve.txt", [0, 7]),
    ("sixteen.txt", [0, 3, 30]),
    ("variants/killer.toml", [0, 2, 9]),
    ("variants/killer-6x6.toml", [0, 3]),
    ("variants/jigsaw.toml", [0, 4, 15]),
    ("variants/anti-knight.toml", [0, 6]),
])
def test_printed_grid_reads_back_to_the_same_candidates(source, counts):
    puzzle = load(source)
    solver = Solver(puzzle)
    seen = 0
    for done, state in states(puzzle, counts):
        text = candidate_grid(state, puzzle.geometry.region_of)
        read, wrong = _read_state(solver, text)
        assert wrong == [], (source, done)
        assert candidates(read) == candidates(state), (source, done, text)
        # padded and separated as explain writes it, or trimmed by an editor: the same
        trimmed = "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
        assert candidates(_read_state(solver, trimmed)[0]) == candidates(state)
        seen += 1
    assert seen == len(counts)


def test_hint_from_a_printed_grid_is_explains_next_step():
    puzzle = load("inkala.txt")
    steps = explain(puzzle).steps
    done, state = next(states(puzzle, [5]))
    got = hint(puzzle, candidate_grid(state, puzzle.geometry.region_of))
    assert got.wrong == [] and got.step.text == steps[5].text


def test_a_last_candidate_its_peers_still_list_stays_a_candidate():
    puzzle = parse_one(FOUR)
    _, state = next(states(puzzle, [0]))
    text = candidate_grid(state, puzzle.geometry.region_of)
    assert text.splitlines()[0].split()[:4] == ["1", "24", "|", "34"]
    read, _ = _read_state(Solver(puzzle), text)
    assert read.values[3] == 0 and read.cand[3] == 0b1000  # r1c4: 4 left, not placed
    assert read.cand[2] == 0b1100  # so r1c3 keeps 3 and 4


def test_plain_grids_still_read_as_values():
    line = TUTORIAL
    puzzle = parse_one(line)
    solver = Solver(puzzle)
    filled = "".join(str(v) for v in solver.solution[:40]) + line[40:]
    read, wrong = _read_state(solver, filled)
    assert wrong == [] and all(read.values[:40])
    rows = "\n".join(filled[r * 9:r * 9 + 9] for r in range(9))
    assert _read_state(solver, rows)[0].values == read.values
    spaced = "\n".join(" ".join(filled[r * 9:r * 9 + 9]) for r in range(9))
    assert _read_state(solver, spaced)[0].values == read.values


def test_a_sixteen_by_sixteen_grid_in_decimal_values_is_not_pencil_marks():
    puzzle = load("sixteen.txt")
    tokens = [str(v) if v else "." for v in puzzle.givens]
    assert any(v >= 10 for v in puzzle.givens)  # so a token such as "12" is a value here
    read, wrong = _read_state(Solver(puzzle), " ".join(tokens))
    assert wrong == [] and [read.values[c] for c, g in enumerate(puzzle.givens) if g] == \
        [g for g in puzzle.givens if g]


def grid_lines(puzzle, count=0) -> list[str]:
    _, state = next(states(puzzle, [count]))
    return candidate_grid(state, puzzle.geometry.region_of).splitlines()


def test_missing_cells_are_counted_against_the_puzzle():
    puzzle = load("inkala.txt")
    solver = Solver(puzzle)
    lines = grid_lines(puzzle)
    with pytest.raises(ParseError, match=r"^state: the state has 72 cell tokens; the 9x9 "
                                         r"puzzle needs 81 \(8 rows of 9 cells"):
        _read_state(solver, "\n".join(lines[:2] + lines[3:]))  # a row of cells left out
    cut = lines[:]
    cut[5] = cut[5].replace(cut[5].split()[1], "", 1)
    with pytest.raises(ParseError, match=r"^state:6: the state has 80 cell tokens; the 9x9 "
                                         r"puzzle needs 81 \(grid row 5 has 8 cells"):
        _read_state(solver, "\n".join(cut))


def test_a_grid_of_another_size_is_named_so():
    nine = "\n".join(grid_lines(load("inkala.txt")))
    with pytest.raises(ParseError, match=r"81 cell tokens; the 6x6 puzzle needs 36 "
                                         r"\(grid row 1 has 9 cells, a row has 6\)"):
        _read_state(Solver(load("six.txt")), nine)


def test_a_bad_token_is_named_with_its_line_and_column():
    puzzle = load("inkala.txt")
    lines = grid_lines(puzzle)
    tok = lines[1].split()[1]
    column = lines[1].index(" " + tok) + 2
    lines[1] = lines[1].replace(" " + tok, " " + tok[:-1] + "x", 1)
    with pytest.raises(ParseError, match=rf"^state:2:{column}: pencil marks '{tok[:-1]}x' at "
                                         r"r2c2 hold 'x', not a symbol 1-9"):
        _read_state(Solver(puzzle), "\n".join(lines))
    lines = grid_lines(load("six.txt"))
    lines[0] = lines[0].replace("25", "27", 1)
    with pytest.raises(ParseError, match=r"'27' at r1c3 hold '7', beyond the 6x6"):
        _read_state(Solver(load("six.txt")), "\n".join(lines))


def test_a_cell_without_candidates_or_a_struck_given_is_refused():
    puzzle = load("inkala.txt")
    lines = grid_lines(puzzle)
    first = lines[0].split()[1]
    with pytest.raises(Unsolvable, match="r1c2 has no candidate left"):
        _read_state(Solver(puzzle), "\n".join([lines[0].replace(first, "-", 1)] + lines[1:]))
    with pytest.raises(ModelError, match="r1c1 holds 12 but the puzzle gives 8"):
        _read_state(Solver(puzzle), "\n".join(["12" + lines[0][1:]] + lines[1:]))
