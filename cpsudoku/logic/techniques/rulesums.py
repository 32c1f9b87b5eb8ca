"""Sums: killer cages, arrows, little killers, XV-like sums, zipper and region-sum
lines. Two readings, as a player makes them: the bounds (the other cells add at
least so much, at most so much), then the digit combinations that still make the
total ("30 in four cells: only 6+7+8+9"). A sum too wide to enumerate still gets its
bounds."""

from __future__ import annotations

import math

from ...grid.constraints import Sum
from ..state import State, bit_values
from ..step import cell_name
from ..technique import technique
from .rules import (
    cells_of,
    digit,
    digits_text,
    groups_of,
    join,
    names,
    own,
    remembered,
    removals,
    removals_text,
    rule_step,
    sum_bounds,
    supported,
)

SUM_BOUNDS = 2.0  # arithmetic on one cell at a time
SUM_COMBINATIONS = 2.3  # a list of combinations read like a naked or hidden subset
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
         8: "eight", 9: "nine"}


def equation(con: Sum, size: int) -> str:
    """The sum as a player writes it: `r1c2+r1c3 = r1c1`, `r5c5+r5c6 = 10`."""
    def side(terms):
        return "+".join((f"{w}*" if w != 1 else "") + cell_name(c, size) for c, w in terms)
    pos = [(c, w) for c, w in zip(con.cells, con.weights()) if w > 0]
    neg = [(c, -w) for c, w in zip(con.cells, con.weights()) if w < 0]
    right = side(neg) if neg else ""
    if con.total or not neg:
        right = f"{con.total}" + (f"+{right}" if right else "")
    return f"{side(pos) or 0} = {right}"


def plain_sum(con: Sum) -> bool:
    return con.coeffs is None or all(w == 1 for w in con.coeffs)


@technique("Sum Bounds", SUM_BOUNDS)
def sum_bounds_step(state: State):
    """A digit too small or too large for what the rest of the sum can add."""
    n = state.size
    peers = state.layout.peers
    for label, cons in groups_of(state, "sum"):
        for con in own(cons):
            if not isinstance(con, Sum):
                continue
            doms = {c: state.cand[c] or 1 << (state.values[c] - 1) for c in con.cells}
            bounds = sum_bounds(con, doms, peers)
            if bounds is None:
                continue
            weights = dict(zip(con.cells, con.weights()))
            elims = [(c, v) for c in con.cells for v in bit_values(state.cand[c])
                     if not bounds[c][0] <= con.total - weights[c] * v <= bounds[c][1]]
            if not elims:
                continue
            said: dict[tuple, list[int]] = {}
            for c in dict.fromkeys(c for c, _ in elims):
                said.setdefault((bounds[c], weights[c]), []).append(c)
            clauses = []
            for ((lo, hi), w), cs in said.items():
                where = names(cs, n)
                gone = [v for c, v in elims if c in cs]
                # the term w*v lies in [total - hi, total - lo]
                least, most = sorted(((con.total - hi) / w, (con.total - lo) / w))
                limits = []
                if any(v < least for v in gone):
                    limits.append(f"at least {math.ceil(least)}")
                if any(v > most for v in gone):
                    limits.append(f"at most {math.floor(most)}")
                rest = f"exactly {lo}" if lo == hi else f"{lo}..{hi}"
                if plain_sum(con):
                    others = len(con.cells) - 1
                    clauses.append(f"the other {WORDS.get(others, others)} add {rest}, so "
                                   f"{where} {'is' if len(cs) == 1 else 'are'} "
                                   f"{' and '.join(limits)}")
                elif con.total == 0 and w == -1 and all(x > 0 for c2, x in weights.items()
                                                         if c2 not in cs):
                    clauses.append(f"{where} equals the sum of the other cells, {rest}, so "
                                   f"it is {' and '.join(limits)}")
                else:
                    clauses.append(f"the other cells' candidates leave {where} "
                                   f"{' and '.join(limits)}")
            head = (f"{con.total} in {WORDS.get(len(con.cells), len(con.cells))} cells"
                    if plain_sum(con) else equation(con, n))
            yield rule_step("Sum Bounds", SUM_BOUNDS, state, label, elims, cells_of(cons),
                            f"{label}: {head}: " + "; ".join(clauses))


def combinations_of(state: State, cons):
    sums = [con for con in own(cons) if isinstance(con, Sum)]
    cells = cells_of(cons)
    combos: set[tuple[int, ...]] = set()
    one = sums[0] if len(sums) == 1 and len(set(sums[0].cells)) == len(sums[0].cells) else None
    support = supported(state, cons, cells, (one, combos) if one is not None else None)
    return support, sorted(combos)


@technique("Sum Combinations", SUM_COMBINATIONS)
def sum_combinations(state: State):
    """A digit in no combination of digits that makes the total over the candidates
    (the no-repeat of the cage and of the houses among its cells included)."""
    n = state.size
    for label, cons in groups_of(state, "sum"):
        support, combos = remembered("sums", state, cons, combinations_of)
        if support is None:
            continue  # too wide: its bounds are all that is read
        cells = cells_of(cons)
        elims = removals(state, cells, support)
        if not elims:
            continue
        sums = [con for con in own(cons) if isinstance(con, Sum)]
        con = sums[0]
        if len(sums) > 1 or not combos:
            reason = (f"{label}: no way to make {join(equation(s, n) for s in sums)} over "
                      f"the candidates, without a repeat in a house, allows "
                      f"{removals_text(elims, n)}")
        else:
            ways = ["+".join(digit(v) for v in combo) for combo in combos]
            head = (f"{con.total} in {WORDS.get(len(con.cells), len(con.cells))} cells"
                    if plain_sum(con) else equation(con, n))
            listed = (f"only {ways[0]}" if len(ways) == 1 else join(ways[:8], "or")
                      if len(ways) <= 8 else f"{len(ways)} ways")
            parts = [f"{label}: {head}: {listed}"]
            used = set().union(*map(set, combos))
            candidates = {v for c in con.cells for v in bit_values(state.cand[c])}
            unused = sorted(candidates - used)
            if unused and len(ways) > 1:
                parts.append(f"{digits_text(unused)} fit none")
            must = sorted(set.intersection(*map(set, combos)))
            if must and len(ways) > 1:
                parts.append(f"every one holds {digits_text(must)}")
            rest = [(c, v) for c, v in elims if v in used]
            if rest:
                parts.append(f"and none of them allows {removals_text(rest, n)} (the other "
                             f"cells' candidates, or a repeat in a house)")
            reason = "; ".join(parts)
        yield rule_step("Sum Combinations", SUM_COMBINATIONS, state, label, elims, cells,
                        reason)
