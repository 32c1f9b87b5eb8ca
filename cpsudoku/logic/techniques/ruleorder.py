"""Order along thermometers and greater-than signs (`Less`): each cell is more than
the one before it, so a cell k-th on a line of L cells holds at least k and at most
N - (L - k), tightened by its neighbours' candidates."""

from __future__ import annotations

from ...grid.constraints import Less
from ..state import State, bit_values
from ..step import cell_name
from ..technique import technique
from .rules import digit, groups_of, join, ordinal, own, rule_step

ORDER = 1.6  # read off the line like a single: below SE's pointing (1.7)


def bounds(state: State, chains: list[Less]) -> tuple[dict[int, int], dict[int, int]]:
    """Per cell, the least and the most it can hold along the chains (candidates
    narrowed by their neighbours until nothing changes)."""
    lo: dict[int, int] = {}
    hi: dict[int, int] = {}
    for con in chains:
        for c in con.cells:
            vals = bit_values(state.cand[c] or 1 << (state.values[c] - 1))
            lo[c], hi[c] = vals[0], vals[-1]
    changed = True
    while changed:
        changed = False
        for con in chains:
            for a, b in zip(con.cells, con.cells[1:]):
                if lo[b] <= lo[a]:
                    lo[b], changed = lo[a] + 1, True
                if hi[a] >= hi[b]:
                    hi[a], changed = hi[b] - 1, True
        if any(lo[c] > hi[c] for c in lo):
            break
    return lo, hi


@technique("Order", ORDER)
def order(state: State):
    """Candidates outside the bounds the order along a thermometer gives a cell."""
    n = state.size
    for label, cons in groups_of(state, "order"):
        chains = [con for con in own(cons) if isinstance(con, Less)]
        lo, hi = bounds(state, chains)
        if any(lo[c] > hi[c] for c in lo):
            continue
        elims = [(c, v) for c in lo for v in bit_values(state.cand[c])
                 if not lo[c] <= v <= hi[c]]
        if not elims:
            continue
        clauses = []
        changed = sorted({c for c, _ in elims},
                         key=lambda c: next(k for con in chains
                                            for k, x in enumerate(con.cells) if x == c))
        for c in changed:
            con = next(con for con in chains if c in con.cells)
            k, length = con.cells.index(c), len(con.cells)
            vals = bit_values(state.cand[c])
            said = []
            if vals[0] < lo[c]:
                said.append(f"at least {digit(lo[c])}")
            if vals[-1] > hi[c]:
                said.append(f"at most {digit(hi[c])}")
            where = (f"is {ordinal(k + 1)} of {length}" if length > 2
                     else ("is the smaller" if k == 0 else "is the larger"))
            tight = lo[c] > k + 1 or hi[c] < n - (length - 1 - k)
            clauses.append(f"{cell_name(c, n)} {where}: {join(said)}"
                           + (" (its neighbours' candidates)" if tight else ""))
        first = chains[0].cells
        reason = (f"{label}: each cell is more than the one before it, from "
                  f"{cell_name(first[0], n)} up to {cell_name(first[-1], n)}; "
                  + "; ".join(clauses))
        yield rule_step("Order", ORDER, state, label, elims,
                        sorted({c for con in chains for c in con.cells}), reason)
