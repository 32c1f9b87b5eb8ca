"""Puzzle files (TOML, JSON, f-puzzles, ?load= links), the rule registry and
the errors bad variant input gets."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from importlib import resources
from pathlib import Path
from urllib.parse import quote

import pytest

from cpsudoku import boxed, is_solution, parse_one, rules
from cpsudoku.errors import ExitCode, ModelError, ParseError
from cpsudoku.formats import puzzlefile
from cpsudoku.formats.lzstring import decompress_from_base64
from cpsudoku.grid.constraints import AllDifferent, Allowed, Less, Sum
from cpsudoku.rules import Arrow, Arrows, Clue, GreaterThan, LittleKiller, PatternRule

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ROOT / "examples" / "variants"

# Made with the reference LZString.compressToBase64 (lz-string 1.x).
TINY_JSON = ('{"size":4,"title":"Tiny","grid":[[{"value":1,"given":true},{},{},{}],[{},{},{},{}],'
             '[{},{},{},{}],[{},{},{},{}]],"diagonal-":true,"killercage":[{"cells":["R1C2","R1C3"],'
             '"value":"5"}]}')
TINY_LINK = ("N4IgzglgXgpiBcAWANCALhNAbO8QBUIA7ATxFQHMAnCAEwQG0HQA3AQywFdcBGSiFjCII0V"
             "bgF9kwSdKniAusmYyVcxcrmbp62bpXzFIWhDYUA9kQ4BaEWJioA1hCw4qAY1O5mINzBdhGEAAlHgBhA"
             "CZyYLCAZhBDdi5cEABWEAVxIA=")
VECTORS = {"BIUwNmD2A0AEDukBOYAmBCWoIwct6QA=": "Hello, world! Hello, world!",
           "JeIntOraAEjI5EA=": "é漢字 ✓", "Q===": ""}

TOML_KILLER = '''
name = "small killer"
grid = """
5........
.........
.........
.........
.........
.........
.........
.........
........9
"""
rules = ["diagonal"]
thermometers = [["r5c5", "r5c6", "r5c7"]]

[[cages]]
sum = 10
cells = ["r1c2", "r1c3"]

[[cages]]
cells = "r2c1 r3c1"
repeats = false
'''


def error(text: str, source: str = "bad.toml") -> Exception:
    with pytest.raises((ModelError, ParseError)) as info:
        puzzlefile.load(text, source=source)
    return info.value


# --- the cpsudoku format -----------------------------------------------------------------

def test_toml_puzzle_elements_and_rules():
    [puzzle] = puzzlefile.load(TOML_KILLER, source="k.toml")
    assert puzzle.name == "small killer" and puzzle.source == "k.toml"
    assert puzzle.givens[0] == 5 and puzzle.givens[80] == 9
    assert [r.name for r in puzzle.rules] == ["diagonal", "killer", "thermometer"]
    labels = [c.label for c in puzzle.constraints()]
    assert "cage 1 (sum 10) at r1c2" in labels and "cage 2 at r2c1" in labels
    assert "thermometer 1 at r5c5" in labels


def test_json_and_toml_give_the_same_puzzle():
    toml_text = (VARIANTS / "killer.toml").read_text()
    data = tomllib.loads(toml_text)
    from_toml = puzzlefile.load(toml_text, source="k")[0]
    from_json = puzzlefile.load(json.dumps(data), source="k")[0]
    assert from_toml.givens == from_json.givens
    assert from_toml.constraints() == from_json.constraints()
    assert from_toml.meta["solution"] == from_json.meta["solution"]


def test_the_shared_parser_reads_puzzle_files():
    for path in sorted(VARIANTS.glob("*.toml")) + sorted(VARIANTS.glob("*.json")):
        puzzle = parse_one(path.read_text(), source=path.name)
        assert is_solution(puzzle, puzzle.meta["solution"]), path.name


def test_several_puzzles_per_file_and_json_lines():
    toml_text = '[[puzzles]]\nname = "a"\nrules = ["diagonal"]\n\n[[puzzles]]\nname = "b"\n'
    assert [p.name for p in puzzlefile.load(toml_text, source="m.toml")] == ["a", "b"]
    lines = '{"name": "a", "cages": [{"sum": 3, "cells": [0, 1]}]}\n{"name": "b"}\n'
    puzzles = puzzlefile.load(lines, source="m.jsonl")
    assert [p.source for p in puzzles] == ["m.jsonl:1", "m.jsonl:2"]
    cage = next(c for c in puzzles[0].constraints() if isinstance(c, Sum))
    assert cage.cells == (0, 1) and cage.label == "cage 1 (sum 3) at r1c1"


def test_jigsaw_regions_as_labels_and_as_cell_lists():
    layout = VARIANTS.joinpath("jigsaw.toml").read_text()
    puzzle = puzzlefile.load(layout, source="j")[0]
    assert puzzle.geometry.box is None
    cells = [[puzzle.geometry.cell_name(c) for c in region] for region in puzzle.geometry.regions]
    again = puzzlefile.load(json.dumps({"regions": cells}), source="j")[0]
    assert set(map(frozenset, again.geometry.regions)) == set(map(frozenset,
                                                                 puzzle.geometry.regions))


def test_kropki_and_xv_negative_rules():
    text = ('[kropki]\nwhite = [["r1c1", "r1c2"]]\n'
            'black = [{cells = ["r2c1", "r2c2"], value = 3}]\n'
            'all_given = true\n[xv]\nx = [["r3c1", "r3c2"]]\nnegative = ["v"]\n')
    puzzle = puzzlefile.load(text, source="d")[0]
    kropki, xv = puzzle.rules
    assert kropki.negative == {"white", "black"} and xv.negative == {"v"}
    cons = {c.label: c for c in puzzle.constraints()}
    assert set(cons["black dot 2 (ratio 3) between r2c1 and r2c2"].tuples) >= {(1, 3), (9, 3)}
    no_dot = cons["no dot between r5c5 and r5c6"]
    assert (4, 5) not in no_dot.tuples and (2, 4) not in no_dot.tuples and (3, 7) in no_dot.tuples
    assert "no dot between r1c1 and r1c2" not in cons  # that pair has a dot
    no_xv = cons["no X/V between r5c5 and r5c6"]
    assert (2, 3) not in no_xv.tuples and (4, 6) in no_xv.tuples


def test_element_lowering():
    g = boxed(9)
    [pill] = Arrows([Arrow.of(["r1c1", "r1c2"], ["r2c3", "r3c4", "r4c5"])]).constraints(g)
    assert pill.coeffs == (-10, -1, 1, 1, 1) and pill.total == 0
    assert pill.holds([1, 2, 3, 4, 5]) and not pill.holds([1, 3, 3, 4, 5])
    [sign] = GreaterThan([["r1c1", "r1c2"]]).constraints(g)
    assert isinstance(sign, Less) and sign.cells == (1, 0)
    [diag] = LittleKiller([Clue.of(20, "r0c2", "DR")]).constraints(g)
    assert diag.cells == (2, 12, 22, 32, 42, 52, 62) and diag.label == \
        "little killer 1 (sum 20) at r0c2"
    [up] = LittleKiller([Clue.of(10, "r10c1", "ur")]).constraints(g)
    assert [g.cell_name(c) for c in up.cells][:2] == ["r9c2", "r8c3"]


# --- f-puzzles ---------------------------------------------------------------------------

def test_fpuzzles_json_example():
    data = json.loads((VARIANTS / "fpuzzles-mixed.json").read_text())
    puzzle = puzzlefile.load(json.dumps(data), source="f.json")[0]
    names = [r.name for r in puzzle.rules]
    assert names == ["diagonal-", "killer", "little-killer", "thermometer", "arrow", "parity",
                     "kropki"]
    arrows = next(r for r in puzzle.rules if r.name == "arrow")
    for arrow, raw in zip(arrows.elements, data["arrow"]):
        assert len(arrow.cells) == len(raw["lines"][0]) - 1  # the circle is not on the arrow
    kropki = next(r for r in puzzle.rules if r.name == "kropki")
    assert kropki.negative == {"black"}
    assert puzzle.meta["solution"] == tuple(data["solution"])


def test_fpuzzles_link_and_payload():
    assert decompress_from_base64(TINY_LINK) == TINY_JSON
    for text in (f"https://f-puzzles.com/?load={TINY_LINK}",
                 f"https://f-puzzles.com/?load={quote(TINY_LINK, safe='')}", TINY_LINK):
        puzzle = parse_one(text, source="link") if "?" in text else \
            puzzlefile.load(text, source="link")[0]
        assert puzzle.size == 4 and puzzle.givens[0] == 1 and puzzle.name == "Tiny"
        assert [r.name for r in puzzle.rules] == ["diagonal-", "killer"]
        assert "cage 1 (sum 5) at r1c2" in [c.label for c in puzzle.constraints()]


@pytest.mark.parametrize("packed, text", list(VECTORS.items()))
def test_lzstring_reference_vectors(packed, text):
    assert decompress_from_base64(packed) == text


def test_fpuzzles_regions_flags_and_negative_dots():
    grid = [[{"region": (r // 2) * 2 + (c // 2) if r < 2 else None} for c in range(4)]
            for r in range(4)]
    grid[2][0]["region"], grid[1][1]["region"] = 0, 2  # swap two cells between regions
    data = {"size": 4, "grid": grid, "antiking": True, "nonconsecutive": True,
            "difference": [{"cells": ["R3C3", "R3C4"]}], "xv": [{"cells": ["R4C1", "R4C2"],
                                                                "value": "V"}],
            "negative": ["xv"], "odd": [{"cell": "R1C1"}], "even": [{"cell": "R1C2"}]}
    puzzle = puzzlefile.load(json.dumps(data), source="f")[0]
    assert puzzle.geometry.box is None and 8 in puzzle.geometry.regions[0]
    kropki = next(r for r in puzzle.rules if r.name == "kropki")
    assert kropki.negative == {"white"}  # nonconsecutive + white dots = all dots given
    assert "non-consecutive" not in [r.name for r in puzzle.rules]
    xv = next(r for r in puzzle.rules if r.name == "xv")
    assert xv.negative == {"x", "v"}


# --- the registry and the model files ----------------------------------------------------

def test_registry_names_aliases_and_descriptions():
    assert {"diagonal", "diagonal+", "diagonal-", "windoku", "disjoint-groups", "anti-knight",
            "anti-king", "non-consecutive"} <= set(rules.names())
    assert [r.name for r in rules.by_names(" X, hyper ,antiknight,x")] == [
        "diagonal", "windoku", "anti-knight"]
    described = dict(rules.describe_all())
    assert set(described) == set(rules.names()) and all(described.values())
    assert any(key == "cages" for key, _ in rules.describe_elements())
    with pytest.raises(ModelError, match=r"unknown rule 'diag'; did you mean 'diagonal'\? "
                                         r"\(choose from: 159, anti-king"):
        rules.by_names("diagonal,diag")


def test_every_model_file_is_installed_and_loaded():
    installed = {f.name for f in resources.files("cpsudoku.rules.models").iterdir()
                 if f.name.endswith(".toml")}
    assert installed == {p.name for p in (ROOT / "models").glob("*.toml")}
    assert len(installed) == len([n for n in rules.names() if isinstance(rules.get(n),
                                                                         PatternRule)])


def test_a_new_pattern_rule_needs_no_python():
    camel = PatternRule(tomllib.loads('name = "anti-camel"\n[[pattern]]\noffsets = [[1, 3]]\n'))
    pairs = camel.constraints(boxed(9))
    assert all(isinstance(c, AllDifferent) and len(c.cells) == 2 for c in pairs)
    assert len(pairs) == 4 * 8 * 6  # 8 directions from each cell, each pair once
    nonconsecutive = rules.get("non-consecutive").constraints(boxed(4))
    assert len(nonconsecutive) == 24 and isinstance(nonconsecutive[0], Allowed)
    assert (1, 2) not in nonconsecutive[0].tuples and (1, 3) in nonconsecutive[0].tuples


def test_size_generic_and_size_limited_rules():
    assert len(rules.get("disjoint-groups").constraints(boxed(6))) == 6
    assert len(rules.get("anti-knight").constraints(boxed(4))) == 2 * 2 * 3 * 2
    with pytest.raises(ModelError, match="windoku is defined for 4x4, 9x9, 16x16 grids only"):
        puzzlefile.load('size = 6\nrules = ["windoku"]\n', source="w")
    layout = "\n".join(f'"{row}",' for row in ["1122", "1122", "3344", "3434"])
    err = error(f'rules = ["disjoint-groups"]\nregions = [{layout}]\n')
    assert "rule disjoint-groups needs rectangular boxes" in str(err)


# --- bad input: a ModelError naming the element ----------------------------------------

@pytest.mark.parametrize("text, message", [
    ('[[cages]]\nsum = 30\ncells = ["r1c1", "r1c2"]\n',
     "bad.toml: cage 1 (sum 30) at r1c1: 2 different digits from 1..9 sum to 3..17, not 30"),
    ('[[cages]]\nsum = 2\ncells = ["r1c1", "r1c2"]\n', "sum to 3..17, not 2"),
    ('[[cages]]\nsum = 1\nrepeats = true\ncells = ["r1c1", "r1c2"]\n',
     "2 digits from 1..9 sum to 2..18"),
    ('[[cages]]\nsum = 45\ncells = "r1c1 r1c2 r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9 r2c1"\n',
     "10 cells cannot hold different digits"),
    ('regions = [["r1c1", "r1c2"], ["r1c2", "r2c2"]]\nsize = 2\n',
     "regions 1 and 2 overlap at r1c2"),
    ('regions = """\n111111112\n' + "222222222\n" * 8 + '"""\n',
     "region 1 has 8 cells, expected 9"),
    ('thermometers = [["r1c1", "r1c3"]]\n',
     "thermometer 1 at r1c1: r1c1 and r1c3 are not adjacent"),
    ('thermometers = [["r1c1", "r1c2", "r1c1"]]\n',
     "thermometer 1 at r1c1: cell r1c1 is listed twice"),
    ('thermometers = [["r1c1"]]\n', "thermometer 1 at r1c1 needs a bulb"),
    ('[[arrows]]\ncircle = "r9c9"\ncells = ["r9c10"]\n',
     "arrow 1 at r9c9: cell r9c10 is outside the 9x9 grid"),
    ('[[arrows]]\ncircle = "r1c1"\ncells = ["r5c5"]\n',
     "the arrow starts at r5c5, away from its circle"),
    ('rules = ["diagonal", "anti-bishop"]\n',
     "unknown rule 'anti-bishop'; did you mean 'anti-knight'? (choose from:"),
    ('[[cagez]]\nsum = 3\n', "unknown element 'cagez'"),
    ('[[cages]]\nsum = 3\ncells = ["r1c1", "r1c2"]\nodd = ["r1c1"]\n',
     "cage 1: unknown key 'odd'; known: sum, total, cells, repeats, weights (in TOML, "
     "plain keys go"),
    ('[[cages]]\nsum = 3\ncells = ["r1c1", "r1c2"]\nweights = [1]\n',
     "cage 1 (sum 3) at r1c1: 1 weights for 2 cells"),
    ('[[cages]]\nsum = 3\ncells = ["r1c1", "r1c2"]\nweights = [1, 0]\n',
     "a weight is a whole number from -100 to 100 other than 0, not 0"),
    ('[[cages]]\ncells = ["r1c1", "r1c2"]\nweights = [1, 2]\n',
     "cage 1 at r1c1: weights need a sum"),
    ('[[cages]]\nsum = 3\ncells = ["r1c1", "r1c2"]\nweights = "2"\n',
     "cage 1 weights must be a list"),
    ('[kropki]\nwhite = []\ngrey = []\n', "kropki: unknown key 'grey'"),
    ('[[little_killers]]\nsum = 5\nclue = "r3c3"\ndirection = "DR"\n',
     "must sit outside the grid"),
    ('[[little_killers]]\nsum = 500\nclue = "r0c1"\ndirection = "DR"\n',
     "sum to 8..72, not 500"),
    ('[kropki]\nwhite = [["r1c1", "r2c2"]]\n',
     "white dot 1 between r1c1 and r2c2: the cells are not"),
    ('[kropki]\nwhite = [["r1c1", "r1c2"]]\nblack = [["r1c2", "r1c1"]]\n', "already have"),
    ('[xv]\nx = [["r1c1", "r1c2"]]\nnegative = ["y"]\n', "unknown negative rule 'y'"),
    ('odd = ["r0c1"]\n', "odd cell r0c1: cell r0c1 is outside the 9x9 grid"),
    ('odd = ["x1"]\n', "'x1' is not a cell name"),
    ('[[cages]]\nsum = "many"\ncells = ["r1c1"]\n', "cage 1 sum must be a whole number"),
])
def test_bad_variant_input_names_the_element(text, message):
    err = error(text)
    assert isinstance(err, ModelError) and message in str(err), str(err)


def test_bad_files_are_parse_errors_with_a_position():
    err = error('size = 9\nrules = ["diagonal"\n')
    assert isinstance(err, ParseError) and "invalid TOML" in str(err)
    err = error('{"cages": [}', source="bad.json")
    assert isinstance(err, ParseError) and (err.line, err.column) == (1, 12)
    assert "not LZString" in str(error("https://f-puzzles.com/?load=!!!!"))
    assert "not supported" in str(error(json.dumps({"size": 4, "grid": [[{}] * 4] * 4,
                                                     "nabner": [{"lines": [["R1C1", "R1C2"]]}]})))


@pytest.mark.process
def test_cli_exit_code_for_bad_variant_input(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[[cages]]\nsum = 30\ncells = ["r1c1", "r1c2"]\n')
    done = subprocess.run([sys.executable, "-m", "cpsudoku", "solve", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == ExitCode.BAD_INPUT
    assert "cage 1 (sum 30) at r1c1" in done.stderr and "Traceback" not in done.stderr


# --- writing -------------------------------------------------------------------------------

@pytest.mark.cross
@pytest.mark.parametrize("path", sorted(VARIANTS.glob("*.toml")) + sorted(VARIANTS.glob("*.json")),
                         ids=lambda p: p.name)
def test_dumps_round_trip(path):
    puzzle = puzzlefile.load(path.read_text(), source=path.name)[0]
    again = puzzlefile.load(puzzlefile.dumps(puzzle), source=path.name)[0]
    assert again.geometry == puzzle.geometry and again.givens == puzzle.givens
    assert again.constraints() == puzzle.constraints()
    assert again.meta["solution"] == puzzle.meta["solution"] and again.name == puzzle.name


def test_dumps_refuses_an_unregistered_rule():
    class Secret:
        name = "secret"

        def constraints(self, geometry):
            return ()

    puzzle = parse_one("." * 81).with_rules([Secret()])
    with pytest.raises(ModelError, match="rule secret is neither registered"):
        puzzlefile.dumps(puzzle)
