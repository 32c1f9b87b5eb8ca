"""The board in a real Chromium: kropki dots keep their colours in the dark scheme,
diagonals run corner to corner, Escape clears the selection, the grid is one tab stop,
a 16x16 on a phone keeps 24 px cells, the time-limit setting reaches the requests, and
the solve verdict counts only what was proved."""

from __future__ import annotations

import json

import browser_kit as kit
import pytest
from browser_kit import (
    INKALA,
    PHONE,
    ROOT,
    cell,
    css,
    load_pasted,
    luminance,
    new_page,
    open_puzzle,
)

pytestmark = [pytest.mark.browser, pytest.mark.process]
server, browser, shots, page = kit.server, kit.browser, kit.shots, kit.page  # fixtures

KROPKI = (ROOT / "examples" / "variants" / "kropki.toml").read_text()
DIAGONAL = (ROOT / "examples" / "variants" / "diagonal.toml").read_text()
SIXTEEN = (ROOT / "examples" / "sixteen.txt").read_text()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_kropki_dots_keep_their_colour_in_both_schemes(browser, server, scheme):
    tab = new_page(browser, kit.DESKTOP, scheme)
    try:
        tab.goto(server)
        load_pasted(tab, KROPKI, "Kropki")
        black = css(tab, ".kropki.black", "fill")
        white = css(tab, ".kropki.white", "fill")
        white_edge = css(tab, ".kropki.white", "stroke")
        assert luminance(black) < 0.02, black  # near-black, filled
        assert luminance(white) > 0.95, white  # white
        assert luminance(white_edge) < 0.05, white_edge  # with a dark outline
        if scheme == "dark":  # the black dot stands out from the dark paper by its rim
            paper = css(tab, ".paper", "fill")
            assert kit.contrast(css(tab, ".kropki.black", "stroke"), paper) >= 3
    finally:
        tab.context.close()


def test_diagonals_run_from_corner_to_corner(page, server):
    page.goto(server)
    load_pasted(page, DIAGONAL, "Diagonal")
    ends = page.evaluate("""() => [...document.querySelectorAll('[data-kind=diagonal] line')]
        .map(l => ['x1', 'y1', 'x2', 'y2'].map(a => Number(l.getAttribute(a))))""")
    side = page.evaluate("Number(document.querySelector('.paper').getAttribute('width'))")
    corners = {(0, 0), (side, 0), (0, side), (side, side)}
    assert len(ends) == 2
    for x1, y1, x2, y2 in ends:
        assert {(x1, y1), (x2, y2)} <= corners and x1 != x2 and y1 != y2, ends


def test_escape_clears_the_selection(page, server):
    open_puzzle(page, server, INKALA)
    cell(page, "r1c2").click()
    page.keyboard.press("Shift+ArrowRight")
    assert page.locator('[aria-selected="true"]').count() == 2
    page.keyboard.press("Escape")
    page.wait_for_function("document.querySelectorAll('[aria-selected=true]').length === 0")
    assert page.locator(".tint.selected").count() == 0
    page.keyboard.press("Digit5")  # nothing selected: nothing entered
    assert cell(page, "r1c2").get_attribute("data-value") == ""
    page.keyboard.press("ArrowRight")  # the arrows select again from where the cursor was
    assert page.locator('[aria-selected="true"]').count() == 1


def test_the_svg_is_not_a_tab_stop(page, server):
    open_puzzle(page, server, INKALA)
    # Tab from the element before the board: the next stop is a cell, not the <svg>.
    page.locator('[data-action="pause"]').focus()
    page.keyboard.press("Tab")
    focused = page.evaluate("""() => { const e = document.activeElement;
        return {tag: e.tagName.toLowerCase(),
                cell: e.dataset ? e.dataset.cell || null : null}; }""")
    assert focused["cell"] is not None, focused
    assert page.locator("#board").get_attribute("tabindex") == "-1"
    # Shift+Tab from the cell leaves the board at once.
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.closest('#board') === null")


def test_a_16x16_on_a_phone_keeps_24px_cells(browser, server, shots):
    tab = new_page(browser, PHONE, touch=True)
    try:
        tab.goto(server)
        load_pasted(tab, SIXTEEN, "16x16")
        for name in ("r1c1", "r8c8", "r16c16"):
            box = tab.locator(f'[data-cell="{name}"]').bounding_box()
            assert box["width"] >= 24 and box["height"] >= 24, (name, box)
        # The board scrolls inside its own box: the page itself does not.
        assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert tab.evaluate("document.querySelector('.board-wrap').classList.contains('scrolls')")
        tab.locator('[data-cell="r16c16"]').scroll_into_view_if_needed()
        tab.locator('[data-cell="r16c16"]').tap()
        assert tab.locator('[data-cell="r16c16"]').get_attribute("aria-selected") == "true"
        tab.screenshot(path=str(shots / "phone-16x16.png"))
    finally:
        tab.context.close()


def test_the_time_limit_setting_reaches_hint_check_and_rating(page, server):
    sent: list[dict] = []
    page.on("request", lambda r: sent.append({"url": r.url, **json.loads(r.post_data)})
            if r.method == "POST" and r.url.split("/api/")[-1] in ("hint", "check", "rate")
            else None)
    open_puzzle(page, server, INKALA)
    page.locator('[data-role="settings"] summary').click()
    page.locator('[data-setting="limit"]').fill("7")
    page.locator('[data-setting="limit"]').dispatch_event("change")
    cell(page, "r1c2").click()
    for name in ("hint", "check", "rate"):
        with page.expect_response(lambda r, n=name: r.url.endswith(f"/api/{n}")):
            page.locator(f'[data-action="{name}"]').click()
    asked = {r["url"].split("/api/")[-1]: r for r in sent if r.get("solution", True)}
    assert {asked[n]["time_limit"] for n in ("hint", "check", "rate")} == {7}, asked
    # Kept across a reload; a value the server would refuse is brought within 1..60.
    page.reload()
    kit.wait_loaded(page)
    assert page.locator('[data-setting="limit"]').input_value() == "7"
    page.locator('[data-role="settings"] summary').click()
    page.locator('[data-setting="limit"]').fill("600")
    page.locator('[data-setting="limit"]').dispatch_event("change")
    assert page.locator('[data-setting="limit"]').input_value() == "60"


def test_the_solve_verdict_counts_only_proofs(page, server):
    # Two backends side by side: native proves the solution unique; naive, plain
    # backtracking, finds it but cannot prove it unique within 2 s (or finds nothing on
    # a loaded machine). Only native counts, and naive is named with what it did.
    listed = [{"name": n, "available": True, "version": None, "description": n}
              for n in ("native", "naive")]
    page.route("**/api/backends", lambda route: route.fulfill(json=listed))
    open_puzzle(page, server, INKALA)
    page.wait_for_selector('[data-role="backend"] option[value="naive"]', state="attached")
    page.locator('[data-role="time-limit"]').fill("2")
    page.locator('[data-action="solve"]').click()
    page.wait_for_function("document.querySelector('[data-role=status]').textContent"
                           ".includes('backend(s)')", timeout=30_000)
    text = kit.status(page)
    naive = page.locator('[data-backend="naive"] td').all_text_contents()[1]
    assert naive in ("unproven", "timeout"), naive
    did = {"unproven": "found a solution but did not prove it unique in time",
           "timeout": "found nothing in time"}[naive]
    assert text == f"1 of 2 backend(s) proved: unique solution (native); naive {did}.", text
