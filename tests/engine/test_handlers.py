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


def propagated(add, domains, n: int = N):
    """The domains (as sets) after the one constraint `add` adds to a kernel has run its
    handler to a fixpoint, or None when it fails; cells beyond those given hold every
    value."""
    cells = max(n, len(domains))
    kernel = vkernel._vkernel.VKernel(n, [], [[] for _ in range(cells)], [], nvars=cells)
    add(kernel)
    start = [mask(d) for d in domains] + [(1 << n) - 1] * (cells - len(domains))
    out, events, failure = kernel.propagate(start)
    if out is None:
        assert failure[:2] == (3, 0)  # the constraint, the only one, failed
        return None
    return [values(m) for m in out[:len(domains)]]


ALL = set(range(1, N + 1))


def test_each_kind_has_its_constant():
    names = ["SUM", "CAGE", "LESS", "TABLE", "REGULAR", "COUNT", "REGIONS", "RUNS", "RANKS",
             "OR", "SAME", "SANDWICH", "SAME_COUNT"]
    assert [getattr(vkernel._vkernel, name) for name in names] == list(range(len(names)))


def test_a_sum_keeps_the_values_that_reach_its_total():
    def sum_(k):
        return k.add_sum((0, 1), (1, 1), 7)
    assert propagated(sum_, [ALL, ALL]) == [{3, 4}, {3, 4}]
    assert propagated(sum_, [{1, 2}, ALL]) is None


def test_a_sum_s_group_of_cells_that_differ_takes_only_value_sets():
    def alone(k):
        return k.add_sum((0, 1), (1, 1), 4)

    def grouped(k):
        return k.add_sum((0, 1), (1, 1), 4, groups=(2,))  # one group of both cells
    assert propagated(alone, [ALL, ALL]) == [{1, 2, 3}, {1, 2, 3}]
    assert propagated(grouped, [ALL, ALL]) == [{1, 3}, {1, 3}]


def test_a_weighted_sum_beyond_its_bitsets_narrows_by_bounds():
    def big(k):
        return k.add_sum((0, 1), (100_000, -1), 400_000 - 4)  # 100000 a - b: 4 and 4
    assert propagated(big, [ALL, ALL]) == [{4}, {4}]


def test_a_cage_keeps_the_values_of_the_sets_that_fit():
    def cage(k):
        return k.add_cage((0, 1), (mask({1, 4}), mask({2, 3})), 5)
    assert propagated(cage, [{2, 3}, ALL]) == [{2, 3}, {2, 3}]
    assert propagated(cage, [{1}, ALL]) == [{1}, {4}]
    assert propagated(cage, [{1, 2}, ALL]) == [{1, 2}, ALL]  # value sets, not pairs


def test_a_value_every_set_of_a_cage_holds_goes_to_its_one_place():
    def cage(k):
        return k.add_cage((0, 1, 2), (mask({1, 2, 4}), mask({1, 3, 4})))
    assert propagated(cage, [{2, 3}, {1, 2, 3}, ALL]) == [{2, 3}, {1, 2, 3}, {4}]


def test_a_less_chain_narrows_by_bounds_both_ways():
    assert propagated(lambda k: k.add_less((0, 1, 2)), [ALL, ALL, ALL]) == [
        {1, 2}, {2, 3}, {3, 4}]
    assert propagated(lambda k: k.add_less((0, 1)), [{2, 4}, {1, 3}]) == [{2}, {3}]
    assert propagated(lambda k: k.add_less((0, 1)), [{4}, {1, 3}]) is None


def test_a_two_cell_table_keeps_values_with_a_partner():
    def table(k):
        return k.add_table((0, 1), (1, 2, 2, 3, 3, 4))
    assert propagated(table, [ALL, ALL]) == [{1, 2, 3}, {2, 3, 4}]
    assert propagated(table, [{3}, ALL]) == [{3}, {4}]


def test_a_longer_table_is_arc_consistent():
    def table(k):
        return k.add_table((0, 1, 2), (1, 2, 3, 2, 2, 2, 4, 1, 1))
    assert propagated(table, [{1, 2}, ALL, ALL]) == [{1, 2}, {2}, {2, 3}]
    assert propagated(table, [{3}, ALL, ALL]) is None


def test_an_automaton_keeps_the_values_of_accepted_words():
    def first_is_1(k):  # words that start with 1
        return k.add_automaton((0, 1), 2, 0, (1,), (0, 1, 1, *(x for v in ALL for x in (1, v, 1))))
    assert propagated(first_is_1, [ALL, {2, 3}]) == [{1}, {2, 3}]
    assert propagated(first_is_1, [{2, 3}, ALL]) is None


def test_a_value_every_accepted_word_holds_goes_to_its_one_place():
    def holds_3(k):  # words that hold a 3 somewhere
        moves = [(0, v, 1 if v == 3 else 0) for v in ALL] + [(1, v, 1) for v in ALL]
        return k.add_automaton((0, 1), 2, 0, (1,), tuple(x for move in moves for x in move))
    assert propagated(holds_3, [{1, 2}, ALL]) == [{1, 2}, {3}]


def test_a_count_settles_a_value_that_must_take_every_cell():
    def count(k):  # value 1 in both cells, the others any count; two groups of one cell
        return k.add_count((0, 1), (1 << 2, *[0b111] * (N - 1)), (1, 1))
    assert propagated(count, [ALL, ALL]) == [{1}, {1}]


def test_same_sets_share_their_values():
    def same(k):
        return k.add_same_set((0, 1, 2, 3))
    assert propagated(same, [{1, 2}, {1, 2}, ALL, ALL]) == [{1, 2}] * 4
    assert propagated(same, [{1}, {2}, {3, 4}, {3, 4}]) is None


def test_same_counts_of_one_value_match():
    def same_count(k):
        return k.add_same_count((0, 1, 2, 3), 1)
    assert propagated(same_count, [{1}, {1}, {1, 2}, {1, 2}]) == [{1}, {1}, {1}, {1}]
    assert propagated(same_count, [{2}, {2}, {1, 2}, {1, 2}]) == [{2}, {2}, {2}, {2}]


def test_a_sandwich_puts_its_crusts_around_the_values_that_make_its_total():
    def sandwich(k):  # 2 + 3 between the crusts
        return k.add_sandwich((0, 1, 2, 3), vkernel.between(N, 5), 5)

    def nothing(k):  # crusts side by side
        return k.add_sandwich((0, 1, 2, 3), vkernel.between(N, 0), 0)
    assert propagated(sandwich, [ALL] * 4) == [{1, 4}, {2, 3}, {2, 3}, {1, 4}]
    assert propagated(nothing, [{2, 3}, ALL, ALL, {2, 3}]) == [{2, 3}, {1, 4}, {1, 4}, {2, 3}]


def test_an_either_or_keeps_what_some_alternative_leaves():
    def either(k):  # cell 0 is 1, or cell 1 is 2
        at = k.add_either((0, 1))
        for cell, value in ((0, 1), (1, 2)):
            k.add_alternative(at)
            k.add_table((cell,), (value,), within=at)
    assert propagated(either, [{2, 3}, ALL]) == [{2, 3}, {2}]
    assert propagated(either, [ALL, ALL]) == [ALL, ALL]
    assert propagated(either, [{2, 3}, {3}]) is None
