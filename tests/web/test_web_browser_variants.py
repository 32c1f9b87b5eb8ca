"""Every variant drawn on the page, in the conventions players know from SudokuPad: each
example of examples/variants/ loaded as a file (POST /api/parse, as the page loads one),
every element family it has drawn as <g data-kind="..."> with its colour, ends and text,
and axe-core clean with them drawn."""

from __future__ import annotations

import colorsys
import json
import re

import browser_kit as kit
import pytest
from browser_kit import INKALA, ROOT, contrast, css, new_page, open_puzzle, wait_loaded

pytestmark = [pytest.mark.browser, pytest.mark.process]
server, browser, shots, page = kit.server, kit.browser, kit.shots, kit.page  # fixtures

# The examples the page draws: square grids of the grid's cells (the others are
# refused by name, see test_web_api).
EXAMPLES = sorted(p for p in (ROOT / "examples" / "variants").iterdir()
                  if p.suffix in (".toml", ".json") and p.stem not in ("jigsaw-4x7", "raw-grid",
                                                                       "doppelganger"))
# What each end marker is drawn as, per line (between lines: a circle at each end, ...).
END_MARKERS = {"circle": 2, "diamond": 2, "bulb": 1, "middle": 1, None: 0}

# Lines with their parameters and dots with numbers, for the labels and axe-core.
LABELLED = """size = 9
grid = "5................................................................................"
whispers = [{cells = ["r1c1", "r1c2", "r1c3"], difference = 4}]
modular_lines = [{cells = ["r3c1", "r3c2", "r3c3", "r3c4"], modulus = 3}]
sum_lines = [{cells = ["r5c1", "r5c2", "r5c3"], total = 10}]
lockout_lines = [{cells = ["r7c1", "r7c2", "r7c3", "r7c4"], difference = 5}]
between_lines = [["r9c1", "r9c2", "r9c3", "r9c4"]]
slow_thermometers = [["r1c6", "r2c6", "r3c6"]]
zipper_lines = [["r5c6", "r5c7", "r5c8"]]
renban = [["r7c6", "r7c7"]]
[kropki]
white = [{cells = ["r2c8", "r2c9"], value = 3}]
black = [{cells = ["r4c8", "r4c9"], value = 3}, ["r6c8", "r6c9"]]
"""


@pytest.fixture(scope="module")
def axe():
    return kit.axe_source()


def load_file(page, server, path) -> dict:
    """Loads a puzzle file through the page's file input: the description /api/parse sent."""
    if not page.url.startswith(server):
        open_puzzle(page, server, INKALA)  # a first puzzle, fully shown
    with page.expect_response("**/api/parse") as reply:
        page.locator('[data-role="file"]').set_input_files(str(path))
    assert reply.value.ok, reply.value.text()
    description = reply.value.json()
    # Shown when the board holds its givens and its rules are listed.
    page.wait_for_function("""([givens, rules]) => {
        const cells = [...document.querySelectorAll('[role=gridcell]')];
        const items = document.querySelectorAll('[data-role=rules] li').length;
        return cells.length === givens.length && items === rules + 1
            && cells.every((c, i) => c.dataset.value === (givens[i] ? String(givens[i]) : ''));
    }""", arg=[description["givens"], len(description["rules"])])
    wait_loaded(page)
    return description


def expected_counts(description: dict) -> dict[str, int]:
    """How many shapes of each kind the page must draw for this description."""
    counts = {}
    for key, value in description["elements"].items():
        if isinstance(value, dict):  # kropki, xv: lists per mark, plus flags
            counts[key] = sum(len(v) for k, v in value.items()
                              if k != "negative" and isinstance(v, list))
        elif isinstance(value, list):  # not a setting such as full_rank_ties
            counts[key] = len(value)
    if description["lines"]:
        counts["diagonal"] = len(description["lines"])
    if description["shaded"]:
        counts["window"] = len(description["shaded"])
    return counts


def drawn_counts(page) -> dict[str, int]:
    return page.evaluate("""() => {
        const out = {};
        for (const g of document.querySelectorAll('#board [data-kind]'))
            out[g.dataset.kind] = (out[g.dataset.kind] || 0) + 1;
        return out; }""")


def rgb(colour: str) -> tuple[int, int, int]:
    """'#67f067' or 'rgb(103, 240, 103)' as (r, g, b)."""
    if colour.startswith("#"):
        return tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))  # type: ignore[return-value]
    return tuple(int(x) for x in re.findall(r"\d+", colour)[:3])  # type: ignore[return-value]


def symbols(values) -> str:
    return "".join(str(v) if v <= 9 else chr(55 + v) for v in values)


# The text each element's drawing must hold, from the element as the server sent it.
OUTSIDE = ("sandwiches", "x_sums", "skyscrapers", "numbered_rooms", "hidden_skyscrapers",
           "lunchboxes", "full_ranks")
TEXTS = {"cages": lambda x: [str(x["sum"])] if "sum" in x else [],
         "rellik_cages": lambda x: [str(x["sum"])],
         "little_killers": lambda x: [str(x["sum"])],
         "equality_cages": lambda x: ["="],
         "contain_at_least": lambda x: [symbols(x["values"]) + "+"],
         "contain_exact": lambda x: ["=" + symbols(x["values"])],
         "given_candidates": lambda x: [symbols(x["values"])],
         "distinct_counts": lambda x: [], "distinct_region_counts": lambda x: [],
         "quadruples": lambda x: [" ".join(symbols([v]) for v in x["values"][k:k + 2])
                                  for k in (0, 2) if x["values"][k:k + 2]]}
TEXTS.update({key: (lambda x: [str(x["value"])]) for key in OUTSIDE})


def drawn_texts(page) -> dict[str, list[list[str]]]:
    return page.evaluate("""() => {
        const out = {};
        for (const g of document.querySelectorAll('#board [data-kind]'))
            (out[g.dataset.kind] ||= []).push(
                [...g.querySelectorAll('text')].map(t => t.textContent));
        return out; }""")


def drawn_lines(page) -> list[dict]:
    return page.evaluate("""() => [...document.querySelectorAll('#board g.styled-line')].map(g => {
        const path = g.querySelector('.path'), style = getComputedStyle(path);
        return {kind: g.dataset.kind, colour: g.dataset.colour, stroke: style.stroke,
                width: Number(path.getAttribute('stroke-width')), dashed: style.strokeDasharray,
                points: path.getAttribute('points').trim().split(/\\s+/).length,
                ends: [...g.querySelectorAll('[data-end]')].map(e => e.dataset.end),
                value: g.dataset.value ?? null,
                label: g.querySelector('.line-value')?.textContent ?? null}; })""")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_family_of_the_example_is_drawn(page, server, path):
    description = load_file(page, server, path)
    expected = expected_counts(description)
    drawn = drawn_counts(page)
    assert {k: drawn.get(k, 0) for k in expected} == expected, drawn
    assert set(drawn) <= set(expected), drawn  # nothing drawn the puzzle does not have
    texts = drawn_texts(page)
    for key, text in TEXTS.items():
        if key in description["elements"]:
            assert texts[key] == [text(x) for x in description["elements"][key]], key
    lines = drawn_lines(page)
    assert len(lines) == len(description["styled_lines"])
    for sent, shown in zip(description["styled_lines"], lines):
        assert shown["kind"] == sent["kind"] and shown["colour"] == sent["colour"]
        assert rgb(shown["stroke"]) == rgb(sent["colour"]), (sent["kind"], shown["stroke"])
        assert shown["width"] == pytest.approx(sent["width"] * kit_cell(page))
        assert shown["points"] == len(sent["cells"])
        assert shown["ends"] == [sent["ends"]] * END_MARKERS[sent["ends"]]
        assert (shown["dashed"] not in ("none", "")) == sent["dashed"], shown


def kit_cell(page) -> float:
    """The board's cell in SVG units: the width of r1c1's background."""
    return float(page.locator('[data-cell="r1c1"] .bg').get_attribute("width"))


def hue_of(colour: str) -> tuple[float, float]:
    r, g, b = (x / 255 for x in rgb(colour))
    h, _, s = colorsys.rgb_to_hls(r, g, b)
    return h * 360, s


# The colours setters know: (example, kind, hue range in degrees, or None for grey).
CONVENTIONS = [("whispers", "whispers", (90, 150)), ("renban", "renban", (280, 320)),
               ("region-sum-lines", "region_sum_lines", (180, 220)),
               ("palindromes", "palindromes", None), ("between-lines", "between_lines", (220, 260)),
               ("dutch-whispers", "dutch_whispers", (25, 45))]


@pytest.mark.parametrize("example, kind, hues", CONVENTIONS, ids=[c[1] for c in CONVENTIONS])
def test_line_colours_follow_sudokupad(page, server, example, kind, hues):
    load_file(page, server, ROOT / "examples" / "variants" / f"{example}.toml")
    strokes = {line["stroke"] for line in drawn_lines(page) if line["kind"] == kind}
    assert len(strokes) == 1, strokes
    hue, saturation = hue_of(strokes.pop())
    if hues is None:
        assert saturation < 0.05, (kind, hue, saturation)  # grey
    else:
        assert hues[0] <= hue <= hues[1] and saturation > 0.4, (kind, hue, saturation)


def test_parameters_and_dot_numbers_are_written(page, server, tmp_path):
    path = tmp_path / "labelled.toml"
    path.write_text(LABELLED)
    load_file(page, server, path)
    lines = {line["kind"]: line for line in drawn_lines(page)}
    assert {k: lines[k]["label"] for k in ("whispers", "modular_lines", "sum_lines",
                                           "lockout_lines")} == \
        {"whispers": "4", "modular_lines": "3", "sum_lines": "10", "lockout_lines": "5"}
    assert lines["between_lines"]["label"] is None
    assert lines["lockout_lines"]["ends"] == ["diamond", "diamond"]
    assert lines["slow_thermometers"]["ends"] == ["bulb"]
    numbered = page.eval_on_selector_all(
        '[data-kind="kropki"]', "gs => gs.map(g => [g.dataset.mark, g.dataset.value ?? null,"
        " g.querySelector('text')?.textContent ?? null])")
    assert sorted(numbered, key=str) == sorted([["white", "3", "3"], ["black", "3", "3"],
                                                ["black", None, None]], key=str)
    # A corner mark in a labelled cell makes way for the label.
    page.locator('[data-cell="r3c1"]').click()
    page.keyboard.press("Shift+Digit2")
    mark = kit.box(page, '[data-for="r3c1"] .corner text')
    label = kit.box(page, '[data-kind="modular_lines"] .line-value')
    assert mark["x"] >= label["x"] + label["width"] or mark["y"] >= label["y"] + label["height"]


def test_the_board_keeps_an_outside_margin_only_for_outside_clues(page, server):
    load_file(page, server, ROOT / "examples" / "variants" / "whispers.toml")
    inner = page.evaluate("document.querySelector('#board').viewBox.baseVal.x")
    load_file(page, server, ROOT / "examples" / "variants" / "little-killer.toml")
    outer = page.evaluate("document.querySelector('#board').viewBox.baseVal.x")
    assert inner > -kit_cell(page) / 2 and outer <= -kit_cell(page) / 2, (inner, outer)


OUTSIDE_CLUES = """size = 9
grid = "5................................................................................"
sandwiches = [{row = 2, value = 17}, {column = 3, side = "end", value = 0}]
x_sums = [{row = 4, side = "end", value = 25}]
skyscrapers = [{column = 5, value = 3}]
indexing = [{kind = "column", cells = ["r1c1", "r2c1"]}]
"""


def test_outside_clues_sit_beside_their_row_or_column(page, server, tmp_path):
    path = tmp_path / "outside.toml"
    path.write_text(OUTSIDE_CLUES)
    load_file(page, server, path)
    size = kit_cell(page)
    where = page.evaluate("""() => [...document.querySelectorAll('#board .outside')].map(g => {
        const t = g.querySelector('text');
        return [g.dataset.kind, t.textContent, Number(t.getAttribute('x')),
                Number(t.getAttribute('y'))]; })""")
    placed = {(kind, text): (x / size, y / size) for kind, text, x, y in where}
    # left of row 2, below column 3, right of row 4, above column 5 (in cells, 0 at the edge)
    assert placed[("sandwiches", "17")][0] < 0 and 1 < placed[("sandwiches", "17")][1] < 2
    assert 2 < placed[("sandwiches", "0")][0] < 3 and placed[("sandwiches", "0")][1] > 9
    assert placed[("x_sums", "25")][0] > 9 and 3 < placed[("x_sums", "25")][1] < 4
    assert 4 < placed[("skyscrapers", "3")][0] < 5 and placed[("skyscrapers", "3")][1] < 0
    assert page.evaluate("document.querySelector('#board').viewBox.baseVal.x") <= -size / 2
    assert page.locator('[data-kind="indexing"] rect').count() == 2


def every_line_kind() -> str:
    """A puzzle with one line of every kind the server styles, three cells each across a box
    border, and a given at the start of each line (given and entered digits on lines)."""
    from cpsudoku.web.drawing import LINE_STYLES
    grid = ["."] * 81
    lines = []
    for k, kind in enumerate(LINE_STYLES):
        row, col = k % 9, 1 if k < 9 else 4
        lines.append(f"{kind} = [{json.dumps([f'r{row + 1}c{col + j + 1}' for j in range(3)])}]")
        grid[row * 9 + col] = str(k + 1 if k < 9 else k - 4)  # no two alike in a house
    return f'size = 9\ngrid = "{"".join(grid)}"\n' + "\n".join(lines) + "\n"


def over(colour: str, paper: str, opacity: float) -> str:
    """A colour laid over the paper with an opacity, as the eye sees it."""
    mixed = [round(opacity * a + (1 - opacity) * b) for a, b in zip(rgb(colour), rgb(paper))]
    return f"rgb({mixed[0]}, {mixed[1]}, {mixed[2]})"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_digits_on_every_line_keep_their_contrast(browser, server, tmp_path, scheme):
    path = tmp_path / "lines.toml"
    path.write_text(every_line_kind())
    tab = new_page(browser, kit.DESKTOP, scheme)
    try:
        description = load_file(tab, server, path)
        tab.locator('[data-cell="r1c3"]').click()
        tab.keyboard.press("5")
        tab.locator('[data-cell="r9c9"]').click()  # r1c3 no longer selected
        paper = css(tab, ".paper", "fill")
        given = css(tab, '[data-for="r1c2"].given .value', "fill")
        entry = css(tab, '[data-for="r1c3"] .value', "fill")
        shown = tab.evaluate("""() => [...document.querySelectorAll('#board g.styled-line')]
            .map(g => { const s = getComputedStyle(g.querySelector('.path'));
                        return [g.dataset.kind, s.stroke, Number(s.opacity)]; })""")
        assert len(shown) == len(description["styled_lines"]) == 14
        low = {}
        for kind, stroke, opacity in shown:
            under = over(stroke, paper, opacity)
            for name, ink in (("given", given), ("entry", entry)):
                if contrast(ink, under) < 3:  # digits are large text: 3:1
                    low[(kind, name)] = round(contrast(ink, under), 2)
        assert low == {}, low
    finally:
        tab.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_with_every_line_drawn(browser, server, axe, tmp_path, scheme):
    path = tmp_path / "labelled.toml"
    path.write_text(LABELLED)
    tab = new_page(browser, kit.DESKTOP, scheme)
    try:
        load_file(tab, server, path)
        found = kit.axe_violations(tab, axe)
        assert found == [], found
        outside = tmp_path / "outside.toml"  # a new name: the file input fires again
        outside.write_text(OUTSIDE_CLUES)
        load_file(tab, server, outside)
        found = kit.axe_violations(tab, axe)
        assert found == [], ("outside clues", found)
        for example in ("between-lines", "double-arrows", "region-sum-lines", "kropki",
                        "little-killer", "fpuzzles-mixed", "quadruples", "clones",
                        "given-candidates", "rellik-cages"):
            suffix = ".json" if example.startswith("fpuzzles") else ".toml"
            load_file(tab, server, ROOT / "examples" / "variants" / f"{example}{suffix}")
            found = kit.axe_violations(tab, axe)
            assert found == [], (example, found)
    finally:
        tab.context.close()
