"""Wings: XY-wing (4.2), XYZ-wing (4.4), and W-wing (7.1: SE's rating of the same chain)."""

from __future__ import annotations

from ..chain import path_branch
from ..state import State, bit_values, popcount
from ..step import cell_name, cells_text, make_step
from ..technique import technique


def _seen_by_all(state: State, cells, bit: int) -> list[int]:
    peers = state.layout.peers
    common = set(peers[cells[0]])
    for c in cells[1:]:
        common &= peers[c]
    return sorted(c for c in common if state.cand[c] & bit and c not in cells)


@technique("XY-Wing", 4.2)
def xy_wing(state: State):
    """Pivot xy sees pincers xz and yz: z leaves every cell seeing both pincers."""
    cand, peers = state.cand, state.layout.peers
    for pivot, pm in enumerate(cand):
        if popcount(pm) != 2:
            continue
        wings = [c for c in peers[pivot] if popcount(cand[c]) == 2 and popcount(cand[c] & pm) == 1]
        for i, a in enumerate(wings):
            for b in wings[i + 1:]:
                za, zb = cand[a] & ~pm, cand[b] & ~pm
                if za != zb or cand[a] == cand[b]:
                    continue
                elims = _seen_by_all(state, [a, b], za)
                if elims:
                    z = za.bit_length()
                    yield make_step("XY-Wing", 4.2, state.size,
                                    what=f"{'/'.join(map(str, bit_values(pm | za)))} in "
                                         f"{cells_text([pivot, a, b], state.size)}",
                                    eliminations=[(c, z) for c in elims], cells=[pivot, a, b])


@technique("XYZ-Wing", 4.4)
def xyz_wing(state: State):
    """Pivot xyz sees pincers xz and yz: z leaves every cell seeing all three."""
    cand, peers = state.cand, state.layout.peers
    for pivot, pm in enumerate(cand):
        if popcount(pm) != 3:
            continue
        wings = [c for c in peers[pivot] if popcount(cand[c]) == 2 and cand[c] & ~pm == 0]
        for i, a in enumerate(wings):
            for b in wings[i + 1:]:
                z = cand[a] & cand[b]
                if cand[a] == cand[b] or popcount(z) != 1:
                    continue
                elims = _seen_by_all(state, [pivot, a, b], z)
                if elims:
                    yield make_step("XYZ-Wing", 4.4, state.size,
                                    what=f"{'/'.join(map(str, bit_values(pm)))} in "
                                         f"{cells_text([pivot, a, b], state.size)}",
                                    eliminations=[(c, z.bit_length()) for c in elims],
                                    cells=[pivot, a, b])


@technique("W-Wing", 7.1, stage="chains")
def w_wing(state: State):
    """Two equal bivalue cells xy joined by a strong link on x: y leaves cells seeing both."""
    cand, peers, houses = state.cand, state.layout.peers, state.layout.houses
    pairs = [c for c, m in enumerate(cand) if popcount(m) == 2]
    for i, a in enumerate(pairs):
        for b in pairs[i + 1:]:
            if cand[a] != cand[b] or b in peers[a]:
                continue
            for x in bit_values(cand[a]):
                xb = 1 << (x - 1)
                y = cand[a] & ~xb
                targets = _seen_by_all(state, [a, b], y)
                if not targets:
                    continue
                for house in houses:
                    pos = [c for c in house.cells if cand[c] & xb]
                    if len(pos) != 2 or a in pos or b in pos:
                        continue
                    p, q = pos
                    if (p in peers[a] and q in peers[b]) or (q in peers[a] and p in peers[b]):
                        if p not in peers[a] or q not in peers[b]:
                            p, q = q, p
                        yv, name = y.bit_length(), lambda c: cell_name(c, state.size)  # noqa: E731
                        chain = [f"{name(a)}<>{yv}", f"{name(a)}={x}", f"{name(p)}<>{x}",
                                 f"{name(q)}={x}", f"{name(b)}<>{x}", f"{name(b)}={yv}"]
                        yield make_step("W-Wing", 7.1, state.size,
                                        what=f"{'/'.join(map(str, bit_values(cand[a])))} in "
                                             f"{cells_text([a, b], state.size)} connected by "
                                             f"{x} in {house.label}",
                                        eliminations=[(c, y.bit_length()) for c in targets],
                                        cells=[a, b, p, q], groups=[house.label],
                                        chain=[path_branch(chain)])
                        break
