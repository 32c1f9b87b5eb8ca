"""Relations between two cells: kropki dots, XV, non-consecutive pairs, tables over
two cells, and lines read pair by pair (whispers, parity lines): a digit goes when
the neighbour it would need is not among the other cell's candidates."""

from __future__ import annotations

from functools import cache

from ...grid.constraints import AllDifferent, Constraint, Regular
from ..state import State, bit_values
from ..step import cell_name
from ..technique import technique
from .rules import digit, digits_text, groups_of, own, rule_step

PAIR = 1.7  # one look at a neighbour's candidates, like SE's direct pointing

Pairs = tuple[tuple[int, int, frozenset[tuple[int, int]]], ...]


@cache
def pairs_of(cons: tuple[Constraint, ...], size: int) -> Pairs:
    """Each relation as (cell, cell, the digit pairs it allows)."""
    out = []
    digits = range(1, size + 1)
    for con in own(cons):
        if isinstance(con, AllDifferent):
            continue
        if isinstance(con, Regular) and len(con.cells) > 2:
            full = [digits] * len(con.cells)
            for i in range(len(con.cells) - 1):
                run = con.automaton.runs(full, i, 2) or []
                out.append((con.cells[i], con.cells[i + 1], frozenset(map(tuple, run))))
        else:
            a, b = con.cells
            out.append((a, b, frozenset((x, y) for x in digits for y in digits
                                        if con.holds([x, y]))))
    return tuple(out)  # type: ignore[arg-type]


@technique("Pair Relation", PAIR)
def pair_relation(state: State):
    """A digit whose partner across a dot, sign or line segment is gone."""
    n = state.size
    peers = state.layout.peers
    for label, cons in groups_of(state, "pair"):
        elims: dict[tuple[int, int], tuple[int, frozenset[int]]] = {}
        for a, b, table in pairs_of(cons, n):
            for x, y in ((a, b), (b, a)):
                there = state.cand[y] or 1 << (state.values[y] - 1)
                for v in bit_values(state.cand[x]):
                    need = frozenset((q if x == a else p) for p, q in table
                                     if (p if x == a else q) == v)
                    if y in peers[x]:
                        need -= {v}
                    if (x, v) not in elims and not any(there >> (w - 1) & 1 for w in need):
                        elims[(x, v)] = (y, need)
        if not elims:
            continue
        clauses = []
        for (x, v), (y, need) in sorted(elims.items())[:6]:
            if need:
                clauses.append(f"{digit(v)} in {cell_name(x, n)} would need "
                               f"{digits_text(need, 'or')} in {cell_name(y, n)}, none left")
            else:
                clauses.append(f"{digit(v)} in {cell_name(x, n)} has no partner at all in "
                               f"{cell_name(y, n)}")
        more = " (and so on for the rest)" if len(elims) > 6 else ""
        cells = sorted({c for a, b, _ in pairs_of(cons, n) for c in (a, b)})
        yield rule_step("Pair Relation", PAIR, state, label, list(elims), cells,
                        f"{label}: " + "; ".join(clauses) + more)
