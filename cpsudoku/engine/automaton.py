"""The native propagator of `Regular`: Pesant's forward-backward pass over the layered graph.

Position i of the line has a set of states, kept as a bitmask (bit s: state s).
The forward pass collects the states reachable from the start through the
cells' current candidates; the backward pass keeps, from the accepting states
at the end, the transitions that still lead to acceptance, and the values on
them are the supported candidates. Every value kept lies on an accepted word
over the current domains: domain consistency, in one pass each way.

Per state, the outgoing transitions are listed as (value bit, mask of next
states), so a pass costs the transitions that the candidates allow.
"""

from __future__ import annotations

from ..grid.constraints import Regular
from .plan import Structure, keep


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class RegularPass:
    """The propagator interface of `propagators` (con, cells, propagate)."""

    def __init__(self, con: Regular, structure: Structure):
        self.con = con
        self.cells = con.cells
        a = con.automaton
        size = structure.size
        outs: list[dict[int, int]] = [{} for _ in range(a.states)]
        for s, v, t in a.transitions:
            if 1 <= v <= size:
                bit = 1 << (v - 1)
                outs[s][bit] = outs[s].get(bit, 0) | (1 << t)
        # per state: the values it can read (a mask) and (value bit, next states) pairs
        self.reads = [sum(o) for o in outs]
        self.outs = [tuple(o.items()) for o in outs]
        self.start = 1 << a.start
        self.accepting = sum(1 << s for s in a.accepting)

    def propagate(self, cands, grid, changed):
        cells, reads, outs = self.cells, self.reads, self.outs
        doms = [cands[c] or grid[c] for c in cells]
        forward = [self.start]
        layer = self.start
        for d in doms:
            nxt = 0
            for s in _bits(layer):
                if reads[s] & d:
                    for bit, targets in outs[s]:
                        if bit & d:
                            nxt |= targets
            if not nxt:
                return False
            forward.append(nxt)
            layer = nxt
        alive = layer & self.accepting
        if not alive:
            return False
        support = [0] * len(cells)
        for i in range(len(cells) - 1, -1, -1):
            d = doms[i]
            back = 0
            kept = 0
            for s in _bits(forward[i]):
                if reads[s] & d:
                    for bit, targets in outs[s]:
                        if bit & d and targets & alive:
                            kept |= bit
                            back |= 1 << s
            support[i] = kept
            alive = back
        for c, s in zip(cells, support):  # keep() reads afresh: a cell may be listed twice
            if not keep(cands, grid, c, s, changed):
                return False
        return True
