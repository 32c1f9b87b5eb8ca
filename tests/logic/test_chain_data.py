"""Chain steps carry their chains: from each assumption to the conclusion, as data."""

from __future__ import annotations

import json
import re

import pytest

from cpsudoku.logic import explain, hint
from cpsudoku.logic.chain import chain_lines

# SE rates it 8.9 (calibration set): Nishio, region, cell and contradiction chains
CHAINS = "2..81...5..7..63......3...8.54...7..3..4....6..6.....29....8.2......9..7.1..5...3"
# SE 7.1: a bidirectional cycle and forcing chains
CYCLES = ".897.5.6.6.7.9.........27.97.........9..74.32.43.18..6.68..9...4.53276..97...6.53"
LITERAL = re.compile(r"^r\d+c\d+(=|<>)\d+$")


@pytest.fixture(scope="module")
def chain_steps():
    steps = explain(CHAINS).steps + explain(CYCLES).steps
    return [s for s in steps if "Chain" in s.technique or "Cycle" in s.technique
            or s.technique == "W-Wing"]


def _opposite(a: str, b: str) -> bool:
    return a.replace("<>", "=") == b.replace("<>", "=") and a != b


def test_every_chain_step_carries_its_chains(chain_steps):
    kinds = {s.technique for s in chain_steps}
    assert {"Nishio Forcing Chain", "Cell Forcing Chains", "Region Forcing Chains",
            "Contradiction Forcing Chain", "Forcing Chain", "Bidirectional Cycle"} <= kinds
    for step in chain_steps:
        assert step.chain, step.text
        for branch in step.as_dict()["chain"]:
            names = branch["text"].split(" -> ")
            assert all(LITERAL.match(n) for n in names), branch["text"]
            # the main line is made of links, and every link joins two literals
            assert set(zip(names, names[1:])) <= {tuple(x) for x in branch["links"]}
            assert all(len(x) == 2 and all(LITERAL.match(n) for n in x)
                       for x in branch["links"])
            assert branch["nested"] == []


def test_branches_end_where_the_step_says(chain_steps):
    for step in chain_steps:
        d = step.as_dict()
        ends = [b["text"].split(" -> ")[-1] for b in d["chain"]]
        starts = [b["text"].split(" -> ")[0] for b in d["chain"]]
        if step.technique in ("Contradiction Forcing Chain", "Nishio Forcing Chain"):
            # both branches start from the assumption and end on one literal, on and off
            assert len(d["chain"]) == 2 and starts[0] == starts[1]
            assert _opposite(ends[0], ends[1])
            result = (d["placements"] + d["eliminations"])[0]
            assert _opposite(starts[0], result)
        elif "Cell Forcing" in step.technique or "Region Forcing" in step.technique:
            result = (d["placements"] + d["eliminations"])[0]
            assert len(d["chain"]) >= 2 and set(ends) == {result}
            cells = {s.split("=")[0] for s in starts}
            values = {s.split("=")[1] for s in starts}
            # every candidate of one cell, or every place of one value
            assert len(cells) == 1 or len(values) == 1
        elif step.technique == "Bidirectional Cycle":
            assert starts[0] == ends[0]


def test_the_chain_is_in_json_and_in_the_pretty_lines(chain_steps):
    step = next(s for s in chain_steps if s.technique == "Region Forcing Chains")
    d = json.loads(json.dumps(step.as_dict()))
    assert [b["text"] for b in d["chain"]] == chain_lines(step.chain)
    assert chain_lines(step.chain, "  ")[0].startswith("  r")


def test_explain_and_hint_print_the_chains():
    from typer.testing import CliRunner

    from cpsudoku.cli import app
    from cpsudoku.logic.api import Solver
    from cpsudoku.logic.solver import apply

    out = CliRunner().invoke(app, ["explain", CYCLES]).output
    cycle = next(s for s in explain(CYCLES).steps if s.technique == "Bidirectional Cycle")
    assert f"          {cycle.chain[0].text}\n" in out
    # the hint from the grid just before the cycle shows it with its chain
    solver = Solver(CYCLES)
    state = solver.start()
    for step in explain(CYCLES).steps:
        if step.technique == "Bidirectional Cycle":
            break
        apply(state, step)
    marks = " ".join("".join(str(v) for v in range(1, 10) if m >> (v - 1) & 1) or str(val)
                     for m, val in zip(state.cand, state.values))
    got = hint(CYCLES, state=marks).step
    assert got.technique == "Bidirectional Cycle" and got.chain
    out = CliRunner().invoke(app, ["hint", CYCLES, "--state", marks]).output
    assert f"    {got.chain[0].text}\n" in out


def test_steps_without_chains_have_an_empty_list():
    step = explain(CYCLES).steps[0]
    assert step.as_dict()["chain"] == []
