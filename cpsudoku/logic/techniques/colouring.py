"""Simple colouring: one value's conjugate pairs (the only two places in a house) coloured
alternately; rated as SE rates the forcing X-chain it amounts to (6.6 plus the length term)."""

from __future__ import annotations

from collections import deque

from ..state import State
from ..step import Step, cells_text, make_step
from ..technique import technique
from .chains import length_term


def _components(state: State, value: int):
    """Each connected set of conjugate pairs as {cell: (colour, distance from the root)}
    with the parent links to walk back."""
    links: dict[int, set[int]] = {}
    for house in state.layout.houses:
        pos = state.positions(house, value)
        if len(pos) == 2:
            a, b = pos
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
    done: set[int] = set()
    for root in sorted(links):
        if root in done:
            continue
        depth = {root: 0}
        queue = deque([root])
        while queue:
            a = queue.popleft()
            for b in sorted(links[a]):
                if b not in depth:
                    depth[b] = depth[a] + 1
                    queue.append(b)
        done.update(depth)
        if len(depth) > 2:
            yield depth


def _links_between(depth: dict[int, int], a: int, b: int) -> int:
    """Conjugate links on the path from a to b through the colouring tree (an upper bound
    when they sit on different branches: through the root)."""
    return depth[a] + depth[b]


@technique("Simple Colouring", 6.6, order=6.55, stage="chains")
def simple_colouring(state: State):
    """Trap: a cell seeing both colours loses the value. Wrap: two cells of one colour
    see each other, so that colour is false everywhere."""
    n, peers, cand = state.size, state.layout.peers, state.cand
    found: list[tuple[float, Step]] = []
    for value in range(1, n + 1):
        bit = 1 << (value - 1)
        for depth in _components(state, value):
            colour = {c: d % 2 for c, d in depth.items()}
            groups = [sorted(c for c in depth if colour[c] == k) for k in (0, 1)]
            what = f"{value} in {cells_text(groups[0], n)} / {cells_text(groups[1], n)}"
            for k in (0, 1):  # wrap
                clash = [(a, b) for a in groups[k] for b in groups[k] if a < b and b in peers[a]]
                if clash:
                    a, b = clash[0]
                    rating = 6.6 + length_term(_links_between(depth, a, b) + 2)
                    found.append((rating, make_step(
                        "Simple Colouring", rating, n, what=f"{what} (colour wrap)",
                        eliminations=[(c, value) for c in groups[k]], cells=sorted(depth))))
            for z, m in enumerate(cand):  # trap
                if not m & bit or z in depth:
                    continue
                seen = [[c for c in groups[k] if c in peers[z]] for k in (0, 1)]
                if seen[0] and seen[1]:
                    length = min(_links_between(depth, a, b) for a in seen[0] for b in seen[1])
                    rating = 6.6 + length_term(length + 3)
                    found.append((rating, make_step(
                        "Simple Colouring", rating, n, what=f"{what} (colour trap)",
                        eliminations=[(z, value)], cells=sorted(depth))))
    found.sort(key=lambda t: t[0])
    yield from (step for _, step in found)
