"""The play page's JSON API through FastAPI's test client: every endpoint and error path.

Every test here starts processes: the app's worker pool (which the test client's
start-up warms), the play command, or a worker pool of its own."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the play server needs fastapi (pip install fastapi)")
pytest.importorskip("httpx", reason="FastAPI's test client needs httpx (pip install httpx)")

from fastapi.testclient import TestClient  # noqa: E402

from cpsudoku import parse_one, solve  # noqa: E402
from cpsudoku.web import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
INKALA = (ROOT / "examples" / "inkala.txt").read_text().strip().splitlines()[-1]
KILLER = (ROOT / "examples" / "variants" / "killer.toml").read_text()
FPUZZLES = (ROOT / "examples" / "variants" / "fpuzzles-mixed.json").read_text()
# A small f-puzzles link (an LZString-compressed f-puzzles file).
TINY_LINK = ("N4IgzglgXgpiBcAWANCALhNAbO8QBUIA7ATxFQHMAnCAEwQG0HQA3AQywFdcBGSiFjCII0V"
             "bgF9kwSdKniAusmYyVcxcrmbp62bpXzFIWhDYUA9kQ4BaEWJioA1hCw4qAY1O5mINzBdhGEAAlHgBhA"
             "CZyYLCAZhBDdi5cEABWEAVxIA=")
HAS_LOGIC = importlib.util.find_spec("cpsudoku.logic") is not None
HAS_GENERATOR = importlib.util.find_spec("cpsudoku.generator") is not None

pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def solution_of(text: str) -> list[int]:
    return list(solve(parse_one(text)).solution)


def test_page_and_static_files(client):
    page = client.get("/")
    assert page.status_code == 200 and 'data-role="status"' in page.text
    for name in ("main.js", "board.js", "game.js", "api.js", "style.css", "icon.svg"):
        assert client.get(f"/static/{name}").status_code == 200, name


def test_openapi_lists_every_endpoint(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/solve", "/api/parse", "/api/check", "/api/hint", "/api/rate",
                 "/api/generate", "/api/backends", "/api/features"):
        assert path in paths


def test_backends_and_features(client):
    listed = {b["name"]: b for b in client.get("/api/backends").json()}
    assert listed["native"]["available"] is True and listed["native"]["version"]
    assert set(listed) >= {"native", "naive", "python-constraint", "cpsat"}
    features = client.get("/api/features").json()
    assert features == {"hint": HAS_LOGIC, "rate": HAS_LOGIC, "generate": HAS_GENERATOR}


@pytest.mark.parametrize("backend", ["native", "cpsat", "python-constraint"])
def test_solve_returns_the_jsonl_object(client, backend):
    answer = client.post("/api/solve", json={"puzzle": INKALA, "backend": backend,
                                             "max_solutions": 2, "time_limit": 20})
    assert answer.status_code == 200
    got = answer.json()
    expected = solve(parse_one(INKALA, source="puzzle"), backend, max_solutions=2).as_dict()
    assert set(got) == set(expected) | {"puzzle_digest"}
    for key in ("status", "solutions", "backend", "puzzle"):
        assert got[key] == expected[key]
    assert got["status"] == "unique" and got["stats"]["timed_out"] is False


def test_solve_unsolvable_givens_say_why(client):
    bad = "11" + INKALA[2:]
    got = client.post("/api/solve", json={"puzzle": bad}).json()
    assert got["status"] == "unsolvable" and "r1c1" in got["reason"]


@pytest.mark.timing
def test_solve_time_limit_is_honoured(client):
    empty16 = "." * 256
    got = client.post("/api/solve", json={"puzzle": empty16, "backend": "naive",
                                          "max_solutions": 1000, "time_limit": 0.2}).json()
    assert got["status"] in ("timeout", "multiple")


@pytest.mark.parametrize("body, status, words", [
    ({"puzzle": "12x4"}, 422, "puzzle"),
    ({"puzzle": INKALA, "backend": "nope"}, 400, "unknown backend 'nope'"),
    ({"puzzle": INKALA, "time_limit": 0}, 422, "time_limit"),
    ({"puzzle": INKALA, "time_limit": 1000}, 422, "time_limit"),
    ({"puzzle": INKALA, "max_solutions": 0}, 422, "max_solutions"),
    ({"puzzle": INKALA, "rules": "diag"}, 422, "unknown rule 'diag'"),
    ({"puzzle": INKALA, "colour": "red"}, 422, "colour"),
    ({}, 422, "puzzle"),
    ({"puzzle": INKALA, "box": "2x2"}, 422, "expected 16 for a 4x4 grid"),
    ({"puzzle": (ROOT / "examples" / "variants" / "doppelganger.toml").read_text()}, 400,
     "the play page draws the grid's cells only, not cells outside it (DGR1 ...)"),
    ({"puzzle": (ROOT / "examples" / "variants" / "jigsaw-4x7.toml").read_text()}, 400,
     "the play page draws square grids, not 4x7"),
])
def test_solve_bad_input_is_one_line_4xx(client, body, status, words):
    answer = client.post("/api/solve", json=body)
    assert answer.status_code == status, answer.text
    message = answer.json()["error"]
    assert words in message and "\n" not in message and "Traceback" not in message


def test_error_message_is_the_clis(client):
    from typer.testing import CliRunner

    from cpsudoku.cli import app
    cli = CliRunner().invoke(app, ["solve", "--backend", "nope", INKALA])
    api = client.post("/api/solve", json={"puzzle": INKALA, "backend": "nope"}).json()
    assert cli.exit_code == api["exit_code"] == 6
    assert f"cpsudoku: error: {api['error']}" in cli.output


def test_malformed_json_and_wrong_types(client):
    answer = client.post("/api/solve", content=b"{not json",
                         headers={"content-type": "application/json"})
    assert answer.status_code == 422 and answer.json()["error"]
    answer = client.post("/api/solve", json={"puzzle": 5})
    assert answer.status_code == 422 and "puzzle" in answer.json()["error"]
    assert client.post("/api/solve", json=[1, 2]).status_code == 422


def test_request_body_is_capped(client):
    answer = client.post("/api/parse", content=b"x" * 1_100_000,
                         headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "larger than" in answer.json()["error"]


def test_unknown_route_and_method(client):
    assert client.get("/api/nothing").status_code == 404
    wrong = client.get("/api/solve")
    assert wrong.status_code == 405 and wrong.headers["allow"] == "POST"
    assert "error" in wrong.json() and "error" in client.get("/api/nothing").json()


@pytest.mark.parametrize("path, body", [
    ("/api/solve", {"puzzle": INKALA}),
    ("/api/parse", {"puzzle": INKALA}),
    ("/api/check", {"puzzle": INKALA, "solution": True}),
    ("/api/parse", {"puzzle": "12x4"}),  # an error answer is tagged too
])
def test_answers_carry_the_request_id_and_puzzle_digest(client, path, body):
    got = client.post(path, json={**body, "request_id": "page-7"}).json()
    assert got["request_id"] == "page-7"
    assert got["puzzle_digest"] == hashlib.sha256(body["puzzle"].encode()).hexdigest()


def test_openapi_documents_the_error_answers(client):
    spec = client.get("/openapi.json").json()
    for path in ("/api/solve", "/api/parse", "/api/check", "/api/hint", "/api/rate",
                 "/api/generate"):
        responses = spec["paths"][path]["post"]["responses"]
        assert {"400", "422", "501"} <= set(responses), path
        schema = responses["400"]["content"]["application/json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/ErrorOut"}
    assert "error" in spec["components"]["schemas"]["ErrorOut"]["required"]


def test_parse_classic(client):
    got = client.post("/api/parse", json={"puzzle": INKALA}).json()
    assert got["size"] == 9 and got["box"] == [3, 3] and len(got["regions"]) == 81
    assert got["givens"][0] == 8 and got["text"] == got["line"]
    assert got["rules"] == [] and got["elements"] == {}


def test_parse_killer_gives_cages_and_reloadable_text(client):
    got = client.post("/api/parse", json={"puzzle": KILLER}).json()
    cages = got["elements"]["cages"]
    assert cages[0] == {"sum": 16, "cells": ["r7c1", "r6c1", "r7c2", "r6c2"]}
    again = client.post("/api/parse", json={"puzzle": got["text"]}).json()
    assert again["elements"] == got["elements"] and again["givens"] == got["givens"]


def test_parse_global_rules_are_drawable(client):
    got = client.post("/api/parse", json={"puzzle": INKALA, "rules": "diagonal,windoku"}).json()
    assert [r["name"] for r in got["rules"]] == ["diagonal", "windoku"]
    assert len(got["lines"]) == 2 and got["lines"][0][0] == "r1c1"
    assert len(got["shaded"]) == 4 and "r2c2" in got["shaded"][0]


def test_parse_fpuzzles_file_and_link(client):
    from cpsudoku.formats.lzstring import decompress_from_base64
    got = client.post("/api/parse", json={"puzzle": FPUZZLES}).json()
    assert got["elements"]["cages"] and got["elements"]["thermometers"]
    link = "https://f-puzzles.com/?load=" + TINY_LINK
    by_link = client.post("/api/parse", json={"puzzle": link}).json()
    unpacked = json.loads(decompress_from_base64(TINY_LINK))
    assert by_link["size"] == unpacked["size"]
    again = client.post("/api/parse", json={"puzzle": by_link["text"]}).json()
    assert {**again, "puzzle_digest": None} == {**by_link, "puzzle_digest": None}


def test_parse_jigsaw_regions(client):
    text = (ROOT / "examples" / "variants" / "jigsaw.toml").read_text()
    got = client.post("/api/parse", json={"puzzle": text}).json()
    assert got["box"] is None and sorted(set(got["regions"])) == list(range(9))


@pytest.mark.parametrize("text", ["", "#only a comment", "1234", "12345", "[[1, 2], [3]]"])
def test_parse_bad_input(client, text):
    answer = client.post("/api/parse", json={"puzzle": text})
    assert answer.status_code == 422 and answer.json()["exit_code"] == 5


def test_check_conflicts_wrong_and_solved(client):
    solution = solution_of(INKALA)
    givens = parse_one(INKALA).givens
    grid = list(givens)
    empty = [i for i, v in enumerate(givens) if not v]
    a = empty[0]
    grid[a] = givens[next(i for i in range(9) if givens[i])]  # r1c1's 8 again in row 1
    got = client.post("/api/check", json={"puzzle": INKALA, "grid": grid}).json()
    assert got["conflicts"] and "r1c1" in got["conflicts"][0]["cells"]
    assert got["complete"] is False and got["solved"] is False

    grid = list(givens)
    b = empty[5]
    grid[b] = solution[b] % 9 + 1  # wrong, perhaps without any conflict
    got = client.post("/api/check", json={"puzzle": INKALA, "grid": grid, "solution": True}).json()
    assert got["status"] == "unique" and got["wrong"] == [f"r{b // 9 + 1}c{b % 9 + 1}"]

    got = client.post("/api/check", json={"puzzle": INKALA, "grid": solution}).json()
    assert got == {"conflicts": [], "complete": True, "solved": True,
                   "puzzle_digest": hashlib.sha256(INKALA.encode()).hexdigest()}


def test_check_candidates(client):
    got = client.post("/api/check", json={"puzzle": INKALA, "candidates": True}).json()
    cands = got["candidates"]
    assert cands[0] == [] and 8 not in cands[1] and all(1 <= v <= 9 for c in cands for v in c)
    solution = solution_of(INKALA)
    assert all(solution[i] in c for i, c in enumerate(cands) if c)


def test_check_candidates_follow_parity(client):
    text = (ROOT / "examples" / "variants" / "even-odd.toml").read_text()
    parsed = client.post("/api/parse", json={"puzzle": text}).json()
    got = client.post("/api/check", json={"puzzle": text, "candidates": True}).json()
    odd = parsed["elements"]["odd"][0]
    r, c = (int(x) for x in odd[1:].split("c"))
    cell = got["candidates"][(r - 1) * 9 + c - 1]
    assert all(v % 2 == 1 for v in cell)


@pytest.mark.parametrize("grid, words", [
    ([0] * 80, "80 values"),
    ([10] + [0] * 80, "outside 0..9"),
    ([1] + [0] * 80, "changes the given 8 at r1c1"),
    ([-1] + [0] * 80, "outside 0..9"),
])
def test_check_bad_grid(client, grid, words):
    answer = client.post("/api/check", json={"puzzle": INKALA, "grid": grid})
    assert answer.status_code == 400 and words in answer.json()["error"]


needs_logic = pytest.mark.skipif(not HAS_LOGIC, reason="cpsudoku.logic is not in this build: "
                                                       "/api/hint and /api/rate answer 501")
needs_generator = pytest.mark.skipif(not HAS_GENERATOR, reason="cpsudoku.generator is not in "
                                                               "this build: /api/generate "
                                                               "answers 501")


@pytest.mark.skipif(HAS_LOGIC and HAS_GENERATOR, reason="every optional package is present")
def test_absent_features_answer_501(client):
    for path, present, body in [("/api/hint", HAS_LOGIC, {"puzzle": INKALA}),
                                ("/api/rate", HAS_LOGIC, {"puzzle": INKALA}),
                                ("/api/generate", HAS_GENERATOR, {})]:
        if not present:
            answer = client.post(path, json=body)
            assert answer.status_code == 501 and "not installed" in answer.json()["error"]


@needs_logic
def test_hint_names_a_step_and_wrong_cells(client):
    got = client.post("/api/hint", json={"puzzle": INKALA}).json()
    step = got["step"]
    assert step["technique"] and step["text"] and step["cells"]
    assert step["placements"] or step["eliminations"]
    assert got["wrong"] == []
    solution = solution_of(INKALA)
    grid = list(parse_one(INKALA).givens)
    b = grid.index(0)
    grid[b] = solution[b] % 9 + 1
    got = client.post("/api/hint", json={"puzzle": INKALA, "grid": grid}).json()
    assert f"r{b // 9 + 1}c{b % 9 + 1}" in got["wrong"]


@needs_logic
def test_rate(client):
    # Singles only: rated in milliseconds.
    easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    got = client.post("/api/rate", json={"puzzle": easy}).json()
    assert 1.0 <= got["ep"] <= got["er"] <= 2.3 and got["level"] == "easy"


@needs_logic
@pytest.mark.slow
def test_rate_inkala(client):
    got = client.post("/api/rate", json={"puzzle": INKALA, "time_limit": 60}).json()
    assert got["er"] >= got["ep"] > 0 and got["level"]


@needs_logic
def test_rate_past_its_time_limit_is_a_timeout(client):
    answer = client.post("/api/rate", json={"puzzle": INKALA, "time_limit": 0.5})
    assert answer.status_code == 422 and answer.json()["exit_code"] == 4
    assert "time limit" in answer.json()["error"]


@needs_logic
def test_hint_bad_input(client):
    assert client.post("/api/hint", json={"puzzle": "12"}).status_code == 422


@needs_generator
@pytest.mark.parametrize("variant", ["classic", "killer", "diagonal"])
def test_generate(client, variant):
    got = client.post("/api/generate", json={"size": 4 if variant != "killer" else 6,
                                             "variant": variant, "seed": 7}).json()
    assert got["seed"] == 7 and got["text"]
    answer = client.post("/api/solve", json={"puzzle": got["text"], "max_solutions": 2}).json()
    assert answer["status"] == "unique"
    if variant == "killer":
        assert got["elements"]["cages"]


@needs_generator
def test_generate_bad_variant(client):
    answer = client.post("/api/generate", json={"variant": "nonsense"})
    assert answer.status_code == 422 and "nonsense" in answer.json()["error"]


def test_play_command_serves_on_a_free_local_port():
    proc = subprocess.Popen([sys.executable, "-m", "cpsudoku", "play"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = proc.stdout.readline()
        assert "http://127.0.0.1:" in line
        url = line.split("serving on ")[1].split()[0]
        with urllib.request.urlopen(url + "api/features", timeout=10) as reply:
            assert json.loads(reply.read()) == {"hint": HAS_LOGIC, "rate": HAS_LOGIC,
                                                "generate": HAS_GENERATOR}
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)


def test_play_command_bad_host_is_one_line():
    command = [sys.executable, "-m", "cpsudoku", "play", "--host", "no.such.host.invalid"]
    done = subprocess.run(command,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("cpsudoku: error: --host") and "Traceback" not in done.stderr


def test_a_dead_worker_is_replaced():
    import asyncio

    from cpsudoku.web.schemas import SolveIn
    from cpsudoku.web.workers import JobError, Workers
    work = Workers(quick=1, heavy=1)
    work.start()
    try:
        before = work.quick.pids()
        body = SolveIn(puzzle=INKALA)
        os.kill(before[0], signal.SIGKILL)  # as if killed from outside, or out of memory
        with pytest.raises(JobError) as died:
            asyncio.run(work.process("solve", body, 10))
        assert died.value.status == 503
        assert work.quick.pids() != before
        assert asyncio.run(work.process("solve", body, 10))["status"] == "solved"
    finally:
        work.close()


def test_parse_raw_grid_says_it_has_no_houses(client):
    text = 'size = 4\nhouses = false\ngrid = "11.. .... .... ...."\n'
    got = client.post("/api/parse", json={"puzzle": text}).json()
    assert got["houses"] is False and got["box"] is None and set(got["regions"]) == {0}
    again = client.post("/api/parse", json={"puzzle": got["text"]}).json()
    assert again["houses"] is False and again["givens"][:2] == [1, 1]
    assert client.post("/api/parse", json={"puzzle": INKALA}).json()["houses"] is True
