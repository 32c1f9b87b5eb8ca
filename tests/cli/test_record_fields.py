"""Every command's jsonl records carry the same fields for the same things: which puzzle
(`index`, `source`), what happened (`status`), and the puzzle itself where a record
stands for one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku.cli import app

TUTORIAL = str(Path(__file__).parents[2] / "examples" / "tutorial.txt")
SOLVED = "".join(["812753649943682175675491283154237896369845721287169534521974368",
                  "438526917796318452"])

COMMANDS = {
    "solve": (["solve", TUTORIAL], {"solved"}),
    "count": (["count", TUTORIAL], {"unique"}),
    "check": (["check", SOLVED], {"valid"}),
    "rate": (["rate", TUTORIAL], {"rated"}),
    "explain -f json": (["explain", TUTORIAL], {"solved"}),
    "hint": (["hint", TUTORIAL], {"step"}),
    "generate": (["generate", "-c", "1", "--seed", "1"], {"generated"}),
}


@pytest.mark.parametrize("name", COMMANDS)
def test_each_record_says_which_puzzle_and_what_happened(name):
    args, statuses = COMMANDS[name]
    fmt = "json" if name.endswith("json") else "jsonl"
    result = CliRunner().invoke(app, [*args, "-f", fmt])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout.splitlines()[0] if fmt == "jsonl" else result.stdout)
    assert {"index", "source", "status", "puzzle"} <= set(record), sorted(record)
    assert record["index"] == 0 and record["source"]
    assert record["status"] in statuses
    assert len(record["puzzle"]) == 81


def test_explain_steps_say_which_puzzle_they_belong_to():
    result = CliRunner().invoke(app, ["explain", TUTORIAL, "-f", "jsonl"])
    steps = [json.loads(line) for line in result.stdout.splitlines()]
    assert steps and all(s["index"] == 0 and s["source"].startswith(TUTORIAL) for s in steps)
