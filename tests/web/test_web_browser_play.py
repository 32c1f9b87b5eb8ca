"""Playing on the page: answers that belong to their puzzle, Restart, the first puzzle,
messages, how marks, candidates and arrows are drawn, settings, selecting several cells,
short links, and hints given a little at a time."""

from __future__ import annotations

import math
import re
from urllib.parse import parse_qs, quote, urlparse

import browser_kit as kit
import pytest
from browser_kit import (
    HAS_LOGIC,
    INKALA,
    KILLER,
    ROOT,
    cell,
    load_pasted,
    new_page,
    open_puzzle,
    status,
    wait_loaded,
)

from cpsudoku import parse_one, solve

pytestmark = [pytest.mark.browser, pytest.mark.process]
server, browser, shots, page = kit.server, kit.browser, kit.shots, kit.page  # fixtures

TUTORIAL = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
ARROW = """size = 9
givens = ".......6........................................................................."
[[arrows]]
circle = ["r1c5"]
lines = [["r1c6", "r1c7", "r1c8"]]
"""
CELL = 48  # the board's unit


def value(page, name):
    return cell(page, name).get_attribute("data-value")


def puzzle_in_address(page) -> str:
    return parse_qs(urlparse(page.url).query)["puzzle"][0]


def inside(inner, outer, slack=0.5):
    return (inner["x"] >= outer["x"] - slack and inner["y"] >= outer["y"] - slack
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack)


def overlap(a, b):
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def test_an_old_answer_never_lands_on_the_new_puzzle(page, server):
    open_puzzle(page, server, INKALA)
    page.wait_for_selector('[data-role="backend"] option[value="naive"]', state="attached")
    page.locator('[data-role="backend"]').select_option("naive")
    page.locator('[data-role="time-limit"]').fill("3")
    with page.expect_event("requestfailed", lambda r: "/api/solve" in r.url, timeout=20_000):
        page.locator('[data-action="solve"]').click()
        load_pasted(page, TUTORIAL)  # while naive is still searching
    page.wait_for_timeout(3500)  # the server's answer would have come by now
    assert page.locator('[data-action="reveal"]').is_disabled()
    assert "loaded" in status(page)
    assert page.locator('[data-role="compare"] tbody tr').count() == 0
    givens = parse_one(TUTORIAL).givens
    assert [value(page, f"r1c{c}") for c in range(1, 10)] == [str(v) if v else ""
                                                               for v in givens[:9]]


def test_restart_after_a_revealed_solve_resets_everything(page, server):
    open_puzzle(page, server, TUTORIAL)
    cell(page, "r1c1").click()
    page.keyboard.press("Shift+Digit4")
    page.locator('[data-role="backend"]').select_option("native")
    page.locator('[data-action="solve"]').click()
    page.wait_for_selector('[data-action="reveal"]:not([disabled])')
    page.locator('[data-action="reveal"]').click()
    page.wait_for_selector('[data-cell="r1c1"]:not([data-value=""])')
    page.locator('[data-action="submit"]').click()
    page.wait_for_function("document.querySelector('[data-role=status]').textContent"
                           ".startsWith('Solved')")
    assert "Congratulations" not in status(page)  # the solution was revealed
    page.locator('[data-action="restart"]').click()
    assert value(page, "r1c1") == ""
    assert page.locator('[data-for="r1c1"] .corner text').count() == 0  # marks gone too
    assert page.locator('[data-role="timer"]').text_content() in ("0:00", "0:01")
    cell(page, "r1c1").click()
    page.keyboard.press("4")
    assert value(page, "r1c1") == "4"  # digits can be typed again
    page.reload()
    wait_loaded(page)
    assert "Solved" not in status(page)
    assert value(page, "r1c1") == "4"


@pytest.mark.skipif(not HAS_LOGIC, reason="the rating needs cpsudoku.logic")
def test_the_first_puzzle_is_an_easy_one_and_not_always_the_same(browser, server):
    from cpsudoku.logic import rate
    seen = []
    for _ in range(2):
        tab = new_page(browser)
        try:
            tab.goto(server)
            wait_loaded(tab)
            seen.append(puzzle_in_address(tab))
            tab.goto(server)  # the same player comes back: the same game
            wait_loaded(tab)
            assert puzzle_in_address(tab) == seen[-1]
        finally:
            tab.context.close()
    assert seen[0] != seen[1]
    for text in seen:
        assert rate(parse_one(text)).er <= 2.0


def test_messages_say_what_and_where(page, server):
    open_puzzle(page, server, INKALA)
    page.locator('[data-role="time-limit"]').fill("999")
    page.locator('[data-action="solve"]').click()
    assert "1 to 60 seconds" in status(page)
    assert page.locator('[data-role="compare"] tbody tr').count() == 0
    assert page.locator('[data-role="time-limit"]').get_attribute("aria-invalid") == "true"
    page.locator('[data-action="submit"]').click()
    page.wait_for_function("document.querySelector('[data-role=status]').textContent"
                           ".startsWith('Not finished yet')")
    assert "bad" not in page.locator('[data-role="status"]').get_attribute("class")
    clash = "111111111" + "." * 72  # 36 pairs in row 1
    # not open_puzzle: its "loaded" may be replaced by the conflicts before it is seen
    page.goto(f"{server}?puzzle={quote(clash)}")
    page.wait_for_function("document.querySelector('[data-role=status]').textContent"
                           ".startsWith('Conflict')")
    text = status(page)
    assert re.search(r"and \d+ more conflicts", text) and len(text) < 300, text


def test_jigsaw_and_windoku_rules_are_named_for_the_puzzle(page, server):
    open_puzzle(page, server, INKALA)
    load_pasted(page, (ROOT / "examples" / "variants" / "jigsaw.toml").read_text())
    rules = page.locator('[data-role="rules"] li').all_text_contents()
    assert rules[0].startswith("jigsaw:") and not any(r.startswith("classic") for r in rules)
    page.locator('[data-role="size"]').select_option("4")
    page.locator('[data-role="variant"]').select_option("windoku")
    page.locator('[data-action="new"]').click()
    page.wait_for_function("document.querySelector('[data-role=status]').textContent"
                           ".includes('4x4')")
    text = " ".join(page.locator('[data-role="rules"] li').all_text_contents())
    assert "windoku" in text and "9x9" not in text and "3x3" not in text


def test_a_corner_mark_does_not_hide_under_a_cage_sum(page, server):
    open_puzzle(page, server, INKALA)
    load_pasted(page, KILLER, "Killer")
    sum_text = page.locator('g.cage[data-cage="1"] text.sum')
    x, y = (float(sum_text.get_attribute(k)) for k in ("x", "y"))
    name = f"r{int(y // CELL) + 1}c{int(x // CELL) + 1}"  # the cell holding the sum
    cell(page, name).click()
    page.keyboard.press("Shift+Digit1")
    page.keyboard.press("Shift+Digit2")
    sum_box = kit.box(page, 'g.cage[data-cage="1"] text.sum')
    for k in range(2):
        mark = kit.box(page, f'[data-for="{name}"] .corner text', k)
        assert not overlap(mark, sum_box), (mark, sum_box)


def test_auto_candidates_stay_inside_their_cell(page, server):
    open_puzzle(page, server, INKALA)
    kit.show_candidates(page)
    counts = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('[data-for]')]
        .map(g => [g.dataset.for, g.querySelectorAll('.auto text').length]))""")
    name = max(counts, key=counts.get)
    assert counts[name] >= 7, counts
    box = cell(page, name).bounding_box()
    for k in range(counts[name]):
        assert inside(kit.box(page, f'[data-for="{name}"] .auto text', k), box), name


def test_an_arrowhead_is_not_under_the_digit_of_its_last_cell(page, server):
    open_puzzle(page, server, ARROW)
    points = page.locator(".arrow polyline").last.get_attribute("points")
    tip = [float(v) for v in points.split()[1].split(",")]
    centre = (7 * CELL + CELL / 2, CELL / 2)  # r1c8, whose given is 6
    assert math.dist(tip, centre) >= 0.25 * CELL, (tip, centre)


def test_settings_are_kept_and_turn_highlighting_off(page, server):
    open_puzzle(page, server, INKALA)
    cell(page, "r5c5").click()
    assert page.locator("[data-cell].peer").count() == 20  # row, column and box
    page.locator('[data-role="settings"] summary').click()
    page.locator('[data-setting="highlight"]').uncheck()
    assert page.locator("[data-cell].peer").count() == 0
    page.locator('[data-setting="timer"]').uncheck()
    page.reload()
    wait_loaded(page)
    cell(page, "r5c5").click()
    assert page.locator("[data-cell].peer").count() == 0
    assert not page.locator('[data-role="timer"]').is_visible()


def test_several_cells_marked_together(page, server):
    open_puzzle(page, server, INKALA)
    cell(page, "r1c2").click()
    cell(page, "r1c3").click(modifiers=["Control"])
    cell(page, "r2c1").click(modifiers=["Shift"])
    assert page.locator('[data-cell][aria-selected="true"]').count() == 3
    page.keyboard.press("Shift+Digit3")
    for name in ("r1c2", "r1c3", "r2c1"):
        assert page.locator(f'[data-for="{name}"] .corner text').all_text_contents() == ["3"]
    # Dragging across a row selects every cell passed over.
    start, end = cell(page, "r3c1").bounding_box(), cell(page, "r3c4").bounding_box()
    page.mouse.move(start["x"] + 5, start["y"] + 5)
    page.mouse.down()
    page.mouse.move(end["x"] + 20, end["y"] + 20, steps=6)
    page.mouse.up()
    selected = page.eval_on_selector_all('[data-cell][aria-selected="true"]',
                                         "els => els.map(e => e.dataset.cell)")
    assert set(selected) >= {"r3c1", "r3c2", "r3c3", "r3c4"}, selected
    page.locator('[data-mode="centre"]').click()
    page.locator('[data-role="pad"] button[data-digit="5"]').click()
    for name in ("r3c1", "r3c3", "r3c4"):  # r3c2 is a given
        assert page.locator(f'[data-for="{name}"] .centre').text_content() == "5"


def test_a_short_link_reloads_a_variant(page, server, browser):
    open_puzzle(page, server, INKALA)
    load_pasted(page, KILLER, "Killer")
    page.locator('[data-action="share"]').click()
    page.wait_for_function("document.querySelector('[data-role=share-link]').value !== ''")
    link = page.locator('[data-role="share-link"]').input_value()
    assert len(link) < 800, len(link)  # the puzzle file is 1 kB, the old link 3.2 kB
    other = new_page(browser)
    try:
        other.goto(link)
        wait_loaded(other)
        assert other.locator("g.cage").count() == len(parse_one(KILLER).rules[0].elements)
    finally:
        other.context.close()


@pytest.mark.skipif(not HAS_LOGIC, reason="hints need cpsudoku.logic")
def test_a_hint_comes_in_three_steps_and_can_be_applied(page, server):
    open_puzzle(page, server, TUTORIAL)
    with page.expect_response("**/api/hint") as reply:
        page.locator('[data-action="hint"]').click()
    answer = reply.value.json()
    step, words = answer["step"], answer["words"]
    items = page.locator('[data-role="hint-text"] li')
    assert items.all_text_contents() == [words["where"]]
    assert page.locator('[data-role="hint-title"]').text_content() == step["technique"]
    house = page.locator("[data-cell].hint").count()
    assert house == 9  # the box to look at, nothing more yet
    assert page.locator(".hint-cand").count() == 0
    page.locator('[data-action="hint-more"]').click()
    assert items.all_text_contents() == [words["where"], words["plain"]]
    assert page.locator("[data-cell].hint").count() == len(step["cells"])
    assert page.locator(".hint-cand").count() >= 1
    page.locator('[data-action="hint-more"]').click()
    assert items.all_text_contents()[-1] == words["result"]
    placed = step["placements"][0]
    name, digit = placed.split("=")
    assert page.locator(".hint-cand.place").count() == 1
    page.locator('[data-action="hint-apply"]').click()
    assert value(page, name) == digit
    assert page.locator('[data-role="hint"]').is_hidden()


@pytest.mark.skipif(not HAS_LOGIC, reason="hints need cpsudoku.logic")
def test_a_chain_hint_draws_its_links(page, server):
    open_puzzle(page, server, INKALA)  # its first step is a forcing chain
    with page.expect_response("**/api/hint", timeout=60_000) as reply:
        page.locator('[data-action="hint"]').click()
    step = reply.value.json()["step"]
    page.locator('[data-action="hint-more"]').click()

    def links(branches):
        return sum(len(b.get("links", [])) + links(b.get("nested", [])) for b in branches)
    expected = links(step["chain"]) if step.get("chain") else step["text"].count(" -> ")
    assert page.locator(".hint-layer line.link").count() == expected
    text = page.locator('[data-role="hint-text"]').text_content()
    assert text.count(step["technique"]) <= 1  # the name once, not twice
    assert page.locator(".hint-cand").count() >= 1


def test_solution_checked_against_the_api(page, server):
    """Reveal fills in exactly the solution the backends found."""
    open_puzzle(page, server, TUTORIAL)
    page.locator('[data-role="backend"]').select_option("native")
    page.locator('[data-action="solve"]').click()
    page.wait_for_selector('[data-action="reveal"]:not([disabled])')
    page.locator('[data-action="reveal"]').click()
    expected = solve(parse_one(TUTORIAL)).solution
    page.wait_for_selector('[data-cell="r9c9"]:not([data-value=""])')
    shown = page.eval_on_selector_all("[data-cell]", "els => els.map(e => Number(e.dataset.value))")
    assert shown == list(expected)


