"""Renderers: the shapes of their output, and every result status in every format."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cpsudoku import solve
from cpsudoku.errors import ParseError
from cpsudoku.formats import write as render
from cpsudoku.formats.read import parse, parse_one
from cpsudoku.grid.geometry import boxed, regions_from_labels
from cpsudoku.result import Outcome, Status, finish

pytestmark = pytest.mark.unit

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def jigsaw():
    """Boxes with a few cells traded between neighbouring boxes."""
    labels = [str(3 * (r // 3) + c // 3) for r in range(9) for c in range(9)]
    for a, b in ((20, 27), (41, 51), (3, 2)):
        labels[a], labels[b] = labels[b], labels[a]
    return regions_from_labels(labels, 9)


# --- grids --------------------------------------------------------------------------

@pytest.mark.parametrize("size, lines, width", [(4, 7, 13), (6, 10, 17), (9, 13, 25),
                                                (16, 21, 41), (25, 31, 61)])
def test_pretty_shape(size, lines, width):
    geometry = boxed(size)
    text = render.pretty([0] * (size * size), geometry)
    rows = text.splitlines()
    assert len(rows) == lines
    assert {len(row) for row in rows} == {width}
    assert rows[0][0] == "┌" and rows[0][-1] == "┐"
    assert rows[-1][0] == "└" and rows[-1][-1] == "┘"
    assert "┼" in text and "┬" in text and "┴" in text and "├" in text and "┤" in text
    assert rows[1].count(".") == size


def test_pretty_classic_9x9():
    puzzle = parse_one(INKALA)
    text = render.pretty(puzzle.givens, puzzle.geometry)
    assert text.splitlines()[:2] == ["┌───────┬───────┬───────┐",
                                     "│ 8 . . │ . . . │ . . . │"]
    assert text.splitlines()[4] == "├───────┼───────┼───────┤"
    back = parse_one(text)
    assert (back.givens, back.geometry) == (puzzle.givens, puzzle.geometry)


def test_pretty_draws_the_box_shape():
    wide, tall = boxed(6, (2, 3)), boxed(6, (3, 2))
    assert render.pretty([0] * 36, wide).splitlines()[0] == "┌───────┬───────┐"
    assert render.pretty([0] * 36, tall).splitlines()[0] == "┌─────┬─────┬─────┐"
    assert parse_one(render.pretty([0] * 36, tall)).geometry == tall


def test_pretty_blank_symbol_and_letters():
    values = [16] + [0] * 255
    text = render.pretty(values, boxed(16), blank="0")
    assert text.splitlines()[1].startswith("│ G 0 0 0 │")


def test_pretty_jigsaw_draws_region_borders():
    geometry = jigsaw()
    values = [(c % 9) + 1 for c in range(81)]
    text = render.pretty(values, geometry)
    rows = text.splitlines()
    cell_rows = [row for row in rows if any(ch.isdigit() for ch in row)]
    assert len(cell_rows) == 9
    region = geometry.region_of
    for r, row in enumerate(cell_rows):
        changes = sum(region[r * 9 + c] != region[r * 9 + c + 1] for c in range(8))
        assert row.count("│") == 2 + changes
    assert len({len(row) for row in rows}) == 1
    assert parse_one(text).givens == tuple(values)  # the values read back


def test_line_and_numbers():
    geometry = boxed(16)
    values = list(range(17)) + [0] * 239
    assert render.line(values, "0") == "0123456789ABCDEFG" + "0" * 239
    rows = render.numbers(values, geometry).splitlines()
    assert len(rows) == 16
    assert rows[0] == " 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15"
    assert all(len(row.split()) == 16 for row in rows)
    dotted = render.numbers(values, geometry, blank=".").splitlines()
    assert dotted[0] == " .  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15"
    assert parse_one("\n".join(dotted)).givens == tuple(values)


def test_json_grid_object():
    obj = json.loads(render.json_grid(parse_one(INKALA).givens, boxed(9)))
    assert obj["size"] == 9 and obj["box"] == "3x3"
    assert obj["grid"][0] == [8, 0, 0, 0, 0, 0, 0, 0, 0]
    irregular = json.loads(render.json_grid([0] * 81, jigsaw()))
    assert irregular["box"] is None and len(irregular["regions"]) == 9
    assert irregular["regions"][0] == "112122333"


def test_render_grid_formats():
    geometry = boxed(4)
    values = [1, 0, 0, 0] * 4
    assert render.render_grid(values, geometry, "line") == "1...1...1...1..."
    assert render.render_grid(values, geometry, "pretty").startswith("┌")
    assert json.loads(render.render_grid(values, geometry, "jsonl"))["grid"][3] == [1, 0, 0, 0]
    assert "\n" not in render.render_grid(values, geometry, "jsonl")
    with pytest.raises(ValueError, match="unknown format"):
        render.render_grid(values, geometry, "xml")


# --- results ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def results():
    """One result per status, from real solves (a timeout is what a backend reports
    when its time runs out)."""
    inkala = parse_one(INKALA, source="inkala.txt")
    open4 = parse_one("1234" + "." * 12, source="open.txt")
    clash = parse_one("11" + "." * 79, source="clash.txt")
    timed_out = finish(Outcome([], exhausted=False, timed_out=True, stats={"nodes": 7}),
                       backend="naive", max_solutions=1, elapsed=1.5, puzzle=inkala)
    # One solution found, then time ran out before a second could be excluded.
    first = solve(inkala, "native", max_solutions=1).solutions
    unproven = finish(Outcome(first, exhausted=False, timed_out=True, stats={"nodes": 9}),
                      backend="naive", max_solutions=2, elapsed=2.0, puzzle=inkala)
    return {
        Status.UNIQUE: solve(inkala, "native", max_solutions=2),
        Status.SOLVED: solve(inkala, "native", max_solutions=1),
        Status.MULTIPLE: solve(open4, "native", max_solutions=3),
        Status.UNSOLVABLE: solve(clash, "native"),
        Status.UNPROVEN: unproven,
        Status.TIMEOUT: timed_out,
    }


def test_every_status_is_covered(results):
    assert {status: r.status for status, r in results.items()} == {s: s for s in Status}


@pytest.mark.parametrize("status", list(Status), ids=lambda s: s.value)
def test_pretty_result(results, status):
    """The verdict, then each solution found; the only digits of a solved grid's output
    are the solution's."""
    result = results[status]
    text = render.render_result(result, "pretty", index=0)
    first = text.splitlines()[0]
    assert text.count("┌") == len(result.solutions)
    expected = {Status.UNIQUE: "unique solution", Status.SOLVED: "solved",
                Status.UNPROVEN: "solved, not proven unique: time ran out",
                Status.MULTIPLE: "not unique: 3 solutions found",
                Status.UNSOLVABLE: "no solution: r1c1 and r1c2 both hold 1",
                Status.TIMEOUT: "timeout: no solution found in 1.5 s"}[status]
    assert expected in first
    if status is Status.MULTIPLE:
        assert "solution 3:" in text
    if result.solutions:
        grid = text.split("\n", 1)[1] if status is not Status.MULTIPLE else \
            text.split("solution 1:\n", 1)[1].split("solution 2:")[0]
        assert parse_one(grid).givens == result.solutions[0]
    if status in (Status.UNIQUE, Status.SOLVED, Status.UNPROVEN):
        digits = "".join(ch for ch in text.split("\n", 1)[1] if ch.isdigit())
        assert digits == "".join(map(str, result.solution))


@pytest.mark.parametrize("status", list(Status), ids=lambda s: s.value)
def test_line_result(results, status):
    result = results[status]
    rows = render.render_result(result, "line").splitlines()
    if result.solutions:
        assert [p.givens for p in parse("\n".join(rows))] == result.solutions
    else:
        assert len(rows) == 1 and rows[0].startswith("# ")
        with pytest.raises(ParseError, match="no puzzle found"):
            parse("\n".join(rows))  # a comment: the output still parses


@pytest.mark.parametrize("status", list(Status), ids=lambda s: s.value)
def test_json_results(results, status):
    result = results[status]
    obj = json.loads(render.render_result(result, "json", index=4))
    assert obj["status"] == status.value and obj["index"] == 4
    assert obj["size"] == result.puzzle.size and len(obj["grids"]) == len(result.solutions)
    line = render.render_result(result, "jsonl", index=4)
    assert "\n" not in line and json.loads(line) == result.as_dict(4)
    if status is Status.UNSOLVABLE:
        assert obj["reason"]


def test_jsonl_of_many(results):
    text = render.jsonl(results.values(), start=1)
    rows = [json.loads(row) for row in text.splitlines()]
    assert [row["index"] for row in rows] == [1, 2, 3, 4, 5, 6]
    assert [row["status"] for row in rows] == [s.value for s in results]


def test_stats(results):
    result = results[Status.UNIQUE]
    for fmt in ("pretty", "line"):
        last = render.render_result(result, fmt, stats=True).splitlines()[-1]
        assert last.startswith("# native ") and " ms" in last
        assert render.render_result(result, fmt).splitlines()[-1] != last


def test_result_without_puzzle():
    result = finish(Outcome([tuple(range(1, 5)) * 4], exhausted=True), backend="native",
                    max_solutions=1, elapsed=0.01)
    assert render.render_result(result, "pretty", index=2).startswith("solved\n┌")
    assert render.render_result(result, "line", index=2) == "1234" * 4
    unsolved = finish(Outcome([], exhausted=True), backend="native", max_solutions=1,
                      elapsed=0.01)
    assert render.render_result(unsolved, "line", index=2) == "# #3: no solution"
    with pytest.raises(ValueError):
        render.render_result(result, "csv")


def test_killer_cages_drawn_under_the_solution():
    from cpsudoku.formats.sources import read_puzzles

    examples = Path(__file__).resolve().parents[2] / "examples" / "variants"
    puzzle = read_puzzles(str(examples / "killer-6x6.toml"))[0]
    text = render.render_result(solve(puzzle, max_solutions=2), "pretty")
    grids = text.split("rules: ")
    assert len(grids) == 2 and "killer cages (13)" in grids[1]
    cage_map = grids[1].splitlines()[1:]
    assert cage_map[0].startswith("┌") and cage_map[-1].startswith("└")
    # Each cage total appears once, in the cage's first cell.
    totals = [int(t) for t in re.findall(r"\d+", "\n".join(cage_map))]
    assert sorted(totals) == sorted(e.total for r in puzzle.rules for e in r.elements)
