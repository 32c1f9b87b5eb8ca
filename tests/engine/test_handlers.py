"""Each constraint kind's handler in the variant kernel, alone on a small hand-made state:
a kernel of one constraint, no units and no peers, propagated once (`propagate`), says
what that handler's pass makes of the domains given."""

from __future__ import annotations

import pytest

from cpsudoku.engine import vkernel

pytestmark = [pytest.mark.unit,
              pytest.mark.skipif(not vkernel.available(), reason="the variant kernel is not built")]

N = 4  # values 1..4


def mask(values) -> int:
    return sum(1 << (v - 1) for v in set(values))


def values(m: int) -> set[int]:
    return {v for v in range(1, 33) if m >> (v - 1) & 1}


def propagated(constraint, domains, n: int = N):
    """The domains (as sets) after the one constraint's handler has run to its fixpoint,
    or None when it fails; cells beyond those given hold every value."""
    cells = max(n, len(domains))
    kernel = vkernel._vkernel.VKernel(n, [], [[] for _ in range(cells)], [], [constraint],
                                      nvars=cells)
    start = [mask(d) for d in domains] + [(1 << n) - 1] * (cells - len(domains))
    out, events, failure = kernel.propagate(start)
    if out is None:
        assert failure[:2] == (3, 0)  # the constraint, the only one, failed
        return None
    return [values(m) for m in out[:len(domains)]]


def kinds():
    return vkernel._vkernel


ALL = set(range(1, N + 1))


def test_each_kind_has_its_constant():
    names = ["SUM", "CAGE", "LESS", "TABLE", "REGULAR", "COUNT", "REGIONS", "RUNS", "RANKS",
             "OR", "SAME", "SANDWICH", "SAME_COUNT"]
    assert [getattr(kinds(), name) for name in names] == list(range(len(names)))


def test_a_sum_keeps_the_values_that_reach_its_total():
    sum_ = (kinds().SUM, (0, 1), (1, 1), 7)
    assert propagated(sum_, [ALL, ALL]) == [{3, 4}, {3, 4}]
    assert propagated(sum_, [{1, 2}, ALL]) is None


def test_a_sum_s_group_of_cells_that_differ_takes_only_value_sets():
    alone = (kinds().SUM, (0, 1), (1, 1), 4)
    grouped = (kinds().SUM, (0, 1), (1, 1, 1, 2), 4)  # one group of both cells
    assert propagated(alone, [ALL, ALL]) == [{1, 2, 3}, {1, 2, 3}]
    assert propagated(grouped, [ALL, ALL]) == [{1, 3}, {1, 3}]


def test_a_weighted_sum_beyond_its_bitsets_narrows_by_bounds():
    big = (kinds().SUM, (0, 1), (100_000, -1), 400_000 - 4)  # 100000 a - b: 4 and 4
    assert propagated(big, [ALL, ALL]) == [{4}, {4}]


def test_a_cage_keeps_the_values_of_the_sets_that_fit():
    cage = (kinds().CAGE, (0, 1), (mask({1, 4}), mask({2, 3})), 5)
    assert propagated(cage, [{2, 3}, ALL]) == [{2, 3}, {2, 3}]
    assert propagated(cage, [{1}, ALL]) == [{1}, {4}]
    assert propagated(cage, [{1, 2}, ALL]) == [{1, 2}, ALL]  # value sets, not pairs


def test_a_value_every_set_of_a_cage_holds_goes_to_its_one_place():
    cage = (kinds().CAGE, (0, 1, 2), (mask({1, 2, 4}), mask({1, 3, 4})), 0)
    assert propagated(cage, [{2, 3}, {1, 2, 3}, {1, 2, 3, 4}]) == [{2, 3}, {1, 2, 3}, {4}]


def test_a_less_chain_narrows_by_bounds_both_ways():
    assert propagated((kinds().LESS, (0, 1, 2), (), 0), [ALL, ALL, ALL]) == [
        {1, 2}, {2, 3}, {3, 4}]
    assert propagated((kinds().LESS, (0, 1), (), 0), [{2, 4}, {1, 3}]) == [{2}, {3}]
    assert propagated((kinds().LESS, (0, 1), (), 0), [{4}, {1, 3}]) is None


def test_a_two_cell_table_keeps_values_with_a_partner():
    table = (kinds().TABLE, (0, 1), (1, 2, 2, 3, 3, 4), 0)
    assert propagated(table, [ALL, ALL]) == [{1, 2, 3}, {2, 3, 4}]
    assert propagated(table, [{3}, ALL]) == [{3}, {4}]


def test_a_longer_table_is_arc_consistent():
    table = (kinds().TABLE, (0, 1, 2), (1, 2, 3, 2, 2, 2, 4, 1, 1), 0)
    assert propagated(table, [{1, 2}, ALL, ALL]) == [{1, 2}, {2}, {2, 3}]
    assert propagated(table, [{3}, ALL, ALL]) is None


def automaton(states: int, start: int, accepting, moves):
    return (states, start, len(accepting), *accepting, *(x for move in moves for x in move))


def test_an_automaton_keeps_the_values_of_accepted_words():
    # accepts words that start with 1
    first_is_1 = automaton(2, 0, (1,), [(0, 1, 1)] + [(1, v, 1) for v in ALL])
    regular = (kinds().REGULAR, (0, 1), first_is_1, 0)
    assert propagated(regular, [ALL, {2, 3}]) == [{1}, {2, 3}]
    assert propagated(regular, [{2, 3}, ALL]) is None


def test_a_value_every_accepted_word_holds_goes_to_its_one_place():
    # accepts words that hold a 3 somewhere
    holds_3 = automaton(2, 0, (1,), [(0, v, 1 if v == 3 else 0) for v in ALL]
                        + [(1, v, 1) for v in ALL])
    regular = (kinds().REGULAR, (0, 1), holds_3, 0)
    assert propagated(regular, [{1, 2}, ALL]) == [{1, 2}, {3}]


def test_a_count_settles_a_value_that_must_take_every_cell():
    counts = (1 << 2, *[0b111] * (N - 1))  # value 1 in both cells; the others any count
    count = (kinds().COUNT, (0, 1), (*counts, 2, 1, 1), 0)  # two groups of one cell
    assert propagated(count, [ALL, ALL]) == [{1}, {1}]


def test_same_sets_share_their_values():
    same = (kinds().SAME, (0, 1, 2, 3), (), 0)
    assert propagated(same, [{1, 2}, {1, 2}, ALL, ALL]) == [{1, 2}] * 4
    assert propagated(same, [{1}, {2}, {3, 4}, {3, 4}]) is None


def test_same_counts_of_one_value_match():
    same_count = (kinds().SAME_COUNT, (0, 1, 2, 3), (1,), 0)
    assert propagated(same_count, [{1}, {1}, {1, 2}, {1, 2}]) == [{1}, {1}, {1}, {1}]
    assert propagated(same_count, [{2}, {2}, {1, 2}, {1, 2}]) == [{2}, {2}, {2}, {2}]


def test_a_sandwich_puts_its_crusts_around_the_values_that_make_its_total():
    sandwich = (kinds().SANDWICH, (0, 1, 2, 3), vkernel.between(N, 5), 5)  # 2 + 3 between
    assert propagated(sandwich, [ALL] * 4) == [{1, 4}, {2, 3}, {2, 3}, {1, 4}]
    nothing = (kinds().SANDWICH, (0, 1, 2, 3), vkernel.between(N, 0), 0)  # crusts side by side
    assert propagated(nothing, [{2, 3}, ALL, ALL, {2, 3}]) == [{2, 3}, {1, 4}, {1, 4}, {2, 3}]


def test_an_either_or_keeps_what_some_alternative_leaves():
    table = kinds().TABLE
    either = (kinds().OR, (0, 1), (((table, (0,), (1,), 0),), ((table, (1,), (2,), 0),)), 0)
    assert propagated(either, [{2, 3}, ALL]) == [{2, 3}, {2}]
    assert propagated(either, [ALL, ALL]) == [ALL, ALL]
    assert propagated(either, [{2, 3}, {3}]) is None
