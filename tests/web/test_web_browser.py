"""The play page in a real headless Chromium (Debian's `chromium`, driven by Playwright).

Each test saves a screenshot in $CPSUDOKU_ARTIFACTS/screenshots (default: the system's
temporary folder/cpsudoku-artifacts/screenshots).
"""

from __future__ import annotations

import subprocess
import sys
from urllib.parse import quote

import browser_kit as kit
import pytest
from browser_kit import (
    HAS_LOGIC,
    INKALA,
    KILLER,
    cell,
    has_class,
    load_pasted,
    open_puzzle,
    status,
    wait_loaded,
)

from cpsudoku import parse_one, solve

# A real Chromium against the play server (a thread here, its worker processes beside).
pytestmark = [pytest.mark.browser, pytest.mark.process]
server, browser, shots, page = kit.server, kit.browser, kit.shots, kit.page  # fixtures


def test_page_loads_a_puzzle(page, server):
    open_puzzle(page, server, INKALA)
    assert page.locator("[data-cell]").count() == 81
    assert cell(page, "r1c1").get_attribute("data-value") == "8"
    assert "given" in cell(page, "r1c1").get_attribute("class")
    assert cell(page, "r1c2").get_attribute("data-value") == ""
    assert quote(INKALA) in page.url or INKALA in page.url


def test_conflicting_digit_highlights_both_cells_and_undo_removes_it(page, server):
    open_puzzle(page, server, INKALA)
    cell(page, "r1c2").click()
    page.keyboard.press("8")  # r1c1 holds 8
    page.wait_for_selector('[data-cell="r1c2"].conflict')
    assert has_class(page, "r1c1", "conflict") and has_class(page, "r1c2", "conflict")
    assert not has_class(page, "r1c3", "conflict")
    page.locator('[data-action="undo"]').click()
    page.wait_for_selector('[data-cell="r1c2"]:not(.conflict)')
    page.wait_for_selector('[data-cell="r1c1"]:not(.conflict)')
    assert cell(page, "r1c2").get_attribute("data-value") == ""
    page.locator('[data-action="redo"]').click()
    page.wait_for_selector('[data-cell="r1c2"].conflict')


def test_pencil_marks_keyboard_and_state_across_reload(page, server):
    open_puzzle(page, server, INKALA)
    cell(page, "r1c2").click()
    page.keyboard.press("ArrowRight")  # r1c3
    page.keyboard.press("Shift+Digit4")
    page.keyboard.press("Control+Digit6")
    assert page.locator('[data-for="r1c3"] .corner text').all_text_contents() == ["4"]
    assert page.locator('[data-for="r1c3"] .centre').text_content() == "6"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowLeft")  # r2c2
    page.keyboard.press("1")
    page.reload()
    wait_loaded(page)
    assert cell(page, "r2c2").get_attribute("data-value") == "1"
    assert page.locator('[data-for="r1c3"] .corner text').all_text_contents() == ["4"]
    page.keyboard.press("Control+z")  # the history survives the reload too
    page.wait_for_selector('[data-cell="r2c2"][data-value=""]')


def test_matching_digits_highlighted(page, server):
    open_puzzle(page, server, INKALA)
    cell(page, "r1c1").click()
    eights = [i for i, v in enumerate(parse_one(INKALA).givens) if v == 8]
    assert page.locator("[data-cell].match").count() == len(eights)


@pytest.mark.skipif(not HAS_LOGIC, reason="cpsudoku.logic is not in this build: "
                                          "the hint button is disabled")
def test_hint_highlights_the_cells_it_names(page, server):
    open_puzzle(page, server, INKALA)
    with page.expect_response("**/api/hint") as reply:
        page.locator('[data-action="hint"]').click()
    step = reply.value.json()["step"]
    assert step["cells"]
    page.locator('[data-action="hint"]').click()  # the second stage: the cells themselves
    page.wait_for_selector(f'[data-cell="{step["cells"][0]}"].hint')
    for name in step["cells"]:
        assert has_class(page, name, "hint")
    assert page.locator("[data-cell].hint").count() == len(set(step["cells"]))
    assert step["technique"] in page.locator('[data-role="status"]').text_content()


@pytest.mark.skipif(HAS_LOGIC, reason="cpsudoku.logic is present: the hint button works")
def test_hint_button_disabled_without_logic(page, server):
    open_puzzle(page, server, INKALA)
    page.wait_for_selector('[data-action="hint"]:disabled')
    page.wait_for_selector('[data-action="rate"]:disabled')


def test_correct_grid_submitted_shows_success(page, server):
    solution = solve(parse_one(INKALA)).solution
    givens = list(solution)
    missing = [2, 40, 80]  # r1c3, r5c5, r9c9
    for i in missing:
        givens[i] = 0
    text = "".join(str(v) if v else "." for v in givens)
    open_puzzle(page, server, text)
    for i in missing:
        cell(page, f"r{i // 9 + 1}c{i % 9 + 1}").click()
        page.keyboard.press(str(solution[i]))
    page.locator('[data-action="submit"]').click()
    page.wait_for_function("document.querySelector('[data-role=status]').textContent"
                           ".includes('Congratulations')")
    assert "Solved in" in status(page)
    assert "good" in page.locator('[data-role="status"]').get_attribute("class")
    page.locator('[data-action="check"]').click()  # once finished, said so, not again
    page.wait_for_function("document.querySelector('[data-role=status]').textContent"
                           ".startsWith('Solved earlier')")
    # Restart after a finish: the entries go, and the puzzle can be played again.
    page.locator('[data-action="restart"]').click()
    assert "Restarted" in status(page)
    for i in missing:
        assert cell(page, f"r{i // 9 + 1}c{i % 9 + 1}").get_attribute("data-value") == ""
    cell(page, "r1c3").click()
    page.keyboard.press(str(solution[2]))
    assert cell(page, "r1c3").get_attribute("data-value") == str(solution[2])
    page.reload()
    wait_loaded(page)
    assert "Solved" not in status(page)


def test_wrong_entry_named_on_check(page, server):
    open_puzzle(page, server, INKALA)
    solution = solve(parse_one(INKALA)).solution
    cell(page, "r1c2").click()
    wrong = next(v for v in range(1, 10) if v != solution[1] and v not in (8, 7, 3, 6, 9, 5))
    page.keyboard.press(str(wrong))
    page.locator('[data-action="check"]').click()
    page.wait_for_selector('[data-cell="r1c2"].wrong, [data-cell="r1c2"].conflict')
    assert "r1c2" in page.locator('[data-role="status"]').text_content()


def test_killer_puzzle_draws_its_cages(page, server):
    open_puzzle(page, server, INKALA)
    load_pasted(page, KILLER, "Killer")
    cages = parse_one(KILLER).rules[0].elements
    assert page.locator("g.cage").count() == len(cages)
    first = page.locator('g.cage[data-cage="1"]')
    assert first.locator("text.sum").text_content() == "16"
    assert first.locator("line").count() >= 4
    style = page.evaluate("getComputedStyle(document.querySelector('g.cage line'))"
                          ".strokeDasharray")
    assert style not in ("", "none")
    assert "p=" in page.url  # the variant puzzle is in the address too, deflated
    page.reload()
    wait_loaded(page)
    assert page.locator("g.cage").count() == len(cages)


def test_solve_and_compare_backends(page, server):
    open_puzzle(page, server, INKALA)
    page.wait_for_selector('[data-role="backend"] option[value="cpsat"]', state="attached")
    # naive is not meant to finish, python-constraint may not on a loaded machine.
    page.locator('[data-role="time-limit"]').fill("5")
    page.locator('[data-action="solve"]').click()
    page.wait_for_function("document.querySelector('[data-role=status]').textContent"
                           ".includes('unique solution')", timeout=60_000)
    rows = page.locator('[data-role="compare"] tbody tr')
    shown = {rows.nth(k).get_attribute("data-backend"):
             rows.nth(k).locator("td").all_text_contents() for k in range(rows.count())}
    from cpsudoku import backends
    assert set(shown) == {n for n in backends.names() if backends.load(n).is_available()}
    for name in ("native", "cpsat"):
        assert shown[name][1] == "unique" and float(shown[name][2]) > 0, shown
    assert shown["native"][3].isdigit()
    for name in set(shown) - {"native", "cpsat"}:  # may run out of the 5 s on a busy machine
        assert shown[name][1] in ("unique", "solved", "unproven", "timeout"), shown
    page.locator('[data-action="reveal"]').click()
    page.wait_for_selector('[data-cell="r9c9"]:not([data-value=""])')


def test_the_page_benchmark_runs_and_every_solve_is_answered(bundled_data):
    done = subprocess.run([sys.executable, "-m", "cpsudoku.bench.play", "--runs", "1",
                           "--hints", "3", "--concurrent", "4", "--backends", "native",
                           "--data", str(bundled_data)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "first paint with a puzzle" in done.stdout
    assert "hint, 9x9 (/api/hint round trip)" in done.stdout
    assert "4 concurrent solves (native)" in done.stdout
    assert "statuses {'unique': 4}" in done.stdout
