"""f-puzzles written back: every example f-puzzles can hold round-trips to the same rules;
the others are refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsudoku.errors import ModelError
from cpsudoku.formats.fpuzzles import from_fpuzzles
from cpsudoku.formats.fpuzzles_write import link, to_fpuzzles
from cpsudoku.formats.read import parse

EXAMPLES = sorted(p for p in (Path(__file__).parents[2] / "examples" / "variants").iterdir()
                  if p.suffix in (".toml", ".json"))
# Rules f-puzzles has no key or switch for.
NO_FORM = {"greater-than.toml", "lockout-lines.toml", "parity-lines.toml", "sum-lines.toml",
           "chaos.toml"}


def meaning(puzzle) -> list:
    """What a puzzle asks, whatever the rules are called: its constraints' kinds, cells
    and parameters (labels aside), and the cells' regions."""
    def key(con):
        params = {k: v for k, v in vars(con).items() if k not in ("label", "cells")}
        return con.kind, con.cells, repr(sorted(params.items()))
    return sorted(map(key, puzzle.constraints()))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_round_trips_or_is_refused_by_name(path):
    puzzle = parse(path.read_text(), source=str(path))[0]
    if path.name in NO_FORM:
        with pytest.raises(ModelError, match="f-puzzles has no form"):
            to_fpuzzles(puzzle)
        return
    back = from_fpuzzles(to_fpuzzles(puzzle, puzzle.meta.get("solution")))
    assert back.givens == puzzle.givens
    assert back.geometry.region_of == puzzle.geometry.region_of
    assert meaning(back) == meaning(puzzle)
    assert tuple(back.meta["solution"]) == tuple(puzzle.meta["solution"])
    via_link = parse(link(puzzle))[0]  # the link reads back through the shared parser
    assert meaning(via_link) == meaning(puzzle)


def test_the_meaning_check_tells_different_rules_apart():
    whispers = parse((EXAMPLES[0].parent / "whispers.toml").read_text())[0]
    dutch = parse((EXAMPLES[0].parent / "dutch-whispers.toml").read_text())[0]
    assert meaning(whispers) != meaning(dutch)
