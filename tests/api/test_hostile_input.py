"""Bad input and hostile API calls: one clear cpsudoku error each, never a raw exception,
never a silent acceptance. One test per class, then a bounded fuzz over every format."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import cpsudoku
from cpsudoku import parse, parse_one
from cpsudoku.cli import app
from cpsudoku.errors import ArgumentError, CpsudokuError, ExitCode, ModelError, ParseError
from cpsudoku.formats import fpuzzles
from cpsudoku.formats import write as render
from cpsudoku.formats.safeload import MAX_DEPTH, MAX_DIGITS
from cpsudoku.grid.constraints import AllDifferent
from cpsudoku.grid.geometry import boxed

pytestmark = pytest.mark.unit

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
SIX = "1.....\n..3...\n......\n......\n...4..\n.....6\n"
TOML_PUZZLE = f'name = "p"\ngrid = "{INKALA}"\n'
runner = CliRunner()
FUZZ = settings(max_examples=80, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def refused(text: str, error=CpsudokuError, match: str | None = None) -> CpsudokuError:
    with pytest.raises(error, match=match) as info:
        parse(text, source="in")
    assert "\n" not in str(info.value)
    return info.value


# --- 14.3: JSON puzzle lists, unknown and misplaced keys --------------------------------

def test_json_puzzles_list_is_read_like_toml():
    doc = {"puzzles": [{"grid": INKALA}, {"grid": SIX, "size": 6, "name": "six"}]}
    puzzles = parse(json.dumps(doc))
    assert [p.size for p in puzzles] == [9, 6] and puzzles[1].name == "six"
    assert puzzles[0].line() == INKALA
    toml = "".join(f'[[puzzles]]\ngrid = """\n{g}\n"""\n' for g in (INKALA, INKALA))
    assert [p.line() for p in parse(toml)] == [INKALA, INKALA]


@pytest.mark.parametrize("text, match", [
    (json.dumps({"puzzles": [{"grid": INKALA}], "grid": INKALA}), "'grid' beside 'puzzles'"),
    (json.dumps({"puzzles": [{"grid": INKALA}], "rules": ["diagonal"]}), "'rules' beside"),
    (json.dumps({"puzzles": []}), "non-empty list"),
    (json.dumps({"puzzles": "x"}), "non-empty list"),
    (json.dumps({"puzzles": [{"puzzles": [{"grid": INKALA}]}]}), "'puzzles' inside"),
    (f'rules = ["diagonal"]\n[[puzzles]]\ngrid = "{INKALA}"\n', "'rules' beside 'puzzles'"),
    (json.dumps({"grid": INKALA, "rulez": ["diagonal"]}), "unknown element 'rulez'"),
    (json.dumps({"grid": INKALA, "rulez": "diagonal"}), "did you mean 'rules'"),
    (json.dumps({"grdi": INKALA}), "did you mean 'grid'"),
    (json.dumps({"grid": INKALA, "kropki": {"white": [], "grid": INKALA}}), "unknown key 'grid'"),
    (f'grid = "{INKALA}"\n[kropki]\nwhite = []\nsize = 9\n', "plain keys go before"),
])
def test_unknown_and_misplaced_keys_are_errors(text, match):
    refused(text, ModelError, match)


def test_plain_metadata_keys_are_kept():
    [puzzle] = parse(json.dumps({"grid": INKALA, "id": "x1", "author": "me"}))
    assert puzzle.meta["id"] == "x1" and puzzle.meta["author"] == "me"


# --- 14.6: values that must not be read as something else --------------------------------

@pytest.mark.parametrize("text, match", [
    (TOML_PUZZLE + '[kropki]\nblack = [{cells = ["r1c1", "r1c2"], value = 0}]\n', "ratio 0"),
    (TOML_PUZZLE + '[kropki]\nwhite = [{cells = ["r1c1", "r1c2"], value = 0}]\n',
     "difference 0"),
    (TOML_PUZZLE + '[kropki]\nblack = [{cells = ["r1c1", "r1c2"], value = -2}]\n', "ratio -2"),
    (json.dumps({"size": 9, "grid": [[{"value": None}] * 9] * 9,
                 "ratio": [{"cells": ["R1C1", "R1C2"], "value": "0"}]}), "ratio 0"),
    (json.dumps([[None] + [0] * 8] * 9), "null is not a cell value"),
    (json.dumps([[0] * 15 + [None]] * 16), "null is not a cell value"),
    (json.dumps([[0] * 25] * 24 + [[0] * 24 + [None]]), "null is not a cell value"),
    (json.dumps({"size": 16, "grid": [[0] * 16] * 15 + [[None] * 16]}),
     "row 16, column 1: null is not a number"),
    (json.dumps({"grid": [[True] + [0] * 8] + [[0] * 9] * 8}), "true is not a number"),
    (TOML_PUZZLE + 'rules = ""\n', "rules = \\[\\] for none"),
    (TOML_PUZZLE + 'rules = ["diagonal", ""]\n', "rules = \\[\\] for none"),
    (json.dumps({"grid": INKALA, "rules": ""}), "rules = \\[\\] for none"),
])
def test_meaningless_values_are_refused(text, match):
    refused(text, CpsudokuError, match)


# --- 14.7: nesting depth -------------------------------------------------------------------

DEEP = 1200


@pytest.mark.parametrize("text", [
    "[" * DEEP + "]" * DEEP,
    "{" + '"a":{' * DEEP + "}" * (DEEP + 1),
    json.dumps({"grid": INKALA})[:-1] + ', "cages": [{"sum": 3, "cells": ' + "[" * DEEP
    + "]" * DEEP + "}]}",
    TOML_PUZZLE + "cages = " + "[" * DEEP + "]" * DEEP + "\n",
    TOML_PUZZLE + "[[cages]]\nsum = 3\ncells = " + "[" * DEEP + "]" * DEEP + "\n",
    "x = " + "{a = " * DEEP + "1" + "}" * DEEP + "\n",
    "\n".join(["[" * DEEP + "]" * DEEP] * 2),
])
def test_deep_nesting_is_refused_by_name(text):
    assert "nested more than" in str(refused(text, ParseError))


def test_deep_nesting_in_an_fpuzzles_link_is_refused(monkeypatch):
    monkeypatch.setattr(fpuzzles, "decompress_from_base64", lambda payload: "[" * DEEP)
    with pytest.raises(ParseError, match="nested more than"):
        parse("https://f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA")


def test_shallow_nesting_is_fine():
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    with pytest.raises(ParseError) as info:  # not a grid, but not refused for depth
        parse(text)
    assert "nested" not in str(info.value)


# --- 14.8: long digit runs -----------------------------------------------------------------

LONG = "7" * 5000


@pytest.mark.parametrize("text", [
    "\n".join(" ".join([LONG] + ["1"] * 8) for _ in range(9)),
    "[[" + LONG + "]]",
    json.dumps({"grid": INKALA})[:-1] + ', "size": ' + LONG + "}",
    json.dumps({"grid": INKALA, "cages": [{"sum": 3, "cells": [LONG]}]}).replace(f'"{LONG}"',
                                                                                LONG),
    TOML_PUZZLE + f"size = {LONG}\n",
    TOML_PUZZLE + f'[[cages]]\nsum = {LONG}\ncells = ["r1c1"]\n',
    TOML_PUZZLE + f'[[cages]]\nsum = 3\ncells = ["r{LONG}c1"]\n',
    TOML_PUZZLE + f'box = "{LONG}x3"\n',
    json.dumps({"grid": INKALA, "size": LONG}),
    json.dumps({"grid": INKALA, "cages": [{"sum": LONG, "cells": ["r1c1"]}]}),
    LONG,
    "," + LONG,
])
def test_long_digit_runs_are_refused(text):
    refused(text)


def test_long_digit_run_error_says_so():
    assert f"at most {MAX_DIGITS}" in str(refused("[[" + LONG + "]]", ParseError))


# --- 14.9: box shapes ----------------------------------------------------------------------

@pytest.mark.parametrize("box", [[3], [3, 3, 3], [], [0, 9], [-3, -3], ["a", "b"], [3.5, 2],
                                 "3x3x3", "x", "", 9, True, {"r": 3}, [2, 3]])
@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_bad_box_shapes_are_refused(box, fmt):
    data = {"size": 9, "box": box, "grid": INKALA}
    if fmt == "json":
        text = json.dumps(data)
    else:
        text = f"size = 9\nbox = {json.dumps(box)}\ngrid = \"{INKALA}\"\n"
        if isinstance(box, dict):
            text = f'size = 9\ngrid = "{INKALA}"\nbox = {{r = 3}}\n'
        if isinstance(box, bool):
            text = text.replace("true", "true")
    assert "box" in str(refused(text, ModelError)).lower()


@pytest.mark.parametrize("text, code", [
    (json.dumps({"puzzles": [{"grid": INKALA}], "grid": INKALA}), ExitCode.BAD_INPUT),
    ("[" * DEEP + "]" * DEEP, ExitCode.BAD_INPUT),
    ("\n".join(" ".join([LONG] + ["1"] * 8) for _ in range(9)), ExitCode.BAD_INPUT),
    (f'size = 9\nbox = [3]\ngrid = "{INKALA}"\n', ExitCode.BAD_INPUT),
    (json.dumps([[None] * 9] * 9), ExitCode.BAD_INPUT),
])
def test_command_line_gives_one_error_line_and_exit_5(text, code):
    result = runner.invoke(app, ["solve", "-"], input=text)
    assert result.exit_code == code, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cpsudoku: error: ")


# --- the Python API -------------------------------------------------------------------------

PUZZLE = parse_one(INKALA)


class Exploding:
    name = "exploding"

    def constraints(self, geometry):
        raise ZeroDivisionError("the rule's own bug")


class YieldsNumbers:
    name = "numbers"

    def constraints(self, geometry):
        yield 5


class OffGrid:
    name = "off-grid"

    def constraints(self, geometry):
        yield AllDifferent((0, geometry.ncells))


class BadValidate:
    name = "bad-validate"

    def validate(self, geometry):
        raise KeyError("x")

    def constraints(self, geometry):
        return []


HOSTILE_CALLS = {
    "parse(None)": (lambda: cpsudoku.parse(None), "text"),
    "parse(bytes)": (lambda: cpsudoku.parse(INKALA.encode()), "decode"),
    "parse(123)": (lambda: cpsudoku.parse(123), "text"),
    "parse(size='nine')": (lambda: cpsudoku.parse(INKALA, size="nine"), "size"),
    "parse(size=9.5)": (lambda: cpsudoku.parse(INKALA, size=9.5), "size"),
    "parse(size=0)": (lambda: cpsudoku.parse(INKALA, size=0), "size"),
    "parse(box=('a','b'))": (lambda: cpsudoku.parse(INKALA, box=("a", "b")), "box"),
    "parse(box=[3])": (lambda: cpsudoku.parse(INKALA, box=[3]), "box"),
    "parse(source=1)": (lambda: cpsudoku.parse(INKALA, source=1), "source"),
    "parse_one(None)": (lambda: cpsudoku.parse_one(None), "text"),
    "solve(max_solutions='2')": (lambda: cpsudoku.solve(PUZZLE, max_solutions="2"),
                                 "max_solutions"),
    "solve(max_solutions=0)": (lambda: cpsudoku.solve(PUZZLE, max_solutions=0), "max_solutions"),
    "solve(max_solutions=True)": (lambda: cpsudoku.solve(PUZZLE, max_solutions=True),
                                  "max_solutions"),
    "solve(time_limit='5')": (lambda: cpsudoku.solve(PUZZLE, time_limit="5"), "time_limit"),
    "solve(time_limit=nan)": (lambda: cpsudoku.solve(PUZZLE, time_limit=math.nan),
                              "time_limit"),
    "solve(time_limit=-1)": (lambda: cpsudoku.solve(PUZZLE, time_limit=-1), "time_limit"),
    "solve(trace='yes')": (lambda: cpsudoku.solve(PUZZLE, trace="yes"), "trace"),
    "solve(backend=None)": (lambda: cpsudoku.solve(PUZZLE, backend=None), "backend"),
    "solve(None)": (lambda: cpsudoku.solve(None), "puzzle"),
    "solve([None]*81)": (lambda: cpsudoku.solve([None] * 81), "puzzle[0]"),
    "solve(['5']*81)": (lambda: cpsudoku.solve(["5"] * 81), "puzzle[0]"),
    "solve([1.5]*81)": (lambda: cpsudoku.solve([1.5] * 81), "puzzle[0]"),
    "solve([True]*81)": (lambda: cpsudoku.solve([True] * 81), "puzzle[0]"),
    "solve([0]*80)": (lambda: cpsudoku.solve([0] * 80), "square"),
    "solve(ragged rows)": (lambda: cpsudoku.solve([[0] * 9] * 8 + [[0] * 8]), "row 9"),
    "solve([99]*81)": (lambda: cpsudoku.solve([99] * 81), "outside"),
    "count(limit='2')": (lambda: cpsudoku.count(PUZZLE, limit="2"), "limit"),
    "count(limit=0)": (lambda: cpsudoku.count(PUZZLE, limit=0), "limit"),
    "is_solution(p, None)": (lambda: cpsudoku.is_solution(PUZZLE, None), "values"),
    "is_solution(p, [0]*1000)": (lambda: cpsudoku.is_solution(PUZZLE, [0] * 1000), "values"),
    "is_solution(p, str)": (lambda: cpsudoku.is_solution(PUZZLE, "1" * 81), "values"),
    "is_solution(None, grid)": (lambda: cpsudoku.is_solution(None, [1] * 81), "puzzle"),
    "conflicts(p, [0]*1000)": (lambda: cpsudoku.conflicts(PUZZLE, [0] * 1000), "values"),
    "conflicts(p, [None]*81)": (lambda: cpsudoku.conflicts(PUZZLE, [None] * 81), "values[0]"),
    "conflicts(p, [10]*81)": (lambda: cpsudoku.conflicts(PUZZLE, [10] * 81), "values[0]"),
    "from_values(size=9.5)": (lambda: cpsudoku.Puzzle.from_values([0] * 81, size=9.5), "size"),
    "from_values(None)": (lambda: cpsudoku.Puzzle.from_values(None), "values"),
    "from_values(box=(2,2))": (lambda: cpsudoku.Puzzle.from_values([0] * 81, box=(2, 2)),
                               "box"),
    "Puzzle(list givens)": (lambda: cpsudoku.Puzzle(boxed(9), [0] * 81), "givens"),
    "Puzzle(geometry=9)": (lambda: cpsudoku.Puzzle(9, (0,) * 81), "geometry"),
    "with_rules([3])": (lambda: PUZZLE.with_rules([3]), "rules[0]"),
    "with_rules(['diag'])": (lambda: PUZZLE.with_rules(["diag"]), "unknown rule"),
    "with_rules(None)": (lambda: PUZZLE.with_rules(None), "rules"),
    "boxed('9')": (lambda: cpsudoku.boxed("9"), "size"),
    "boxed(9, [3])": (lambda: cpsudoku.boxed(9, [3]), "box"),
    "boxed(9, (2, 2))": (lambda: cpsudoku.boxed(9, (2, 2)), "box"),
    "boxed(7)": (lambda: cpsudoku.boxed(7), "box shape"),
    "irregular(4, 'abcd')": (lambda: cpsudoku.irregular(4, "abcd"), "regions"),
    "irregular(4, [[None]])": (lambda: cpsudoku.irregular(4, [[None]]), "regions[0]"),
    "irregular(2, overlap)": (lambda: cpsudoku.irregular(2, [[0, 1], [1, 2]]), "overlap"),
    "Geometry('9', ())": (lambda: cpsudoku.Geometry("9", ()), "size"),
    "cell_name('a', 9)": (lambda: cpsudoku.grid.geometry.cell_name("a", 9), "cell"),
    "parse_box(None)": (lambda: cpsudoku.validate.parse_box(None), "box shape"),
    "regions_from_labels(None)": (lambda: cpsudoku.grid.geometry.regions_from_labels(None, 4),
                                  "labels"),
    "regions_from_labels([[1]]*16)": (
        lambda: cpsudoku.grid.geometry.regions_from_labels([[1]] * 16, 4), "labels[0]"),
    "infer_box('x')": (lambda: cpsudoku.grid.geometry.infer_box("x"), "size"),
    "register('x')": (lambda: cpsudoku.rules.register("x"), "rule"),
    "register(object())": (lambda: cpsudoku.rules.register(object()), "not a rule"),
    "register(aliases=5)": (lambda: cpsudoku.rules.register(Exploding(), aliases=5), "aliases"),
    "exploding rule": (lambda: cpsudoku.solve(PUZZLE.with_rules([Exploding()])),
                       "rule 'exploding' failed in constraints(): ZeroDivisionError"),
    "rule yielding 5": (lambda: cpsudoku.solve(PUZZLE.with_rules([YieldsNumbers()])),
                        "rule 'numbers' yielded int"),
    "rule off the grid": (lambda: cpsudoku.solve(PUZZLE.with_rules([OffGrid()])),
                          "outside the 9x9 grid"),
    "rule failing validate": (lambda: PUZZLE.with_rules([BadValidate()]),
                              "rule 'bad-validate' failed in validate"),
}


@pytest.mark.parametrize("call", sorted(HOSTILE_CALLS))
def test_hostile_api_call_raises_a_documented_error_naming_the_argument(call):
    run, named = HOSTILE_CALLS[call]
    with pytest.raises(CpsudokuError) as info:
        run()
    assert named in str(info.value)


def test_argument_errors_are_also_type_and_value_errors():
    with pytest.raises(TypeError):
        cpsudoku.parse(None)
    with pytest.raises(ValueError):
        cpsudoku.solve(PUZZLE, max_solutions=0)
    assert issubclass(ArgumentError, cpsudoku.UsageError)


def test_rule_names_are_accepted_where_rules_are():
    assert PUZZLE.with_rules(["diagonal"]).rules == PUZZLE.with_rules("diagonal").rules
    assert cpsudoku.Puzzle.from_values(PUZZLE.givens, rules=["x"]).rules[0].name == "diagonal"


def test_valid_calls_still_work():
    assert cpsudoku.solve(list(PUZZLE.givens), max_solutions=2).status.value == "unique"
    rows = [list(PUZZLE.givens[r * 9:(r + 1) * 9]) for r in range(9)]
    solution = cpsudoku.solve(rows, time_limit=30).solution
    assert cpsudoku.is_solution(PUZZLE, solution)
    assert not cpsudoku.is_solution(PUZZLE, [0] * 81)
    assert cpsudoku.conflicts(PUZZLE, solution) == []
    assert cpsudoku.boxed(6, "3x2").box == (3, 2) == cpsudoku.boxed(6, [3, 2]).box


# --- bounded fuzz: every input format, then the API -------------------------------------------

def samples() -> dict[str, str]:
    """One valid text in every input format."""
    solved = cpsudoku.solve(PUZZLE)
    geometry = boxed(9)
    return {
        "line": INKALA,
        "lines": INKALA + "\n# comment\n" + INKALA.replace(".", "0") + "\n",
        "pretty": render.render_result(solved, "pretty", stats=True),
        "numbers": render.numbers(PUZZLE.givens, geometry),
        "json grid": render.json_grid(PUZZLE.givens, geometry),
        "json rows": json.dumps([list(PUZZLE.givens[r * 9:r * 9 + 9]) for r in range(9)]),
        "jsonl result": render.render_result(solved, "jsonl", index=0),
        "json result": render.render_result(solved, "json", index=0),
        "csv": f"puzzle,solution,level\n{INKALA},{solved.solution_lines()[0]},3\n",
        "sdk": "#ARuud\n#D a puzzle\n" + "\n".join(INKALA[i:i + 9] for i in range(0, 81, 9)),
        "toml": TOML_PUZZLE + '\n[[cages]]\nsum = 17\ncells = ["r1c2", "r1c3"]\n'
                '\n[kropki]\nblack = [["r2c1", "r2c2"]]\n',
        "json puzzle": json.dumps({"grid": INKALA, "rules": ["diagonal"],
                                   "thermometers": [["r1c1", "r2c2"]]}),
        "hex 16x16": "." + "0123456789ABCDEF"[1:] + "0" + "." * 239,
        "f-puzzles": (EXAMPLES / "variants" / "fpuzzles-mixed.json").read_text(),
        "jigsaw toml": (EXAMPLES / "variants" / "jigsaw.toml").read_text(),
    }


SAMPLES = samples()
# Characters that make inputs hostile: structure, blanks, symbols, prose, huge runs.
NOISE = st.sampled_from(["[", "]", "{", "}", '"', ",", ":", "null", "0", ".", "G", "x", "\n",
                         "#", "=", "|", "─", "-1", "1e9", "9" * 120, "[" * 40, "true", " ",
                         "\ufeff", "puzzle,", "\\", "'", "r1c1", "box = [3]"])


@st.composite
def mutated(draw, text: str) -> str:
    """`text` with a few random cuts, insertions and replacements."""
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        noise = draw(NOISE)
        if action == "insert":
            text = text[:at] + noise + text[at:]
        elif action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 5)):]
        else:
            text = text[:at] + noise + text[at + len(noise):]
    return text


def parses_cleanly(text: str) -> None:
    """Either a documented error or puzzles that hold together: never a raw exception."""
    try:
        puzzles = parse(text, source="fuzz")
    except CpsudokuError as exc:
        assert str(exc) and "\n" not in str(exc).strip()
        return
    for puzzle in puzzles:
        n = puzzle.size
        assert len(puzzle.givens) == n * n and all(0 <= v <= n for v in puzzle.givens)
        puzzle.constraints()


@pytest.mark.parametrize("fmt", sorted(SAMPLES))
def test_samples_parse(fmt):
    assert parse(SAMPLES[fmt])


@pytest.mark.parametrize("fmt", sorted(SAMPLES))
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzz_every_format_gives_puzzles_or_a_clean_error(fmt, data):
    parses_cleanly(data.draw(mutated(SAMPLES[fmt])))


@FUZZ
@given(st.text(alphabet=st.sampled_from(list("0123456789ABCDEFGP.-_*|+[]{},:\"'#=\n rcx")),
               max_size=300))
def test_fuzz_random_text(text):
    parses_cleanly(text)


# Silent acceptance, by class: each generated instance must be refused.

@FUZZ
@given(st.sampled_from([4, 9, 10, 12, 16, 25]), st.data())
def test_fuzz_null_anywhere_in_a_json_grid_is_refused(n, data):
    cell = data.draw(st.integers(0, n * n - 1))
    rows = [[0] * n for _ in range(n)]
    rows[cell // n][cell % n] = None
    with pytest.raises(ParseError, match="null"):
        parse(json.dumps(rows))


@FUZZ
@given(st.integers(MAX_DEPTH + 1, 3000), st.sampled_from(["json", "toml", "cells"]))
def test_fuzz_any_depth_past_the_bound_is_refused(depth, where):
    nest = "[" * depth + "]" * depth
    text = {"json": nest,
            "toml": TOML_PUZZLE + f"x = {nest}\n",
            "cells": json.dumps({"grid": INKALA, "cages": [{"sum": 3, "cells": "@"}]}
                                ).replace('"@"', nest)}[where]
    with pytest.raises(ParseError, match="nested"):
        parse(text)


@settings(FUZZ, max_examples=40)
@given(st.integers(MAX_DIGITS + 1, 4400), st.sampled_from(["json", "toml", "rows"]))
def test_fuzz_any_long_number_is_refused(length, where):
    number = "1" * length
    text = {"json": json.dumps({"grid": INKALA, "size": 0}).replace("0}", number + "}"),
            "toml": TOML_PUZZLE + f"size = {number}\n",
            "rows": json.dumps([[0] * 9] * 9).replace("0", number, 1)}[where]
    with pytest.raises(CpsudokuError):
        parse(text)


@settings(FUZZ, max_examples=40)
@given(st.integers(3, 4400))
def test_fuzz_long_tokens_in_number_rows_never_reach_int(length):
    # Not numbers, so read as symbols: a grid if the count fits, else an error.
    parses_cleanly("\n".join(" ".join(["1" * length] + ["10"] * 8) for _ in range(9)))


@FUZZ
@given(st.lists(st.integers(-3, 30), max_size=4).filter(
    lambda b: len(b) != 2 or min(b) < 1 or b[0] * b[1] != 9))
def test_fuzz_box_that_does_not_tile_is_refused(box):
    with pytest.raises(ModelError):
        parse(json.dumps({"size": 9, "box": box, "grid": INKALA}))


@FUZZ
@given(st.sampled_from([10, 12, 16, 25]), st.integers(0, 2 ** 32))
def test_fuzz_zero_based_grids_are_read_right_or_refused(n, seed):
    import random
    rng = random.Random(seed)
    box = {10: (2, 5), 12: (3, 4), 16: (4, 4), 25: (5, 5)}[n]
    values = [(r * box[1] + r // box[0] + c) % n + 1 for r in range(n) for c in range(n)]
    density = rng.choice([0.0, 0.1, 0.5, 0.9])
    kept = [v if rng.random() >= density else 0 for v in values]
    text = "".join("." if v == 0 else "0" if v == n else "123456789ABCDEFGHIJKLMNOP"[v - 1]
                   for v in kept)
    try:
        puzzle = parse_one(text, box=box)
    except ParseError as exc:
        assert "0 could be a blank" in str(exc)
        return
    assert list(puzzle.givens) == kept  # never a different puzzle


@settings(FUZZ, max_examples=30)
@given(st.dictionaries(st.sampled_from(["grid", "rules", "size", "name", "cages", "author"]),
                       st.just(1), min_size=1))
def test_fuzz_keys_beside_puzzles_are_refused(extra):
    doc = {"puzzles": [{"grid": INKALA}], **{k: v for k, v in extra.items()}}
    with pytest.raises(ModelError, match="beside 'puzzles'"):
        parse(json.dumps(doc))


API_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 100), st.floats(),
                       st.text(max_size=5), st.binary(max_size=5),
                       st.lists(st.one_of(st.none(), st.integers(-2, 30), st.text(max_size=1)),
                                max_size=90),
                       st.just([0] * 81), st.just([[0] * 9] * 9), st.just(INKALA),
                       st.just(("a", "b")), st.just([3]), st.just(PUZZLE))
API = {
    "parse": lambda a, b: cpsudoku.parse(a, size=b),
    "parse_one": lambda a, b: cpsudoku.parse_one(a, box=b),
    "solve": lambda a, b: cpsudoku.solve(a, max_solutions=b, time_limit=1.0),
    "solve time": lambda a, b: cpsudoku.solve(PUZZLE, time_limit=b, trace=a),
    "count": lambda a, b: cpsudoku.count(a, limit=b, time_limit=1.0),
    "conflicts": lambda a, b: cpsudoku.conflicts(a, b),
    "is_solution": lambda a, b: cpsudoku.is_solution(a, b),
    "from_values": lambda a, b: cpsudoku.Puzzle.from_values(a, size=b),
    "with_rules": lambda a, b: PUZZLE.with_rules(a),
    "boxed": lambda a, b: cpsudoku.boxed(a, b),
    "irregular": lambda a, b: cpsudoku.irregular(a, b),
    "cell_name": lambda a, b: cpsudoku.grid.geometry.cell_name(a, b),
    "register": lambda a, b: cpsudoku.rules.register(a, aliases=b),
}


@pytest.mark.parametrize("function", sorted(API))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=API_VALUES, b=API_VALUES)
def test_fuzz_api_raises_only_documented_errors(function, a, b):
    try:
        API[function](a, b)
    except CpsudokuError as exc:
        assert str(exc)
