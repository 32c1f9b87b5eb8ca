"""The bounds on what a puzzle's regular expressions and automata may expand to: each
refused at once with one line naming the limit, and the repository's patterns and
automata well within them."""

from __future__ import annotations

import time

import pytest

from cpsudoku.errors import ModelError
from cpsudoku.grid.automaton import MAX_GIVEN_SIZE, MAX_GIVEN_TRANSITIONS, given_size_problem
from cpsudoku.grid.geometry import boxed
from cpsudoku.rules import regex
from cpsudoku.rules.custom import Automata, AutomatonLine


def refused(pattern: str, match: str) -> str:
    started = time.monotonic()
    with pytest.raises(ModelError, match=match) as info:
        regex.compile_pattern(pattern, 9, "regex line 1")
    assert time.monotonic() - started < 3  # refused, not built
    assert "\n" not in str(info.value) and str(info.value).startswith("regex line 1: ")
    return str(info.value)


def test_expansion_past_the_state_limit_is_refused_before_building():
    message = refused("((.{0,64}){0,64}){0,64}", "expands to 540932 states")
    assert f"more than the {regex.MAX_STATES} a pattern may expand to" in message
    refused("(.{0,64}){0,64}", "expands to 8452 states")


def test_the_expanded_states_are_those_the_construction_makes():
    for pattern in ("1", "12|3", "(13|24)+.?", "[1-4]+[5-9]+", "(.{0,5}){2,3}", "1*2?3{4}"):
        nfa = regex._Thompson()
        nfa.build(regex.parse(pattern, 9))
        assert regex.expanded_states(regex.parse(pattern, 9)) == len(nfa.empty)


def test_repetition_nests_at_most_three_deep():
    refused("((((1)*)*)*)*", r"repetition nested 4 deep, more than the 3 a pattern may nest")
    assert regex.compile_pattern("((1(23)*)+4)*", 9).accepts((1, 4, 1, 2, 3, 4))


def test_groups_nest_at_most_32_deep():
    refused("(" * 40 + "1" + ")" * 40, "groups nested more than 32 deep at column 33")
    assert regex.compile_pattern("(" * 32 + "1" + ")" * 32, 9).accepts((1,))


def test_an_automaton_of_too_many_transitions_from_a_pattern_is_refused():
    refused(".*" * 500, f"more than {MAX_GIVEN_TRANSITIONS} transitions")


def test_the_repository_patterns_stay_well_within():
    for pattern in ("([^1-3][47][69]|[47]123[69])*", "([^147].[0235].[035]|[023]..4..[235])*.?",
                    "(12|2.3|3..4|4...5|5....6).*", "(13|24|57|68)+.?", "[^5]*5[^5]*"):
        digits = range(0, 9) if "0" in pattern else 9
        assert regex.expanded_states(regex.parse(pattern, digits)) < regex.MAX_STATES // 50


def test_given_automaton_size_limits():
    assert given_size_problem(55, 339) is None  # the largest of the ISS examples
    assert "810000 transitions, more than the 100000" in given_size_problem(300, 810_000)
    wide = given_size_problem(300, 40_000)
    assert f"= 12000000, more than the {MAX_GIVEN_SIZE}" in wide
    assert "(states x transitions)" in wide


def validated(transitions) -> None:
    from cpsudoku.formats.custom_elements import rules
    for rule in rules({"automata": [{"cells": ["r1c1", "r1c2", "r1c3"], "start": 0,
                                     "accepting": [0], "transitions": transitions}]}, 9):
        rule.validate(boxed(9))


def test_an_automaton_given_as_data_past_the_limits_is_refused():
    dense = ((s, v, t) for s in range(300) for v in range(1, 10) for t in range(300))
    rule = Automata((AutomatonLine(((1, 1), (1, 2), (1, 3)), (0,), (0,), tuple(dense)),))
    with pytest.raises(ModelError, match="810000 transitions, more than the 100000"):
        rule.validate(boxed(9))
    # 300 states and 40,500 transitions: each within its own limit, too many together
    wide = [[s, v, t] for s in range(300) for v in range(1, 10) for t in range(0, 300, 20)]
    with pytest.raises(ModelError, match=r"300 states x 40500 transitions = 12150000"):
        validated(wide)
    validated(wide[:30_000])  # 9,000,000: within


def test_the_file_reader_refuses_a_long_transition_list_unread():
    from cpsudoku.formats.custom_elements import rules
    listed = [[0, 1, 0]] * (MAX_GIVEN_TRANSITIONS + 1)
    started = time.monotonic()
    with pytest.raises(ModelError, match="automaton 1: 100001 transitions, more than"):
        rules({"automata": [{"cells": ["r1c1"], "transitions": listed}]}, 9)
    assert time.monotonic() - started < 1
