"""The cap on one puzzle's document: a TOML file, a JSON object (one of JSON lines, or an
item of a JSON list), a link or an ISS string longer than MAX_DOCUMENT characters is
refused at once, naming the limit; a file of many puzzles is not capped as a whole."""

from __future__ import annotations

import json
import time

import pytest

from cpsudoku import parse
from cpsudoku.errors import ParseError
from cpsudoku.formats.safeload import MAX_DOCUMENT, check_bounds

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
PADDING = "[0, 1, 0],\n" * (MAX_DOCUMENT // 10)  # a little over the cap


def refused(text: str, match: str) -> ParseError:
    started = time.monotonic()
    with pytest.raises(ParseError, match=match) as info:
        parse(text, source="big")
    assert time.monotonic() - started < 2
    assert "\n" not in str(info.value)
    assert f"longer than {MAX_DOCUMENT} characters" in str(info.value)
    return info.value


def test_a_toml_document_past_the_cap_is_refused_before_reading():
    text = f'grid = "{INKALA}"\n[[automata]]\ncells = ["r1c1"]\ntransitions = [\n{PADDING}]\n'
    error = refused(text, r"^big: the TOML document \(\d+ characters\)")
    assert error.source == "big"


def test_a_json_object_past_the_cap_is_refused_naming_its_line():
    automaton = {"cells": ["r1c1"], "transitions": [[0, 1, 0]] * 120_000}
    text = json.dumps({"grid": INKALA}) + "\n" + json.dumps({"grid": INKALA,
                                                              "automata": [automaton]})
    error = refused(text, r"^big:2: the JSON document here")
    assert error.line == 2


def test_an_item_of_a_json_list_past_the_cap_is_refused():
    relation = {"cells": ["r1c1", "r1c2"], "pairs": [[1, 2]] * 150_000}
    item = {"grid": INKALA, "relations": [relation]}
    refused(json.dumps([{"grid": INKALA}, item]), "the JSON document here")


def test_a_link_past_the_cap_is_refused_unpacked():
    refused("https://f-puzzles.com/?load=" + "A" * (MAX_DOCUMENT + 1), "the link's puzzle")


def test_many_small_documents_make_no_big_one():
    record = json.dumps({"grid": INKALA, "name": "x" * 200})
    many = "\n".join([record] * (MAX_DOCUMENT // len(record) + 50))
    assert len(many) > MAX_DOCUMENT
    check_bounds(many, "lines")  # JSON lines: each its own document
    check_bounds("[" + ",".join([record] * (MAX_DOCUMENT // len(record) + 50)) + "]", "list")
    assert len(parse("\n".join([record] * 20), source="few")) == 20


def test_a_big_file_of_one_puzzle_a_line_is_not_capped():
    lines = "\n".join([INKALA] * (MAX_DOCUMENT // len(INKALA) + 10))
    assert len(lines) > MAX_DOCUMENT
    assert len(parse(lines, source="lines")) == MAX_DOCUMENT // len(INKALA) + 10
