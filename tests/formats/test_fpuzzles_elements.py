"""f-puzzles' keys of outside clues, indexers, clones, quadruples, minimum and maximum
cells and given pencil marks: read from JSON in the shapes f-puzzles writes, held to
what they mean on a known solution, and written back to the same meaning."""

from __future__ import annotations

import json

import pytest
from test_fpuzzles_write import meaning

from cpsudoku.api import is_solution
from cpsudoku.errors import ModelError
from cpsudoku.formats.fpuzzles import from_fpuzzles
from cpsudoku.formats.fpuzzles_write import link, to_fpuzzles
from cpsudoku.formats.read import parse
from cpsudoku.grid.constraints import Allowed, Less

pytestmark = pytest.mark.unit

SOLUTION = [int(d) for d in "851924736243876519796315248168547923325689471479132685"
                            "687451392932768154514293867"]
N = 9


def digit(r: int, c: int) -> int:
    """The solution's digit at row r, column c (1-based)."""
    return SOLUTION[(r - 1) * N + c - 1]


def fp(**keys) -> dict:
    """An empty 9x9 f-puzzles object with the given constraint keys."""
    return {"size": N, "grid": [[{} for _ in range(N)] for _ in range(N)], **keys}


# ---------------------------------------------------------------- outside clues

def seen_from(cell: str) -> list[int]:
    """The digits of the row or column an f-puzzles clue cell stands beside, read from it."""
    r, c = (int(x) for x in cell[1:].split("C"))
    if r in (0, N + 1):
        line = [digit(k, c) for k in range(1, N + 1)]
        return line if r == 0 else line[::-1]
    line = [digit(r, k) for k in range(1, N + 1)]
    return line if c == 0 else line[::-1]


def sandwich(line):
    a, b = sorted((line.index(1), line.index(N)))
    return sum(line[a + 1:b])


def x_sum(line):
    return sum(line[:line[0]])


def skyscraper(line):
    return sum(1 for k, v in enumerate(line) if all(v > u for u in line[:k]))


CLUES = {"sandwichsum": sandwich, "xsum": x_sum, "skyscraper": skyscraper}
SIDES = ("R2C0", "R2C10", "R0C7", "R10C7")  # left of row 2, right of it, above column 7, below


@pytest.mark.parametrize("key", CLUES)
def test_outside_clues_read_from_the_side_they_stand_on(key):
    clues = [{"cell": cell, "value": str(CLUES[key](seen_from(cell)))} for cell in SIDES]
    puzzle = from_fpuzzles(fp(**{key: [*clues, {"cell": "R4C0", "value": ""}]}))
    assert [r.key for r in puzzle.rules] == [{"sandwichsum": "sandwiches", "xsum": "x_sums",
                                              "skyscraper": "skyscrapers"}[key]]
    assert len(puzzle.rules[0].elements) == 4  # the clue without a value is no clue
    assert is_solution(puzzle, SOLUTION)
    # the same numbers on the other side of their line: a different puzzle
    swapped = [{"cell": SIDES[k ^ 1], "value": clue["value"]} for k, clue in enumerate(clues)]
    if key != "sandwichsum":  # a sandwich reads the same from either end
        assert not is_solution(from_fpuzzles(fp(**{key: swapped})), SOLUTION)


def test_outside_clues_mean_what_the_puzzle_file_says():
    data = fp(sandwichsum=[{"cell": "R0C3", "value": "22"}],
              xsum=[{"cell": "R1C10", "value": "31"}],
              skyscraper=[{"cell": "R10C4", "value": "4"}])
    toml = """size = 9
sandwiches = [{column = 3, side = "start", value = 22}]
x_sums = [{row = 1, side = "end", value = 31}]
skyscrapers = [{column = 4, side = "end", value = 4}]
"""
    assert meaning(from_fpuzzles(data)) == meaning(parse(toml)[0])


@pytest.mark.parametrize("cell", ["R5C5", "R0C0", "R10C10", "R0C11", "R12C3"])
def test_an_outside_clue_not_beside_a_line_is_refused_naming_it(cell):
    with pytest.raises(ModelError, match=f"skyscraper 1: {cell} is not just "
                                         f"outside the 9x9 grid"):
        from_fpuzzles(fp(skyscraper=[{"cell": cell, "value": "3"}]))


# ---------------------------------------------------------------- indexers

def indexers(kind: str) -> list[str]:
    """Every cell of the solution that is an indexer of this kind."""
    out = []
    for r in range(1, N + 1):
        for c in range(1, N + 1):
            v = digit(r, c)
            if kind == "row" and digit(v, c) == r or kind == "column" and digit(r, v) == c:
                out.append(f"R{r}C{c}")
            if kind == "box":
                top, left = r - (r - 1) % 3, c - (c - 1) % 3
                own = (r - top) * 3 + c - left + 1
                if digit(top + (v - 1) // 3, left + (v - 1) % 3) == own:
                    out.append(f"R{r}C{c}")
    return out


@pytest.mark.parametrize("kind", ["row", "column", "box"])
def test_indexers_index_their_line(kind):
    cells = indexers(kind)
    assert cells, kind
    puzzle = from_fpuzzles(fp(**{f"{kind}indexer": [{"cells": cells[:1]}, {"cells": cells[1:]}]}))
    (rule,) = puzzle.rules
    assert {g.kind for g in rule.elements} == {kind}
    assert is_solution(puzzle, SOLUTION)
    wrong = next(f"R{r}C{c}" for r in range(1, N + 1) for c in range(1, N + 1)
                 if f"R{r}C{c}" not in cells)
    assert not is_solution(from_fpuzzles(fp(**{f"{kind}indexer": [{"cells": [wrong]}]})),
                           SOLUTION)


def test_the_159_rule_is_written_as_column_indexers():
    puzzle = parse("size = 9\nrules = [\"159\"]\n")[0]
    data = to_fpuzzles(puzzle)
    assert data["columnindexer"][0]["cells"][:2] == ["R1C1", "R2C1"]
    assert len(data["columnindexer"][0]["cells"]) == 27
    assert meaning(from_fpuzzles(data)) == meaning(puzzle)


# ---------------------------------------------------------------- clones, quadruples

def equal_pairs(puzzle) -> set:
    return {con.cells for con in puzzle.constraints() if isinstance(con, Allowed)}


def test_a_moved_region_is_one_clone_pairing_its_cells_in_order():
    data = fp(clone=[{"cells": ["R1C2", "R1C1", "R2C1"],
                      "cloneCells": ["R5C6", "R5C5", "R6C5"]}])
    puzzle = from_fpuzzles(data)
    (rule,) = puzzle.rules
    assert len(rule.elements) == 1
    assert equal_pairs(puzzle) == {(1, 41), (0, 40), (9, 49)}


def test_any_other_pairing_of_clone_cells_keeps_its_pairs():
    # f-puzzles pairs cell i with clone cell i, whatever the shapes
    data = fp(clone=[{"cells": ["R1C1", "R1C2", "R1C3"],
                      "cloneCells": ["R9C3", "R9C2", "R1C3"]}])
    assert equal_pairs(from_fpuzzles(data)) == {(0, 74), (1, 73)}


def test_clone_lists_of_different_lengths_are_refused():
    with pytest.raises(ModelError, match="clone 1: 2 cells but 1 clone cells"):
        from_fpuzzles(fp(clone=[{"cells": ["R1C1", "R1C2"], "cloneCells": ["R5C5"]}]))


def test_quadruples_need_their_digits_in_the_square():
    square = ["R1C1", "R1C2", "R2C1", "R2C2"]
    held = [digit(1, 1), digit(2, 2)]
    assert is_solution(from_fpuzzles(fp(quadruple=[{"cells": square, "values": held}])),
                       SOLUTION)
    missing = next(v for v in range(1, N + 1)
                   if v not in (digit(1, 1), digit(1, 2), digit(2, 1), digit(2, 2)))
    assert not is_solution(from_fpuzzles(fp(quadruple=[{"cells": square,
                                                        "values": [missing]}])), SOLUTION)
    with pytest.raises(ModelError, match="quadruple 1 at r1c1: .* 2x2 square"):
        from_fpuzzles(fp(quadruple=[{"cells": ["R1C1", "R1C2", "R1C3", "R2C2"],
                                     "values": [1]}])).constraints()


# ---------------------------------------------------------------- minimum, maximum

def test_minimum_and_maximum_cells_are_smaller_and_larger_than_their_neighbours():
    ones = [{"cell": f"R{r}C{c}"} for r in range(1, N + 1) for c in range(1, N + 1)
            if digit(r, c) == 1]
    nines = [{"cell": f"R{r}C{c}"} for r in range(1, N + 1) for c in range(1, N + 1)
             if digit(r, c) == N]
    assert is_solution(from_fpuzzles(fp(minimum=ones, maximum=nines)), SOLUTION)
    assert not is_solution(from_fpuzzles(fp(minimum=nines[:1])), SOLUTION)
    assert not is_solution(from_fpuzzles(fp(maximum=ones[:1])), SOLUTION)


def test_neighbouring_minimum_cells_are_not_compared_with_each_other():
    puzzle = from_fpuzzles(fp(minimum=[{"cell": "R1C1"}, {"cell": "R1C2"}]))
    smaller_greater = {con.cells for con in puzzle.constraints() if isinstance(con, Less)}
    assert smaller_greater == {(0, 9), (1, 2), (1, 10)}


def test_signs_that_are_not_minimum_or_maximum_cells_are_refused():
    puzzle = parse('size = 9\ngreater_than = [["r1c1", "r1c2"]]\n')[0]
    with pytest.raises(ModelError, match="f-puzzles has no form for this rule"):
        to_fpuzzles(puzzle)


# ---------------------------------------------------------------- given pencil marks

def test_given_pencil_marks_are_the_cells_candidates():
    data = fp()
    data["grid"][0][0]["givenPencilMarks"] = [digit(1, 1), 3]
    assert is_solution(from_fpuzzles(data), SOLUTION)
    data["grid"][0][0]["givenPencilMarks"] = [v for v in range(1, N + 1) if v != digit(1, 1)]
    assert not is_solution(from_fpuzzles(data), SOLUTION)


# ---------------------------------------------------------------- written back

EVERY_KEY = fp(
    sandwichsum=[{"cell": "R0C3", "value": "22"}], xsum=[{"cell": "R4C10", "value": "14"}],
    skyscraper=[{"cell": "R10C6", "value": "3"}],
    rowindexer=[{"cells": ["R2C6"]}], columnindexer=[{"cells": ["R1C5", "R2C7"]}],
    boxindexer=[{"cells": ["R9C9"]}],
    clone=[{"cells": ["R1C1", "R1C2"], "cloneCells": ["R4C2", "R4C3"]},
           {"cells": ["R7C7"], "cloneCells": ["R8C9"]}],
    quadruple=[{"cells": ["R3C7", "R3C8", "R4C7", "R4C8"], "values": [2, 4]}],
    minimum=[{"cell": "R5C5"}], maximum=[{"cell": "R1C9"}, {"cell": "R9C1"}])
EVERY_KEY["grid"][8][1]["givenPencilMarks"] = [1, 3]


def test_every_key_is_written_back_to_the_same_meaning():
    puzzle = from_fpuzzles(EVERY_KEY)
    written = to_fpuzzles(puzzle)
    for key in ("sandwichsum", "xsum", "skyscraper", "rowindexer", "columnindexer",
                "boxindexer", "clone", "quadruple", "minimum", "maximum"):
        assert written.get(key), key
    assert written["grid"][8][1]["givenPencilMarks"] == [1, 3]
    assert meaning(from_fpuzzles(json.loads(json.dumps(written)))) == meaning(puzzle)
    assert meaning(parse(link(puzzle))[0]) == meaning(puzzle)


def test_keys_cpsudoku_has_no_rule_for_are_still_refused_by_name():
    with pytest.raises(ModelError, match="f-puzzles constraint 'nabner' is not supported"):
        from_fpuzzles(fp(nabner=[{"lines": [["R1C1", "R1C2"]]}]))


@pytest.mark.parametrize("keys, named", [
    ({"minimum": [{"cell": "X5"}]}, "minimum: 'X5' is not a cell name"),
    ({"clone": [{"cells": ["R1C1"], "cloneCells": [3]}]}, "clone 1: 3 is not a cell"),
    ({"quadruple": [{"cells": "R1C1", "values": [1]}]}, "quadruple 1: cells must be a list"),
    ({"rowindexer": [{"cells": ["R1C10"]}]}, "row indexers 1: cell r1c10 is outside"),
    ({"minimum": ["R1C1"]}, "malformed f-puzzles data"),
])
def test_malformed_entries_are_model_errors_naming_them(keys, named):
    with pytest.raises(ModelError, match=named):
        from_fpuzzles(fp(**keys)).constraints()
