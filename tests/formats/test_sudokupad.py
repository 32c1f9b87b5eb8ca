"""SudokuPad puzzles as they are shared (scl, ctc and fpuzzles payloads, bare or in links,
from a file, standard input or the command line) and Sudoku Maker's JSON: each puzzle is
read to its rules and givens and solves to its recorded solution; what a drawing does not
decide is refused with one line naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli, one_error_line, solve_given

from cpsudoku.api import solve
from cpsudoku.errors import CpsudokuError, ExitCode, ParseError
from cpsudoku.formats import sudokupad
from cpsudoku.formats.lzstring import compress_to_base64, decompress_from_base64
from cpsudoku.formats.puzzlefile import as_dict, load
from cpsudoku.formats.read import parse
from cpsudoku.formats.sources import read_puzzles

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ROOT / "examples" / "variants"

# "Parity Fish" by Marty Sears, a Sudoku Maker puzzle, as the SakanaAI/Sudoku-Bench README
# (MIT) shares it (its `encoded_puzzle`, the scl link sudokupad.app/wsj7iunsg6 resolves to).
# Its red lines are in its background image, not in the data.
PARITY_FISH = (
    "sclN4SwJgXA5AzgHjAtgfQLIEMBOAXAngZQFMsZkBWADgAYBjANgDMwAjV9ATmYeasIHYAjOkID2VACziGVAEx"
    "hxNKABpEhbOjDp1EYDAD2AV0w1C0fAbB6A1gYAEGK4Uy2AbjNlkAdLM8zxAWhoaBjJ0CjpldANsAAs9TGgMHFx"
    "bIhJlTAMAG0IYaAA5eMR0LNsYC2s7TJyYW3QAB3qs3ABuWwYQLNLYwlsAc0xwWwB3EFjbHtswED6x2oF/djK9"
    "CZitKZm5qb0AOwAdKGxbTEJ64iOQHbqdlMw9YaVbGj0sg0Qdx/QdsFtizEcfgBmOCA2zMPRwTx7HYAFWGKxMX"
    "VqGgAVugTDsjiVdn06sdCD8spdeogDDAjs9MehLrZdr1CC5CFdprMsd9aTtenowD8WWMobD4U9CEinrtOTRsA"
    "SwSl0CMYmNepYKbt1DTKTBCDRoiBGRtWTABXCESKsrVKRKpT9mLKwVl0VZtiqqTS+dhasMYk4uZzbCBapYDMw"
    "cqsuT1MJ5lPpXtgQLtoBQyOJAXR2AI+DJ2Hw6DIyAIKIDxAIZIW+BR2GQ6EWKxQS3Q+JXy4C+OIZMXmwJxHQy"
    "OwKGXK+xWwIU2na83xGRCzJBI32MpmLNin1TFAYthsPU8gB6LcgTwgRB9IyeZ6ILc7QEgADy2HE+U8KLOfXni"
    "/Qy709XRY1wEAESmw0AAApYN+tgAGL+jEUAAL5KCYEAANoIUoKGoShAC6SjIWhqGYdhOFKHhBEYVhxGEaRxFE"
    "ZRFEEVRtGYSciFIVQShUHhLECOxSgyHhf5sVhf6cQJ3F4TIrGiUoQkIWJPF4QhLGAlx4hcWQvFKIpwnKcJqlY"
    "WJGnSUoWkGapcksXQXF8FxFBqeZwmWcJ1m6UotkGfZBnWXJgLiVhXlSV5PFYeI3kIUFUlBQFCFkMFUVSVFslY"
    "QhXn6V5RleTpIXqXhQVGUF6VRfpUVGVFJkJV5LleW5XmORlLlBW5QXVVFLlRW5UUeQldDBZ1UmdRFfDBf1Un9"
    "RFFDBaNUmjfFSGdfpnVGZ16X9fp/VGf16Wjfpo1GaNJXTc5eGdW5nXVf1Ln9W5/XVaNLmjW5o0eZheiIcAkqI"
    "YCnhtZhwwQFQniFkoMQ/X9QWxL+vijVK0DKDQEAAMQsQk2BwTIcNgXBAhw1QsEvQBIUfUojnfb9/2A8TIOAwI"
    "4P/iu0OY0oiPI6j6OY9jr2RfjhNAyTXPk2DMgQzTcF0wzNAo7DaM0Bj8Os7j4j40JRPAwDPP/hTVOQ1AtPw/T"
    "EBI6LTOSyzSg44hk0fV9Kuk0roOU/z1NQ0L2si2LEtS1jxts/1v06Yr3Nk6rfMCw7MNO7rjPi8z0se7jfHm0o"
    "vtBVb/02+rgshwjYf6xHhtRybCF0Pj9kJ8r/sp3bGtaxnesu5H7t5wXMUW/7Se87bQea47Vfh67Rt5xQHNN0r"
    "LcB239sd+nOvVwbbsy4hfD4z7lsq2X7eV5P3e17PCF/u9i/N8vavl2nwuZzXOd157SheHvQ8H4HY9r870+92z"
    "YkN4PfvW4fq+d+vWc97nNm3sRLxyXqXb+D9f5P2zjPaOiE/xyxvp/ZOECK5QNPs/QBuNfJx19l5JOXk0EhzRt"
    "Ai+2DC4f3wVzQhx8I6kK3jJXB1CS5/RocHJm9C4EIX7nFShLDARsPHhwjBWDTZKHnkgqhxNBFaxISIrG6FoJA"
    "A")
PARITY_FISH_SOLUTION = ("854369172976251834123478956419582367568937421237146598785694213"
                        "691823745342715689")
# The red lines as the README's list of the puzzle's drawings gives them; its third line
# ends at r4c4 (the r3c5 it adds would break the recorded solution).
PARITY_FISH_LINES = ["r3c2 r3c3 r3c4 r3c5 r3c6 r4c7 r5c8 r6c7 r7c6 r7c5 r7c4 r7c3 r7c2",
                     "r4c1 r4c2 r5c3 r6c4 r7c4", "r6c1 r6c2 r5c3 r4c4"]


# ---------------------------------------------------------------- drawing a puzzle

def cell(name: str) -> list[int]:
    """A cell name as SudokuPad's 0-based [row, column]."""
    r, c = name[1:].split("c")
    return [int(r) - 1, int(c) - 1]


def centre(name: str) -> list[float]:
    r, c = cell(name)
    return [r + 0.5, c + 0.5]


def between(a: str, b: str) -> list[float]:
    return [(x + y) / 2 for x, y in zip(centre(a), centre(b))]


def circle(at: list[float], fill="#FFFFFF", border="#A1A1A1", size=0.83) -> dict:
    return {"center": at, "width": size, "height": size, "rounded": True,
            "backgroundColor": fill, "borderColor": border}


def text(at: list[float], value) -> dict:
    return {"center": at, "width": 0.25, "height": 0.25, "text": str(value),
            "backgroundColor": "#FFFFFF", "borderColor": "#FFFFFF"}


def line(cells, colour: str, thickness: float = 9) -> dict:
    return {"wayPoints": [centre(c) for c in cells], "color": colour, "thickness": thickness}


LINE_COLOURS = {"whispers": "#67F067", "renban": "#F067F0", "region_sum_lines": "#2ECBFF",
                "palindromes": "#C0C0C0", "parity_lines": "#FF3030"}


def draw(spec: dict, rules: str = "") -> dict:
    """A cpsudoku puzzle file's dict drawn as SudokuPad draws it: the way f-puzzles'
    puzzles are converted and Sudoku Maker exports them."""
    n = spec.get("size", 9)
    grid = [row for row in spec["grid"].split("\n") if row.strip()]
    cells = [[{"value": int(ch)} if ch.isdigit() else {} for ch in row] for row in grid]
    puzzle = load(json.dumps(spec))[0]
    regions = [[[i // n, i % n] for i in region] for region in puzzle.geometry.regions]
    out: dict = {"id": "sxsm_test", "cellSize": 50, "cells": cells, "regions": regions,
                 "metadata": {"title": spec.get("name", ""), "rules": rules},
                 "cages": [], "lines": [], "arrows": [], "overlays": [], "underlays": []}
    if spec.get("solution"):
        out["metadata"]["solution"] = spec["solution"]
    for cage in spec.get("cages", []):
        out["cages"].append({"cells": [cell(c) for c in cage["cells"]],
                             "value": str(cage["sum"])})
    for thermo in spec.get("thermometers", []):
        out["underlays"].append(circle(centre(thermo[0]), "#CFCFCF", "#CFCFCF", 0.85))
        out["lines"].append(line(thermo, "#CFCFCF", 21))
    for arrow in spec.get("arrows", []):
        ring = arrow["circle"]
        out["overlays"].append(circle(centre(ring[0])))
        for cells in arrow["lines"]:
            start, nxt = centre(ring[-1]), centre(cells[0])
            start = [s + 0.4 * ((t > s) - (t < s)) for s, t in zip(start, nxt)]
            out["arrows"].append({"wayPoints": [start] + [centre(c) for c in cells],
                                  "color": "#A1A1A1", "thickness": 5, "headLength": 0.3})
    steps = {"DR": (1, 1), "DL": (1, -1), "UR": (-1, 1), "UL": (-1, -1)}
    for clue in spec.get("little_killers", []):
        at = centre(clue["clue"])
        dy, dx = steps[clue["direction"]]
        out["arrows"].append({"wayPoints": [[at[0] + 0.3 * dy, at[1] + 0.3 * dx],
                                            [at[0] + 0.48 * dy, at[1] + 0.48 * dx]],
                              "color": "#000000", "thickness": 2})
        out["overlays"].append(text(at, clue["sum"]))
    for key, colour in LINE_COLOURS.items():
        out["lines"].extend(line(cells, colour) for cells in spec.get(key, []))
    for cells in spec.get("between_lines", []):
        out["overlays"] += [circle(centre(cells[0]), border="#CFCFCF", size=0.8),
                            circle(centre(cells[-1]), border="#CFCFCF", size=0.8)]
        drawn = line(cells, "#CFCFCF", 2)
        points = drawn["wayPoints"]
        for end, nxt in ((0, 1), (-1, -2)):  # the line stops at its circles' edges
            points[end] = [round(a + 0.4 * ((b > a) - (b < a)), 1)
                           for a, b in zip(points[end], points[nxt])]
        out["lines"].append(drawn)
    for kind, fill in (("white", "#FFFFFF"), ("black", "#000000")):
        for a, b in spec.get("kropki", {}).get(kind, []):
            out["overlays"].append({**circle(between(a, b), fill, "#000000", 0.3), "text": ""})
    for kind in ("x", "v"):
        for a, b in spec.get("xv", {}).get(kind, []):
            out["overlays"].append({**text(between(a, b), kind.upper()), "fontSize": 21})
    for key, rounded in (("odd", True), ("even", False)):
        for c in spec.get(key, []):
            out["underlays"].append({**circle(centre(c), "#CFCFCF", "#CFCFCF", 0.7),
                                     "rounded": rounded})
    for quad in spec.get("quadruples", []):
        corner = [max(centre(c)[0] for c in quad["cells"]) - 0.5,
                  max(centre(c)[1] for c in quad["cells"]) - 0.5]
        out["overlays"].append({**circle(corner, "#FFFFFF", "#000000", 0.7),
                                "text": " ".join(str(v) for v in quad["values"])})
    for clue in spec.get("sandwiches", []):
        far = n + 0.5 if clue.get("side") == "end" else -0.5
        at = [far, clue["column"] - 0.5] if "column" in clue else [clue["row"] - 0.5, far]
        out["overlays"].append(text(at, clue["value"]))
    for region in spec.get("extra_regions", []):
        out["cages"].append({"cells": [cell(c) for c in region], "style": "extraregion"})
    for rule in spec.get("rules", []):
        if rule == "anti-knight":
            out["global"] = ["antiknight"]
        elif rule == "diagonal":
            out["lines"] += [{"wayPoints": [[0, 0], [n, n]], "color": "#34BBE6", "thickness": 2},
                             {"wayPoints": [[0, n], [n, 0]], "color": "#34BBE6", "thickness": 2}]
    return out


def scl(data: dict) -> str:
    """The bare scl payload of an object (plain JSON inside: SudokuPad reads it so)."""
    return "scl" + compress_to_base64(json.dumps(data))


def zipped(data) -> str:
    """SudokuPad's zipped notation of a value: short keys unquoted, single quotes,
    `{}` between commas dropped, t/f and bare colours."""
    if isinstance(data, dict):
        short = {long: s for long, s in sudokupad.KEYS.items()}
        return "{" + ",".join(f"{short.get(k, k)}:{zipped(v)}" for k, v in data.items()) + "}"
    if isinstance(data, list):
        return "[" + ",".join("" if v == {} else zipped(v) for v in data) + "]"
    if isinstance(data, bool):
        return "t" if data else "f"
    if isinstance(data, str):
        if data.upper() == "#FFFFFF":
            return "#F"
        if data == "#000000":
            return "#0"
        if len(data) == 7 and data.startswith("#"):
            return data[1:]
        return "'" + data.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"
    return json.dumps(data)


def normal(puzzle) -> dict:
    """A puzzle's file form, each list of elements in a fixed order."""
    out = as_dict(puzzle)
    out.pop("name", None)

    def order(value):
        if isinstance(value, dict):
            return {k: order(v) for k, v in value.items()}
        if isinstance(value, list) and value and isinstance(value[0], (list, dict)):
            return sorted((order(v) for v in value), key=json.dumps)
        return value
    return order(out)


def example(name: str) -> dict:
    return as_dict(load((VARIANTS / name).read_text(encoding="utf-8"))[0])


def recorded(puzzle) -> str:
    return "".join(map(str, puzzle.meta["solution"]))


def solved(puzzle) -> str:
    result = solve(puzzle, max_solutions=2)
    assert result.status.value == "unique", result.status
    return "".join(map(str, result.solution))


# ---------------------------------------------------------------- drawings read as rules

DRAWN = [  # example, the rules text a setter would give (the drawing decides the rest)
    ("killer.toml", "Normal sudoku rules apply. Digits in cages sum to the total shown."),
    ("killer-6x6.toml", ""),
    ("thermometer.toml", "Digits along thermometers increase from the bulb."),
    ("arrow.toml", "Digits along an arrow sum to the digit in its circle."),
    ("little-killer.toml", "Clues outside the grid give the sum along the diagonal."),
    ("whispers.toml", "Adjacent digits along green lines differ by at least 5."),
    ("renban.toml", "Purple lines hold a set of consecutive digits in any order."),
    ("region-sum-lines.toml", "Blue lines have an equal sum in each box they pass through."),
    ("palindromes.toml", "Grey lines are palindromes."),
    ("between-lines.toml", "Digits on a line lie strictly between the digits in its circles."),
    ("kropki.toml", "White dots: consecutive digits. Black dots: one digit is double the "
                    "other. All possible dots are given."),
    ("xv.toml", "X: the two digits sum to 10; V: to 5."),
    ("even-odd.toml", "Grey circles are odd, grey squares even."),
    ("quadruples.toml", ""),
    ("sandwich.toml", "Clues outside the grid are the sum of the digits sandwiched between "
                      "the 1 and the 9 in that row or column."),
    ("diagonal.toml", "Digits do not repeat on the marked diagonals."),
    ("anti-knight.toml", ""),
    ("extra-regions.toml", ""),
    ("jigsaw.toml", ""),
]


@pytest.mark.parametrize("name, rules", DRAWN, ids=[d[0] for d in DRAWN])
def test_a_drawn_puzzle_reads_as_its_rules_and_solves(name, rules):
    spec = example(name)
    original = load((VARIANTS / name).read_text(encoding="utf-8"))[0]
    puzzle = parse(scl(draw(spec, rules)))[0]
    assert normal(puzzle) == normal(original)
    assert puzzle.givens == original.givens
    assert puzzle.meta["format"] == "sudokupad" and puzzle.meta["id"] == "sxsm_test"
    assert recorded(puzzle) == spec["solution"] == solved(puzzle)


@pytest.mark.parametrize("name", ["killer.toml", "arrow.toml", "little-killer.toml",
                                  "kropki.toml"])
def test_the_zipped_notation_reads_as_the_json_does(name):
    rules = dict(DRAWN)[name]
    drawn = draw(example(name), rules)
    as_json = parse(scl(drawn))[0]
    packed = "scl" + compress_to_base64(zipped(drawn))
    assert normal(parse(packed)[0]) == normal(as_json)
    assert sudokupad.unzip(zipped(drawn)) == drawn


def test_unpacked_text_is_read_as_it_stands():
    """SudokuPad takes a payload that is no LZString as the puzzle's text itself, and a
    zipped puzzle pasted alone is read too."""
    drawn = draw(example("killer.toml"), dict(DRAWN)["killer.toml"])
    expected = normal(parse(scl(drawn))[0])
    assert normal(parse("scl" + json.dumps(drawn))[0]) == expected
    assert normal(parse(zipped(drawn))[0]) == expected


def test_sudoku_maker_json_is_the_same_puzzle(tmp_path):
    drawn = draw(example("thermometer.toml"), dict(DRAWN)["thermometer.toml"])
    path = tmp_path / "sudoku-maker.json"
    path.write_text(json.dumps(drawn, indent=2), encoding="utf-8")
    from_file = read_puzzles(str(path))[0]
    assert normal(from_file) == normal(parse(scl(drawn))[0])
    assert recorded(from_file) == solved(from_file)


# ---------------------------------------------------------------- a real puzzle

def parity_fish_with_lines() -> dict:
    body = decompress_from_base64(PARITY_FISH[3:])
    data = sudokupad.unzip(body)
    data["lines"] = [line(cells.split(), "#FF3030", 10) for cells in PARITY_FISH_LINES]
    return data


def test_parity_fish_is_refused_for_the_lines_in_its_image():
    with pytest.raises(ParseError) as info:
        parse(PARITY_FISH)
    message = str(info.value)
    assert "red lines" in message and "background image" in message
    assert info.value.exit_code == ExitCode.BAD_INPUT


def test_parity_fish_with_its_lines_drawn_solves():
    puzzle = parse(scl(parity_fish_with_lines()))[0]
    assert puzzle.name == "Parity Fish" and puzzle.meta["author"] == "Marty Sears"
    assert puzzle.meta["id"].startswith("sxsm_MartySears_")
    spec = as_dict(puzzle)
    assert len(spec["kropki"]["white"]) == 16 and len(spec["kropki"]["black"]) == 5
    assert "negative" not in spec["kropki"]  # the rules do not say all dots are given
    assert len(spec["parity_lines"]) == 3  # red: the rules text names them
    assert set(puzzle.givens) == {0}
    assert recorded(puzzle) == PARITY_FISH_SOLUTION == solved(puzzle)


def test_the_real_payload_unzips_with_sudokupads_key_table():
    data = sudokupad.unzip(decompress_from_base64(PARITY_FISH[3:]))
    assert data["metadata"]["title"] == "Parity Fish"
    assert "don't repeat" in data["metadata"]["rules"]
    assert len(data["cells"]) == 9 and data["cells"][0] == [{}] * 9
    assert len(data["regions"]) == 9 and len(data["overlays"]) == 21
    white, black = data["overlays"][0], data["overlays"][-1]
    assert white["backgroundColor"] == "#FFFFFF" and white["borderColor"] == "#000000"
    assert black["backgroundColor"] == "#000000" and white["rounded"] is True
    assert white["center"] == [3.5, 8] and white["thickness"] == 1.28


# ---------------------------------------------------------------- links and payloads

def killer_payload() -> str:
    return scl(draw(example("killer.toml"), dict(DRAWN)["killer.toml"]))


LINKS = [
    lambda p: p,
    lambda p: "ctc" + p[3:],
    lambda p: "https://sudokupad.app/" + p,
    lambda p: "https://beta.sudokupad.app/" + p + "?setting-nogrid=1",
    lambda p: "https://sudokupad.app/?puzzle=" + p.replace("+", "%2B").replace("/", "%2F"),
    lambda p: "https://app.crackingthecryptic.com/sudoku/" + p,
    lambda p: "https://app.crackingthecryptic.com/sudoku/?puzzleid=" + p,
]


@pytest.mark.parametrize("form", range(len(LINKS)))
def test_every_form_of_a_link_reads(form):
    payload = killer_payload()
    puzzle = parse(LINKS[form](payload))[0]
    assert recorded(puzzle) == example("killer.toml")["solution"] == solved(puzzle)


def test_a_link_that_lost_a_double_slash_is_repaired():
    """Some tools fold a link's `//` into `/`; as SudokuPad does, the slash is restored."""
    drawn = draw(example("killer.toml"), dict(DRAWN)["killer.toml"])
    drawn["metadata"]["title"] = "Killer " + "~" * 1383  # a payload that holds a '//'
    payload = scl(drawn)
    assert "//" in payload[3:]
    folded = payload[:3] + payload[3:].replace("//", "/", 1)
    assert decompress_from_base64(folded[3:]) != decompress_from_base64(payload[3:])
    puzzle = parse("https://sudokupad.app/" + folded)[0]
    assert solved(puzzle) == example("killer.toml")["solution"]


def test_an_fpuzzles_payload_goes_to_the_fpuzzles_reader():
    text = (VARIANTS / "fpuzzles-mixed.json").read_text(encoding="utf-8")
    payload = compress_to_base64(json.dumps(json.loads(text)))
    for link in ("fpuzzles" + payload, "https://sudokupad.app/fpuzzles" + payload,
                 "https://sudokupad.app/fpuz" + payload):
        puzzle = parse(link)[0]
        assert puzzle.meta["format"] == "f-puzzles"
        assert normal(puzzle) == normal(load(text)[0])


def test_links_one_a_line_are_several_puzzles(tmp_path):
    path = tmp_path / "links.txt"
    path.write_text("# two SudokuPad links\n" + killer_payload() + "\n\n"
                    + "https://sudokupad.app/" + scl(parity_fish_with_lines()) + "\n",
                    encoding="utf-8")
    puzzles = read_puzzles(str(path))
    assert [p.name for p in puzzles] == ["Killer", "Parity Fish"]
    assert puzzles[1].source == f"{path}:4"


def test_other_links_may_stand_among_them(tmp_path):
    fpuzzles = (VARIANTS / "fpuzzles-mixed.json").read_text(encoding="utf-8")
    link = "https://www.f-puzzles.com/?load=" + compress_to_base64(fpuzzles)
    path = tmp_path / "links.txt"
    path.write_text(killer_payload() + "\n" + link + "\n", encoding="utf-8")
    puzzles = read_puzzles(str(path))
    assert [p.meta["format"] for p in puzzles] == ["sudokupad", "f-puzzles"]


@pytest.mark.parametrize("how", ["argument", "stdin", "file"])
def test_the_cli_solves_a_link(how, tmp_path):
    link = "https://sudokupad.app/" + killer_payload()
    if how == "argument":
        result = cli("solve", link, "-f", "line")
    elif how == "stdin":
        result = cli("solve", "-", "-f", "line", stdin=link + "\n")
    else:
        path = tmp_path / "puzzle.txt"
        path.write_text(link + "\n", encoding="utf-8")
        result = cli("solve", path, "-f", "line")
    assert result.exit_code == ExitCode.OK, result.output
    assert example("killer.toml")["solution"] in result.stdout


def test_the_example_file_solves():
    puzzles = read_puzzles(str(ROOT / "examples" / "sudokupad.txt"))
    assert puzzles and all(recorded(p) == solved(p) for p in puzzles)


# ---------------------------------------------------------------- refusals

def refused(text: str) -> str:
    with pytest.raises(CpsudokuError) as info:
        parse(text)
    assert info.value.exit_code == ExitCode.BAD_INPUT
    return str(info.value)


def with_drawing(**keys) -> str:
    """The killer example with more drawn on it."""
    drawn = draw(example("killer.toml"), keys.pop("rules", ""))
    for key, value in keys.items():
        if isinstance(value, list) and isinstance(drawn.get(key), list):
            drawn[key] = drawn[key] + value
        else:
            drawn[key] = value
    return scl(drawn)


REFUSALS = [
    ("https://sudokupad.app/wsj7iunsg6", "a short link holds only an id ('wsj7iunsg6'); "
                                         "SudokuPad's server resolves it"),
    ("https://app.crackingthecryptic.com/sudoku/39jphNn83b", "a short link holds only an id"),
    ("https://sudokupad.app/", "the link carries no puzzle"),
    ("scf" + "1" * 40, "scf form"),
    ("sclThisIsNotLZStringAtAllButLooksLikeIt", "not SudokuPad's LZString base64"),
    ("scl" + compress_to_base64("[1, 2, 3]"), "not a puzzle object"),
    ("scl" + compress_to_base64("{ce:[[,,],[,,]],re:[[[0,0]]"), "zipped form"),
    ("scl" + compress_to_base64('{"size": 9}'), "not a SudokuPad puzzle"),
    ("{ce:[[,],[,]],re:x}", "zipped form"),
]


@pytest.mark.parametrize("text, words", REFUSALS, ids=[w[:24] for _, w in REFUSALS])
def test_a_bad_payload_is_one_parse_error(text, words):
    assert words in refused(text)


ORANGE = line(["r1c1", "r1c2", "r1c3"], "#FFA500")
DRAWINGS = [
    ({"lines": [ORANGE]}, "line 1 (orange, a line from r1c1 to r1c3): its colour and the "
                          "rules text do not decide"),
    ({"lines": [line(["r1c1", "r1c2"], "#67F067")],
      "rules": "Digits on lines form a set of consecutive digits in any order."},
     "it could be: renban; whispers"),
    ({"lines": [line(["r1c1", "r1c2"], "#67F067")], "rules": "Green lines are nabner lines."},
     "line 1 (green"),
    ({"overlays": [circle(centre("r5c5"))]}, "overlay 1 (a white circle in r5c5): no rule"),
    ({"overlays": [text([-0.5, 3.5], 12)]}, "nothing decides its rule"),
    ({"overlays": [text(centre("r1c1"), "?")]}, "showing '?' in r1c1"),
    ({"underlays": [circle(centre("r2c2"), "#CFCFCF", "#CFCFCF", 0.7)],
      "rules": "Normal sudoku rules apply."}, "speaks of neither"),
    ({"underlays": [{"center": centre("r2c2"), "width": 1, "height": 1,
                     "backgroundColor": "#CFCFCF"}],
      "rules": "Shaded cells contain even digits."}, "speaks of shaded cells"),
    ({"cages": [{"cells": [[0, 0], [0, 1]], "value": "x"}]}, "shows 'x', which is no sum"),
    ({"arrows": [{"wayPoints": [centre("r1c1"), centre("r1c3")]}]}, "in no circle"),
    ({"arrows": [{"wayPoints": [[-0.2, 3.5], [0.2, 3.5]]}]}, "does not point along a diagonal"),
    ({"lines": [line(["r1c1", "r1c2", "r1c3"], "#CFCFCF", 21)],
      "underlays": [circle(centre("r1c1"), "#CFCFCF", "#CFCFCF", 0.85),
                    circle(centre("r1c3"), "#CFCFCF", "#CFCFCF", 0.85)]}, "a bulb at both ends"),
    ({"lines": [{"wayPoints": [[0, 0], [0, 3]], "color": "#000000", "thickness": 3}]},
     "not through cell centres"),
    ({"lines": [{"d": "M 0 0 L 1 1", "color": "#000000"}]}, "SVG path"),
    ({"global": ["antiqueen"]}, "global rule 'antiqueen' is not read"),
    ({"chaos": [1]}, "key 'chaos' is not read"),
    ({"overlays": [{**circle(between("r1c1", "r1c2"), "#FF0000", "#FF0000", 0.3)}]},
     "a red circle between r1c1 and r1c2"),
]


@pytest.mark.parametrize("keys, words", DRAWINGS, ids=[w[:30] for _, w in DRAWINGS])
def test_a_drawing_that_decides_no_rule_is_refused_by_name(keys, words):
    assert words in refused(with_drawing(**keys))


def test_corner_pencil_marks_are_refused_and_centre_marks_read():
    drawn = draw(example("killer.toml"))
    drawn["cells"][0][0] = {"pencilMarks": [1, 2]}
    assert "corner pencil marks [1, 2]: they could be the cell's candidates" in refused(
        scl(drawn))
    drawn["cells"][0][0] = {"centremarks": [1, 9]}
    puzzle = parse(scl(drawn))[0]
    assert as_dict(puzzle)["given_candidates"] == [{"cell": "r1c1", "values": [1, 9]}]
    assert solved(puzzle) == example("killer.toml")["solution"]


@pytest.mark.parametrize("how", ["argument", "stdin", "file"])
def test_the_cli_refuses_with_one_line(how, tmp_path):
    link = "https://sudokupad.app/" + with_drawing(lines=[ORANGE])
    result = solve_given(how, link, tmp_path)
    assert result.exit_code == ExitCode.BAD_INPUT, result.output
    line_ = one_error_line(result)
    assert "orange" in line_ and "internal error" not in result.output


def test_a_short_link_on_the_command_line_is_one_line():
    result = cli("solve", "https://sudokupad.app/abc123")
    assert result.exit_code == ExitCode.BAD_INPUT
    assert "a short link holds only an id" in one_error_line(result)


# ---------------------------------------------------------------- the drawings' details

def test_outer_cells_hold_the_outside_clues():
    """Puzzles converted from f-puzzles or Penpa put outside clues in cells around the
    regions: the grid is the regions' part, the clue's cell beside its row or column."""
    drawn = draw(example("sandwich.toml"), dict(DRAWN)["sandwich.toml"])

    def shift(value):
        if isinstance(value, dict):
            return {k: ([x + 1 for x in v] if k in ("center",) else shift(v))
                    for k, v in value.items()}
        if isinstance(value, list):
            return [shift(v) for v in value]
        return value
    moved = {**drawn, "regions": [[[r + 1, c + 1] for r, c in region]
                                  for region in drawn["regions"]],
             "overlays": shift(drawn["overlays"]),
             "cells": [[{}] * 11] + [[{}] + row + [{}] for row in drawn["cells"]] + [[{}] * 11]}
    puzzle = parse(scl(moved))[0]
    assert normal(puzzle) == normal(parse(scl(drawn))[0])
    assert solved(puzzle) == example("sandwich.toml")["solution"]


def test_digits_in_the_outer_cells_are_outside_numbers():
    """Penpa's conversions write outside clues as the digits of the cells around."""
    drawn = draw(example("sandwich.toml"), dict(DRAWN)["sandwich.toml"])
    ring = [[{} for _ in range(11)] for _ in range(11)]
    for r, row in enumerate(drawn["cells"]):
        ring[r + 1][1:10] = row
    for clue in example("sandwich.toml")["sandwiches"]:
        far = 10 if clue["side"] == "end" else 0
        r, c = (far, clue["column"]) if "column" in clue else (clue["row"], far)
        ring[r][c] = {"value": clue["value"]}
    moved = {**drawn, "cells": ring, "overlays": [],
             "regions": [[[r + 1, c + 1] for r, c in region] for region in drawn["regions"]]}
    puzzle = parse(scl(moved))[0]
    assert normal(puzzle) == normal(parse(scl(drawn))[0])


def test_a_thermometer_drawn_backwards_starts_at_its_bulb():
    spec = example("thermometer.toml")
    drawn = draw(spec, dict(DRAWN)["thermometer.toml"])
    thermo = next(d for d in drawn["lines"] if d["color"] == "#CFCFCF")
    thermo["wayPoints"].reverse()
    assert normal(parse(scl(drawn))[0]) == normal(load(json.dumps(spec))[0])


def test_a_straight_line_between_far_centres_covers_the_cells_between():
    drawn = draw(example("killer.toml"))
    drawn["lines"] = [{"wayPoints": [centre("r1c1"), centre("r1c4"), centre("r4c7")],
                       "color": "#C0C0C0", "thickness": 9}]
    puzzle = parse(scl(drawn))[0]
    assert as_dict(puzzle)["palindromes"] == [["r1c1", "r1c2", "r1c3", "r1c4", "r2c5",
                                               "r3c6", "r4c7"]]


def test_globals_and_negative_rules():
    drawn = draw(example("kropki.toml"))  # no rules text: the dots alone
    assert "negative" not in as_dict(parse(scl(drawn))[0])["kropki"]
    drawn["global"] = ["nonconsecutive", "antiratio", "antiking"]
    spec = as_dict(parse(scl(drawn))[0])
    assert sorted(spec["kropki"]["negative"]) == ["black", "white"]
    assert spec["rules"] == ["anti-king"]
    bare = draw(example("killer.toml"))
    bare["global"] = ["nonconsecutive"]  # no white dot: the global rule
    assert as_dict(parse(scl(bare))[0])["rules"] == ["non-consecutive"]


def test_rules_text_choices():
    drawn = draw(example("killer.toml"), "Digits may repeat in cages.")
    assert all(c.get("repeats") for c in as_dict(parse(scl(drawn))[0])["cages"])
    drawn = draw(example("thermometer.toml"), "Digits on slow thermometers never decrease.")
    assert "slow_thermometers" in as_dict(parse(scl(drawn))[0])
    drawn = draw(example("between-lines.toml"), "Lockout lines: ...")
    assert "lockout_lines" in as_dict(parse(scl(drawn))[0])


def test_metadata_cages_give_title_rules_and_solution():
    drawn = draw(example("killer.toml"))
    meta = drawn.pop("metadata")
    drawn["cages"] += [{"value": f"title: {meta['title']}"}, {"value": "author: Someone"},
                       {"value": f"solution: {meta['solution']}"},
                       {"value": "rules: Normal killer rules."}]
    puzzle = parse(scl(drawn))[0]
    assert puzzle.name == "Killer" and puzzle.meta["author"] == "Someone"
    assert puzzle.meta["ruleset"] == "Normal killer rules."
    assert recorded(puzzle) == solved(puzzle)


def test_unzip_reads_sudokupads_literals():
    value = sudokupad.unzip("{c:#0,c2:#F,c1:FFA0A0,r:t,h:f,te:'it\\'s \"x\"',"
                            "wp:[[0.5,1],[2,-3e0]],ce:[[,{v:5},],[]],x:null}")
    assert value == {"color": "#000000", "backgroundColor": "#FFFFFF",
                     "borderColor": "#FFA0A0", "rounded": True, "height": False,
                     "text": "it's \"x\"", "wayPoints": [[0.5, 1], [2, -3.0]],
                     "cells": [[{}, {"value": 5}, {}], []], "x": None}
