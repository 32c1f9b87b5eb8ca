"""The new-puzzle menu the server offers (GET /api/generate/options): only measured
options, none of those that did not finish in time, each a body /api/generate takes."""

from __future__ import annotations

import pytest

from cpsudoku.web.menu import DIFFICULTIES, OFFERED, SYMMETRIES, VARIANTS, menu, offered
from cpsudoku.web.schemas import GenerateIn


def test_the_options_that_did_not_finish_in_time_are_not_offered():
    assert not offered(9, "non-consecutive", None, "none")
    assert not offered(16, "killer", None, "none")
    assert not offered(16, "jigsaw", None, "none")
    assert not offered(9, "killer", "easy", "rot180")
    assert offered(9, "classic", None, "none") and offered(9, "classic", "easy", "rot180")


def test_every_choice_is_a_body_generate_takes():
    shown = menu()
    assert shown["sizes"] == sorted({c["size"] for c in shown["choices"]})
    for choice in shown["choices"]:
        assert choice["variant"] in VARIANTS
        for by_difficulty in choice["difficulties"]:
            difficulty = by_difficulty["difficulty"]
            assert difficulty in ("",) + DIFFICULTIES
            assert by_difficulty["symmetries"] and set(by_difficulty["symmetries"]) <= \
                set(SYMMETRIES)
            for symmetry in by_difficulty["symmetries"]:
                GenerateIn.model_validate({"size": choice["size"], "variant": choice["variant"],
                                           "difficulty": difficulty or None,
                                           "symmetry": symmetry})


@pytest.mark.process
def test_the_endpoint_serves_the_menu():
    pytest.importorskip("httpx", reason="FastAPI's test client needs httpx")
    from fastapi.testclient import TestClient

    from cpsudoku.web import create_app
    with TestClient(create_app()) as client:
        assert client.get("/api/generate/options").json() == menu()
    assert len(OFFERED) > 10
