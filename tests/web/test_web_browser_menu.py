"""The New-puzzle menu on the page: built from GET /api/generate/options, it offers only
what the server lists, and a puzzle of every variant it offers is made within the limit."""

from __future__ import annotations

import browser_kit as kit
import pytest
from browser_kit import INKALA, open_puzzle, status

from cpsudoku.web.menu import menu

pytestmark = [pytest.mark.browser, pytest.mark.process]
server, browser, shots, page = kit.server, kit.browser, kit.shots, kit.page  # fixtures

SELECTS = ("size", "variant", "difficulty", "symmetry")


def listed() -> set[tuple[str, str, str, str]]:
    """Every (size, variant, difficulty, symmetry) the endpoint lists, as the selects' values."""
    return {(str(c["size"]), c["variant"], d["difficulty"], s)
            for c in menu()["choices"] for d in c["difficulties"] for s in d["symmetries"]}


def options(page, role: str) -> list[str]:
    return page.eval_on_selector_all(f'[data-role="{role}"] option',
                                     "els => els.map(e => e.value)")


def walk_the_menu(page) -> set[tuple[str, str, str, str]]:
    """Every choice the page lets a player make, found by choosing in each select in turn."""
    seen = set()
    for size in options(page, "size"):
        page.locator('[data-role="size"]').select_option(size)
        for variant in options(page, "variant"):
            page.locator('[data-role="variant"]').select_option(variant)
            for difficulty in options(page, "difficulty"):
                page.locator('[data-role="difficulty"]').select_option(difficulty)
                seen |= {(size, variant, difficulty, s) for s in options(page, "symmetry")}
    return seen


def ready(page, server):
    open_puzzle(page, server, INKALA)
    page.wait_for_selector('[data-role="size"]:not([disabled]) option', state="attached")


def make(page, size: int, variant: str, difficulty: str = "", symmetry: str = "none") -> dict:
    """Chooses in the menu, presses New and returns /api/generate's answer."""
    for role, value in zip(SELECTS, (str(size), variant, difficulty, symmetry)):
        page.locator(f'[data-role="{role}"]').select_option(value)
    limit = menu()["time_limit"]
    with page.expect_response("**/api/generate", timeout=(limit + 10) * 1000) as reply:
        page.locator('[data-action="new"]').click()
    answer = reply.value
    assert answer.status == 200, (size, variant, difficulty, answer.text())
    page.wait_for_function("document.querySelector('[data-role=status]').textContent"
                           ".includes('loaded')")
    return answer.json()


def test_the_page_offers_exactly_what_the_server_lists(page, server):
    ready(page, server)
    served = page.request.get(f"{server}api/generate/options").json()
    assert served == menu()
    seen = walk_the_menu(page)
    assert seen <= listed(), sorted(seen - listed())  # nothing the server cannot make
    assert seen == listed(), sorted(listed() - seen)  # and everything it can
    page.locator('[data-role="size"]').select_option("9")
    assert "non-consecutive" not in options(page, "variant")  # not made in time on 9x9
    page.locator('[data-role="size"]').select_option("16")
    assert "killer" not in options(page, "variant")


def test_choosing_keeps_earlier_picks_still_on_offer(page, server):
    ready(page, server)
    assert page.locator('[data-role="size"]').input_value() == "9"
    page.locator('[data-role="variant"]').select_option("diagonal")
    page.locator('[data-role="difficulty"]').select_option("diabolical")
    assert options(page, "symmetry") == ["none", "antidiagonal"]
    page.locator('[data-role="size"]').select_option("16")
    assert page.locator('[data-role="variant"]').input_value() == "diagonal"
    assert options(page, "difficulty") == [""]  # difficulties are rated on 9x9 only
    assert "rot90" not in options(page, "symmetry")


# The cheapest size each variant is offered at, and one rated puzzle.
CHEAP = [(4, "classic", ""), (4, "diagonal", ""), (4, "anti-knight", ""), (6, "anti-king", ""),
         (4, "windoku", ""), (6, "non-consecutive", ""), (4, "jigsaw", ""), (4, "killer", ""),
         (9, "classic", "easy")]


def drawn_as(page, answer: dict, variant: str):
    """The board drawn is the puzzle made, of the variant asked for."""
    size = answer["size"]
    assert page.locator('[role="gridcell"]').count() == size * size
    rules = [r["name"] for r in answer["rules"]]
    if variant == "killer":
        assert page.locator("g.cage").count() == len(answer["elements"]["cages"]) > 0
    elif variant == "jigsaw":
        assert answer["box"] is None
    elif variant != "classic":
        assert variant in rules, rules
    listed_rules = " ".join(page.locator('[data-role="rules"] li').all_text_contents())
    assert all(name in listed_rules for name in rules)


def test_one_puzzle_of_every_variant_is_made_within_the_limit(page, server):
    ready(page, server)
    for size, variant, difficulty in CHEAP:
        assert (str(size), variant, difficulty, "none") in listed()
        answer = make(page, size, variant, difficulty)  # 200: made within the limit
        assert answer["size"] == size
        drawn_as(page, answer, variant)
        assert f"{size}x{size}" in status(page)


@pytest.mark.slow
def test_every_offered_choice_is_made_within_the_limit(page, server):
    ready(page, server)
    symmetries: dict[tuple[str, str, str], set[str]] = {}
    for size, variant, difficulty, symmetry in listed():
        symmetries.setdefault((size, variant, difficulty), set()).add(symmetry)
    kinds = sorted((int(size), variant, difficulty, "none" if "none" in sym else min(sym))
                   for (size, variant, difficulty), sym in symmetries.items())
    for size, variant, difficulty, symmetry in kinds:
        answer = make(page, size, variant, difficulty, symmetry)
        drawn_as(page, answer, variant)
