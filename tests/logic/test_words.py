"""Steps in plain words: what the play page's hints and explain's pretty output say."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from cpsudoku import parse_one
from cpsudoku.cli import app
from cpsudoku.logic import explain
from cpsudoku.logic.step import cell_name
from cpsudoku.logic.words import describe, digits, plain, result, where

TUTORIAL = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


# Two of Norvig's top95 (tests/data): subsets, wings and fish; chains and contradictions.
SUBSETS = "....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8..."
CHAINS = "6..3.2....5.....1..........7.26............543.........8.15........4.2........7.."


@pytest.fixture(scope="module")
def hard_steps():
    return explain(parse_one(SUBSETS)).steps + explain(parse_one(CHAINS)).steps


def test_a_hidden_single_says_where_and_what():
    step = explain(parse_one(TUTORIAL)).steps[0]
    assert step.technique == "Hidden Single"
    (cell, value), = step.placements
    box = step.groups[0]
    assert where(step) == f"Hidden Single: look at {box}."
    assert plain(step) == f"Look at {box}: {value} can only go in {cell_name(cell, 9)}."
    assert result(step) == f"Place {value} in {cell_name(cell, 9)}."


def test_every_step_of_a_hard_puzzle_in_words(hard_steps):
    techniques = {s.technique for s in hard_steps}
    assert len(techniques) >= 10, techniques
    for step in hard_steps:
        words = describe(step)
        assert words["title"] == step.technique
        # The name once, as the title: never repeated inside the sentences.
        for key in ("where", "plain", "result", "notation"):
            assert words[key].count(step.technique) <= (1 if key == "where" else 0), words
        for cell, _ in step.eliminations:
            assert cell_name(cell, 9) in words["result"], words
            assert "remove" in words["result"].lower()
        for cell, value in step.placements:
            assert f"place {value} in {cell_name(cell, 9)}" in words["result"].lower()
        assert words["digits"], words
        assert words["plain"].endswith("."), words


def test_a_chain_is_followed_link_by_link(hard_steps):
    chained = [s for s in hard_steps if " -> " in s.text]
    assert chained
    for step in chained:
        first = re.search(r": (\S+?) -> ", step.text).group(1)
        assert where(step) == f"{step.technique}: start from {first}."
        assert plain(step).startswith(f"Follow the chain {first} -> ")


def test_a_forcing_chain_is_named_once(hard_steps):
    forcing = [s for s in hard_steps if "leads to a contradiction" in s.text]
    assert forcing
    words = describe(forcing[0])
    assert words["plain"].startswith("Suppose r") and "breaks a rule" in words["plain"]


def test_digits_of_a_subset_are_its_values(hard_steps):
    pair = next(s for s in hard_steps if s.technique == "Naked Pair")
    named = re.search(r": ([\d,]+) in ", pair.text).group(1)
    assert digits(pair) == sorted(int(d) for d in named.split(","))


def test_explain_pretty_prints_the_same_words():
    done = CliRunner().invoke(app, ["explain", TUTORIAL])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    first = explain(parse_one(TUTORIAL)).steps[0]
    at = lines.index(f"   1. [{first.rating:.1f}] {first.text}")
    assert lines[at + 1].strip() == plain(first)
