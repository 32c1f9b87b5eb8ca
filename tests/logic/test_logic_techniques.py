"""Each technique on hand-made candidate positions: where it must fire and where it must not."""

from __future__ import annotations

import pytest

from cpsudoku.formats.read import parse_one
from cpsudoku.grid.puzzle import Puzzle
from cpsudoku.logic.state import State
from cpsudoku.logic.techniques import (
    aligned,
    bug,
    chains,
    fish,
    forcing,
    intersections,
    loops,
    plusrules,
    rules,
    settheory,
    singles,
    subsets,
    uniqueness,
    wings,
)

pytestmark = pytest.mark.unit


def cell(name: str, n: int = 9) -> int:
    r, c = name[1:].split("c")
    return (int(r) - 1) * n + int(c) - 1


def blank(n: int = 9, **kw) -> State:
    """An empty grid: every cell holds every candidate."""
    return State.start(Puzzle.from_values([0] * n * n, **kw))


def keep_only(state: State, name: str, values) -> None:
    state.cand[cell(name, state.size)] = sum(1 << (v - 1) for v in values)


def remove(state: State, value: int, names) -> None:
    for name in names:
        state.eliminate(cell(name, state.size), value)


def first(finder, state):
    return next(iter(finder(state)), None)


def elims(step, n: int = 9) -> set[str]:
    return {f"r{c // n + 1}c{c % n + 1}<>{v}" for c, v in step.eliminations}


def row(r: int, cols, n: int = 9) -> list[str]:
    return [f"r{r}c{c}" for c in cols]


def col(c: int, rows) -> list[str]:
    return [f"r{r}c{c}" for r in rows]


# ------------------------------------------------------------------ singles

@pytest.mark.parametrize("text,size", [
    ("123.341221433421", 4),
    ("12345.456123231564564231312645645312", 6),
])
def test_full_house(text, size):
    state = State.start(parse_one(text))
    step = first(singles.full_house, state)
    assert step.technique == "Full House" and step.rating == 1.0
    assert step.placements and step.text.startswith("Full House: r")


def test_full_house_not_with_two_empty():
    state = State.start(parse_one("12..34..........", size=4))
    assert first(singles.full_house, state) is None


def test_hidden_single_box_and_line():
    s = blank()
    remove(s, 5, [n for n in ("r1c1", "r1c2", "r1c3", "r2c1", "r2c3", "r3c1", "r3c2", "r3c3")])
    step = first(singles.hidden_single_box, s)
    assert (step.placements, step.rating) == ([(cell("r2c2"), 5)], 1.2)
    assert step.text == "Hidden Single: r2c2=5 (box 1)"
    s = blank()
    remove(s, 7, row(4, range(1, 9)))
    assert first(singles.hidden_single_box, s) is None
    step = first(singles.hidden_single_line, s)
    assert (step.placements, step.rating) == ([(cell("r4c9"), 7)], 1.5)


def test_naked_single():
    s = blank()
    assert first(singles.naked_single, s) is None
    keep_only(s, "r5c5", [8])
    assert first(singles.naked_single, s).placements == [(cell("r5c5"), 8)]


# ------------------------------------------------------------ intersections

def test_pointing_and_claiming():
    s = blank()
    assert first(intersections.locked_candidates, s) is None
    remove(s, 3, row(2, (1, 2, 3)) + row(3, (1, 2, 3)))
    step = first(intersections.locked_candidates, s)
    assert step.technique == "Pointing" and step.rating == 2.6
    assert elims(step) == {f"r1c{c}<>3" for c in range(4, 10)}
    s = blank()
    remove(s, 4, row(1, range(4, 10)))
    step = first(intersections.locked_candidates, s)
    assert step.technique == "Claiming" and step.rating == 2.8
    assert elims(step) == {f"r{r}c{c}<>4" for r in (2, 3) for c in (1, 2, 3)}


def test_direct_pointing_needs_a_following_single():
    s = blank()
    remove(s, 3, row(2, (1, 2, 3)) + row(3, (1, 2, 3)))
    assert first(intersections.direct_locked, s) is None
    remove(s, 3, ["r2c4", "r2c6"] + row(3, (4, 5, 6)))
    step = first(intersections.direct_locked, s)
    assert step.technique == "Direct Pointing" and step.rating == 1.7
    assert step.placements == [(cell("r2c5"), 3)]
    # SE applies the pointing's eliminations with the single it leaves
    assert elims(step) == {f"r1c{c}<>3" for c in range(4, 10)}


# ------------------------------------------------------------------ subsets

def test_naked_pair():
    s = blank()
    assert first(lambda st: subsets.naked_sets(st, 2), s) is None
    keep_only(s, "r1c1", [1, 2])
    keep_only(s, "r1c5", [1, 2])
    step = first(lambda st: subsets.naked_sets(st, 2), s)
    assert step.technique == "Naked Pair" and step.rating == 3.0
    assert elims(step) == {f"r1c{c}<>{v}" for c in (2, 3, 4, 6, 7, 8, 9) for v in (1, 2)}
    assert step.text.startswith("Naked Pair: 1,2 in r1c1,r1c5 => ")


def test_naked_triple():
    s = blank()
    for name, vals in (("r1c1", [1, 2]), ("r1c2", [2, 3]), ("r1c9", [1, 3])):
        keep_only(s, name, vals)
    step = first(lambda st: subsets.naked_sets(st, 3), s)
    assert step.technique == "Naked Triple" and step.rating == 3.6


def test_hidden_pair_and_its_direct_form():
    s = blank()
    remove(s, 1, row(1, range(3, 10)))
    remove(s, 2, row(1, range(3, 10)))
    step = first(lambda st: subsets.hidden_sets(st, 2), s)
    assert step.technique == "Hidden Pair" and step.rating == 3.4
    assert elims(step) == {f"r1c{c}<>{v}" for c in (1, 2) for v in range(3, 10)}
    assert first(subsets.direct_hidden_pair, s) is None
    remove(s, 3, row(1, range(4, 10)))  # 3 left at r1c1, r1c2, r1c3: single once the pair locks
    step = first(subsets.direct_hidden_pair, s)
    assert step.rating == 2.0 and step.placements == [(cell("r1c3"), 3)]
    # and the pair's other candidates go with it, as in SE
    assert elims(step) == {f"r1c{c}<>{v}" for c in (1, 2) for v in range(3, 10)}


# --------------------------------------------------------------------- fish

@pytest.mark.parametrize("k,rows,cols", [(2, (2, 8), (3, 7)), (3, (1, 4, 7), (2, 5, 8)),
                                         (4, (1, 3, 5, 7), (1, 3, 5, 9))])
def test_fish(k, rows, cols):
    s = blank()
    assert first(lambda st: fish.fish(st, k), s) is None
    for r in rows:
        remove(s, 4, row(r, [c for c in range(1, 10) if c not in cols]))
    step = first(lambda st: fish.fish(st, k), s)
    assert step.rating == fish.FISH[k][1]
    assert elims(step) == {f"r{r}c{c}<>4" for c in cols for r in range(1, 10) if r not in rows}
    if k == 2:
        assert step.text.startswith("X-Wing: 4 in r2,r8 / c3,c7 => ")


def test_x_wing_on_16x16():
    s = blank(16)
    for r in (2, 9):
        remove(s, 11, [f"r{r}c{c}" for c in range(1, 17) if c not in (3, 14)])
    step = first(x_wing_finder := (lambda st: fish.fish(st, 2)), s)
    assert step is not None and x_wing_finder
    assert {(c % 16 + 1) for c, _ in step.eliminations} == {3, 14}


# -------------------------------------------------------------------- wings

def test_xy_wing():
    s = blank()
    keep_only(s, "r1c1", [1, 2])
    keep_only(s, "r1c5", [1, 3])
    keep_only(s, "r5c1", [2, 3])
    step = first(wings.xy_wing, s)
    assert step.rating == 4.2 and elims(step) == {"r5c5<>3"}
    keep_only(s, "r5c1", [2, 4])
    assert first(wings.xy_wing, s) is None


def test_xyz_wing():
    s = blank()
    keep_only(s, "r1c1", [1, 2, 3])
    keep_only(s, "r1c5", [1, 3])
    keep_only(s, "r2c2", [2, 3])
    step = first(wings.xyz_wing, s)
    assert step.rating == 4.4 and elims(step) == {"r1c2<>3", "r1c3<>3"}


def test_w_wing():
    s = blank()
    keep_only(s, "r1c1", [1, 2])
    keep_only(s, "r5c5", [1, 2])
    assert first(wings.w_wing, s) is None
    remove(s, 1, col(3, (2, 3, 4, 6, 7, 8, 9)))
    step = first(wings.w_wing, s)
    assert step is not None and elims(step) == {"r1c5<>2", "r5c1<>2"}


# ------------------------------------------------------------- uniqueness

def test_unique_rectangle_type_1():
    s = blank()
    for name in ("r1c1", "r1c2", "r4c1"):
        keep_only(s, name, [1, 2])
    keep_only(s, "r4c2", [1, 2, 3])
    step = first(uniqueness.unique_rectangle, s)
    assert step.technique == "Unique Rectangle Type 1" and step.rating == 4.5
    assert elims(step) == {"r4c2<>1", "r4c2<>2"}
    keep_only(s, "r4c1", [1, 2, 5])  # two corners with extras: no type 1
    assert all(st.technique != "Unique Rectangle Type 1" for st in uniqueness.unique_rectangle(s))


def test_unique_rectangle_type_2():
    s = blank()
    for name in ("r1c1", "r1c2"):
        keep_only(s, name, [1, 2])
    for name in ("r4c1", "r4c2"):
        keep_only(s, name, [1, 2, 7])
    steps = [st for st in uniqueness.unique_rectangle(s) if st.technique.endswith("Type 2")]
    assert steps and all(v == 7 and c // 9 == 3 or c // 9 in (3, 4, 5)
                         for c, v in steps[0].eliminations)


def test_unique_rectangle_types_3_and_4():
    s = blank()
    for name in ("r1c1", "r1c2"):
        keep_only(s, name, [1, 2])
    keep_only(s, "r4c1", [1, 2, 5])
    keep_only(s, "r4c2", [1, 2, 6])
    assert not [st for st in uniqueness.unique_rectangle(s) if st.technique.endswith("4")]
    keep_only(s, "r4c9", [5, 6])
    step = next(st for st in uniqueness.unique_rectangle(s) if st.technique.endswith("3"))
    assert step.rating == 4.6
    assert elims(step) == {f"r4c{c}<>{v}" for c in range(3, 9) for v in (5, 6)}
    remove(s, 1, row(4, range(3, 10)))  # 1 in row 4 only in the rectangle
    step = next(st for st in uniqueness.unique_rectangle(s) if st.technique.endswith("4"))
    assert step.rating == 4.5 and elims(step) == {"r4c1<>2", "r4c2<>2"}


def test_unique_rectangle_type_3_with_a_hidden_set():
    s = blank()
    for name in ("r1c1", "r1c2"):
        keep_only(s, name, [1, 2])
    keep_only(s, "r4c1", [1, 2, 5])
    keep_only(s, "r4c2", [1, 2, 6])
    # r4c1 or r4c2 holds 5 or 6, so 1 and 2 have one place there and one in r4c9
    remove(s, 1, row(4, range(3, 9)))
    remove(s, 2, row(4, range(3, 9)))
    step = first(uniqueness.unique_rectangle, s)
    assert step.technique == "Unique Rectangle Type 3" and step.rating == 4.5
    assert "hidden set 1,2 in r4c1,r4c2,r4c9" in step.text
    assert elims(step) == {f"r4c9<>{v}" for v in range(3, 10)}


# ----------------------------------------------------------------- chains

def test_forcing_x_chain_finds_a_skyscraper():
    s = blank()
    remove(s, 1, col(1, (2, 3, 4, 6, 7, 8, 9)))  # 1 in column 1: r1, r5
    remove(s, 1, col(5, (1, 3, 4, 6, 7, 8, 9)))  # 1 in column 5: r2, r5
    steps = [st for st in chains.forcing_x_chain(s) if st.rating == 6.6]
    found = {f"r{c // 9 + 1}c{c % 9 + 1}<>{v}" for st in steps for c, v in st.eliminations}
    assert found & {"r1c4<>1", "r1c6<>1", "r2c2<>1", "r2c3<>1"}
    assert "Skyscraper" in {st.technique for st in steps}


def test_x_cycle():
    s = blank()
    assert first(chains.bidirectional_cycle, s) is None
    for r in (2, 8):
        remove(s, 1, row(r, [c for c in range(1, 10) if c not in (3, 7)]))
    step = first(chains.bidirectional_cycle, s)
    assert step.technique == "Bidirectional X-Cycle" and step.rating == 6.5
    assert elims(step) == {f"r{r}c{c}<>1" for c in (3, 7) for r in range(1, 10) if r not in (2, 8)}


def test_length_term():
    assert [chains.length_term(k) for k in (6, 7, 9, 11, 15, 19)] == [0.0, 0.1, 0.2, 0.3, 0.4,
                                                                     0.5]


def test_forcing_chain_covers_the_xy_wing():
    s = blank()
    keep_only(s, "r1c1", [1, 2])
    keep_only(s, "r1c5", [1, 3])
    keep_only(s, "r5c1", [2, 3])
    steps = [st for st in chains.forcing_chain(s) if (cell("r5c5"), 3) in st.eliminations]
    assert steps and steps[0].rating >= 7.0


def test_no_chain_on_an_open_grid():
    assert first(chains.forcing_x_chain, blank(4)) is None


# -------------------------------------------------------------- jigsaw

def test_hidden_single_in_a_jigsaw_region_counts_as_a_box():
    from pathlib import Path

    from cpsudoku.formats.sources import read_puzzles
    example = Path(__file__).parent.parent.parent / "examples" / "variants" / "jigsaw.toml"
    geometry = read_puzzles(str(example))[0].geometry
    assert geometry.box is None
    labels = geometry.region_of
    s = State.start(Puzzle(geometry, (0,) * 81))
    region = [c for c, lab in enumerate(labels) if lab == 0]
    remove(s, 6, [f"r{c // 9 + 1}c{c % 9 + 1}" for c in region[1:]])
    step = first(singles.hidden_single_box, s)
    assert step.placements == [(region[0], 6)] and step.rating == 1.2
    assert step.groups == ["region 1"]


# --------------------------------------------------------------- by rule

def killer(cages) -> Puzzle:
    from cpsudoku.rules.killer import Cage, Killer
    return Puzzle.from_values([0] * 81, rules=[Killer([Cage.of(t, cs) for t, cs in cages])])


def test_by_rule_on_a_cage():
    state = State.start(killer([(3, ["r1c1", "r1c2"])]))
    step = first(rules.by_rule, state)
    assert step.technique == "By Rule" and step.groups == ["cage 1 (sum 3) at r1c1"]
    assert elims(step) == {f"r1c{c}<>{v}" for c in (1, 2) for v in range(3, 10)}
    assert step.text == "By Rule: cage 1 (sum 3) at r1c1 => r1c1,r1c2<>3,4,5,6,7,8,9"
    state.cand = [m & 0b11 if i in (0, 1) else m for i, m in enumerate(state.cand)]
    assert first(rules.by_rule, state) is None


def test_by_rule_reads_a_wide_automaton_through_its_paths():
    # nine cells of nine candidates: too many tuples to search, so the automaton's
    # layered graph says which candidates an accepted word gives (never a wrong one)
    from cpsudoku.rules.distinct import DistinctCount, DistinctCounts
    counted = tuple((r, 1) for r in range(2, 10))
    state = State.start(Puzzle.from_values([0] * 81, rules=[
        DistinctCounts([DistinctCount((1, 2), counted)])]))
    step = first(rules.by_rule, state)
    assert step.text == "By Rule: distinct count 1 at r1c2 => r1c2<>9"
    # two cells: a search, as for any rule, with the column's no-repeat among its cells
    small = State.start(Puzzle.from_values([0] * 81, rules=[
        DistinctCounts([DistinctCount((1, 2), counted[:2])])]))
    assert first(rules.by_rule, small).text == \
        "By Rule: distinct count 1 at r1c2 => r1c2<>1,3,4,5,6,7,8,9, r2c1,r3c1<>2"


def test_innies():
    cages = [(3, ["r1c1", "r1c2"]), (7, ["r1c3", "r1c4"]), (11, ["r1c5", "r1c6"]),
             (15, ["r1c7", "r1c8"])]
    state = State.start(killer(cages))
    steps = [st for st in settheory.innies_outies(state) if st.technique == "Innies"]
    assert steps and elims(steps[0]) == {f"r1c9<>{v}" for v in range(1, 9)}


def test_simple_colouring_trap():
    from cpsudoku.logic.techniques import colouring
    s = blank()
    assert first(colouring.simple_colouring, s) is None
    remove(s, 1, col(1, (2, 3, 4, 6, 7, 8, 9)))  # 1 in column 1: r1, r5
    remove(s, 1, row(5, (2, 3, 4, 6, 7, 8, 9)))  # 1 in row 5: c1, c5
    remove(s, 1, col(5, (1, 3, 4, 6, 7, 8, 9)))  # 1 in column 5: r2, r5
    step = first(colouring.simple_colouring, s)
    assert step.technique == "Simple Colouring" and step.rating >= 6.6
    assert "colour trap" in step.text
    assert elims(step) <= {"r1c4<>1", "r1c6<>1", "r2c2<>1", "r2c3<>1"}


# ------------------------------------------------------------- unique loops

LOOP6 = ("r1c1", "r1c4", "r2c4", "r2c7", "r3c7", "r3c1")  # rows 1-3, columns 1,4,7, boxes 1-3


def loop_state(extras: dict[str, list[int]]) -> State:
    s = blank()
    for name in LOOP6:
        keep_only(s, name, [1, 2] + extras.get(name, []))
    return s


def test_unique_loop_type_1_on_six_cells():
    step = first(loops.unique_loop, loop_state({"r3c1": [3]}))
    assert step.technique == "Unique Loop Type 1" and step.rating == 4.6
    assert elims(step) == {"r3c1<>1", "r3c1<>2"}


@pytest.mark.parametrize("extras", [
    {},  # no cell with more than the pair: no deduction (the puzzle would not be unique)
    {"r2c7": [5], "r3c1": [3]},  # two extra cells, different values, no common house
])
def test_unique_loop_does_not_fire(extras):
    assert list(loops.unique_loop(loop_state(extras))) == []


def test_unique_loop_needs_every_house_twice():
    s = blank()
    remove(s, 1, [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)])
    for name in ("r1c1", "r1c4", "r2c4", "r2c7", "r3c7"):
        keep_only(s, name, [1, 2])
    keep_only(s, "r3c2", [1, 2, 3])  # column 2 and column 1 once each: not a loop
    assert list(loops.unique_loop(s)) == []


def test_unique_loop_types_2_and_4():
    s = loop_state({"r3c7": [3], "r3c1": [3]})
    kinds = {st.technique: st for st in loops.unique_loop(s)}
    assert elims(kinds["Unique Loop Type 2"]) == {f"r3c{c}<>3" for c in (2, 3, 4, 5, 6, 8, 9)}
    remove(s, 1, row(3, (2, 3, 4, 5, 6, 8, 9)))  # 1 in row 3 only in the loop's two cells
    kinds = {st.technique: st for st in loops.unique_loop(s)}
    assert elims(kinds["Unique Loop Type 4"]) == {"r3c7<>2", "r3c1<>2"}


def test_unique_loop_rating_grows_with_length():
    assert [loops.loop_rating(k) for k in (6, 8, 10, 12)] == [4.6, 4.7, 5.0, 5.0]


# -------------------------------------------------------------- BUG types 2-4

SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def bug_state(extras: dict[str, int]) -> State:
    """A bivalue universal grave over the whole grid: each cell holds its value in a
    solution and that value plus one (so every value has two places in every house),
    then `extras` adds one candidate to some cells."""
    s = blank()
    for i, ch in enumerate(SOLVED):
        v = int(ch)
        s.cand[i] = 1 << (v - 1) | 1 << (v % 9)
    for name, v in extras.items():
        s.cand[cell(name)] |= 1 << (v - 1)
    return s


def test_bug_grave_itself_and_plus_cells():
    assert bug.bug_cells(bug_state({})) is None  # no extra: not the pattern
    extra = bug.bug_cells(bug_state({"r1c1": 1, "r1c2": 1}))  # r1c1 is 5/6, r1c2 3/4
    assert extra == {cell("r1c1"): 1, cell("r1c2"): 1}


def test_bug_type_2():
    s = bug_state({"r1c1": 1, "r1c2": 1})
    step = first(bug.bug_types, s)
    assert step.technique == "BUG Type 2" and step.rating == 5.7
    # 1 is true in r1c1 (5/6) or r1c2 (3/4): it leaves their common peers (row 1, box 1)
    assert elims(step) == {"r1c7<>1", "r1c8<>1", "r3c1<>1", "r3c2<>1"}


def test_bug_type_4():
    s = bug_state({"r1c1": 1, "r1c4": 2})  # r1c1 5/6, r1c4 6/7: 6 only there in row 1
    steps = [st for st in bug.bug_types(s) if st.technique == "BUG Type 4"]
    assert steps and elims(steps[0]) == {"r1c1<>5", "r1c4<>7"}


def test_bug_type_3():
    # BUG values 1 (r1c1) and 2 (r1c4) with r1c8 (1/2): a naked pair in row 1
    s = bug_state({"r1c1": 1, "r1c4": 2})
    steps = [st for st in bug.bug_types(s) if st.technique == "BUG Type 3"]
    assert steps and steps[0].rating == 5.8
    assert elims(steps[0]) == {"r1c7<>1", "r1c9<>2"}


def test_bug_types_not_on_a_broken_pattern():
    s = bug_state({"r1c1": 1, "r1c2": 1})
    keep_only(s, "r9c9", [9])  # a cell left with one candidate: not a grave
    assert bug.bug_cells(s) is None and first(bug.bug_types, s) is None


# ------------------------------------------------------ aligned exclusions

def test_aligned_pair_exclusion():
    s = blank()
    keep_only(s, "r1c1", [1, 4])
    keep_only(s, "r1c5", [2, 3])
    keep_only(s, "r1c2", [1, 2])  # r1c1=1 with r1c5=2 empties it
    keep_only(s, "r1c3", [1, 3])  # r1c1=1 with r1c5=3 empties it
    step = first(aligned.aligned_pair_exclusion, s)
    assert step.technique == "Aligned Pair Exclusion" and step.rating == 6.2
    assert "r1c1<>1" in elims(step)
    keep_only(s, "r1c3", range(1, 10))  # one excluder is not enough
    assert all("r1c1<>1" not in elims(st) for st in aligned.aligned_pair_exclusion(s))


def test_aligned_triplet_exclusion():
    s = blank()
    keep_only(s, "r1c1", [1, 4])
    keep_only(s, "r1c2", [2, 5])
    keep_only(s, "r1c3", [3, 6])
    keep_only(s, "r2c1", [1, 2])  # the three see r2c1 (box 1) and r1c7, r1c8 (row 1)
    keep_only(s, "r1c8", [1, 3])
    keep_only(s, "r1c7", [1, 6])
    steps = list(aligned.aligned_triplet_exclusion(s))
    assert steps and steps[0].rating == 7.5
    assert any("r1c1<>1" in elims(st) for st in steps)
    keep_only(s, "r1c7", range(1, 10))  # r1c1=1, r1c2=5, r1c3=6 is now possible
    assert all("r1c1<>1" not in elims(st) for st in aligned.aligned_triplet_exclusion(s))


def test_aligned_pair_exclusion_on_a_jigsaw_and_a_small_grid():
    s = State.start(parse_one("................", size=4))
    keep_only(s, "r1c1", [1, 4])
    keep_only(s, "r1c3", [2, 3])
    keep_only(s, "r1c2", [1, 2])
    keep_only(s, "r1c4", [1, 3])
    step = first(aligned.aligned_pair_exclusion, s)
    assert step is not None and "r1c1<>1" in elims(step, 4)


# ------------------------------------------------- forcing chains (whole consequences)

def test_nishio_contradiction():
    s = blank()
    assert first(forcing.nishio, s) is None  # an empty grid contradicts nothing
    remove(s, 1, [f"r{r}c{c}" for r in (2, 3) for c in (4, 5, 6)] + ["r1c6"])
    # 1 in box 2 only at r1c4, r1c5: r1c1=1 would leave it no place
    steps = list(forcing.nishio(s))
    assert steps and all(st.rating == 7.5 for st in steps[:1])
    assert any(elims(st) == {"r1c1<>1"} for st in steps)
    assert "contradiction" in steps[0].text


def test_chain_complexity_counts_each_chain():
    s = blank()
    remove(s, 1, [f"r{r}c{c}" for r in (2, 3) for c in (4, 5, 6)] + ["r1c6"])
    result = forcing.Chaining(s, False, True).run((cell("r1c1"), 1), True)
    assert result.conflict is not None
    # r1c1=1 -> r1c4<>1 -> r1c5=1, and r1c1=1 -> r1c5<>1: three literals plus two
    assert result.conflict_count() == 5


def forcing_cell_state() -> State:
    """r5c5 is 1, 2 or 3, and each leads to a 9 that sees r1c1."""
    s = blank()
    keep_only(s, "r5c5", [1, 2, 3])
    keep_only(s, "r5c1", [1, 9])  # 1 -> r5c1=9
    keep_only(s, "r1c5", [2, 9])  # 2 -> r1c5=9
    keep_only(s, "r5c6", [3, 8])  # 3 -> r5c6=8 -> r1c6=9
    keep_only(s, "r1c6", [8, 9])
    return s


def test_cell_forcing_chains():
    steps = [st for st in forcing.multiple_forcing_chains(forcing_cell_state())
             if st.technique == "Cell Forcing Chains" and "r1c1<>9" in elims(st)]
    assert steps and steps[0].rating >= 8.0 and "each candidate of r5c5" in steps[0].text


def test_cell_forcing_chains_not_when_one_branch_fails():
    s = forcing_cell_state()
    keep_only(s, "r5c6", [3, 7, 8])  # 3 no longer forces r5c6=8
    assert not [st for st in forcing.multiple_forcing_chains(s) if "r1c1<>9" in elims(st)]


def test_dynamic_forcing_chains_find_the_contradiction_too():
    s = blank()
    remove(s, 1, [f"r{r}c{c}" for r in (2, 3) for c in (4, 5, 6)] + ["r1c6"])
    steps = list(forcing.dynamic_forcing_chains(s))
    assert any(elims(st) == {"r1c1<>1"} and st.rating >= 8.5 for st in steps)


def test_plus_rules_need_a_struck_out_reason():
    s = blank()
    source = s.cand[:]
    assert plusrules.first_rule(s.layout, source, s.cand[:]) == []
    cand = source[:]
    for r, c in [(r, c) for r in (2, 3) for c in (1, 2, 3)]:  # 1 struck out of box 1 ...
        cand[cell(f"r{r}c{c}")] &= ~1
    found = dict(plusrules.locked_candidates(s.layout, source, cand))  # ... outside row 1
    assert set(found) == {(cell(f"r1c{c}"), 1) for c in range(4, 10)}
    assert len(found[(cell("r1c4"), 1)]) == 6  # the six places struck out are its reasons
    assert plusrules.locked_candidates(s.layout, cand, cand) == []  # no reason: not for a chain


def test_plus_naked_pair_reasons():
    s = blank()
    source = s.cand[:]
    cand = source[:]
    cand[cell("r5c1")] = cand[cell("r5c2")] = 0b11  # 1/2, the other seven struck out
    found = dict(plusrules.naked_pairs(s.layout, source, cand))
    assert (cell("r5c9"), 1) in found and len(found[(cell("r5c9"), 1)]) == 14
