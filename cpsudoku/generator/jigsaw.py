"""Random jigsaw layouts: N connected regions of N cells, not the plain boxes.

Start from the boxes (or row bands when N has no box shape) and trade cells across
region borders, two at a time so that sizes stay N, keeping only trades that leave
both regions connected."""

from __future__ import annotations

import random

from ..errors import ModelError
from ..grid.geometry import Geometry, boxed, irregular

# Successful trades per cell: enough that no trace of the starting boxes is left.
TRADES_PER_CELL = 3


def neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    out = []
    if r:
        out.append(cell - n)
    if r < n - 1:
        out.append(cell + n)
    if c:
        out.append(cell - 1)
    if c < n - 1:
        out.append(cell + 1)
    return out


def connected(cells: set[int], n: int) -> bool:
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        for x in neighbours(todo.pop(), n):
            if x in cells and x not in seen:
                seen.add(x)
                todo.append(x)
    return len(seen) == len(cells)


def _start(n: int) -> list[int]:
    try:
        return list(boxed(n).region_of)
    except ModelError:  # no box shape (a prime size): one region per row
        return [cell // n for cell in range(n * n)]


def random_regions(n: int, rng: random.Random) -> Geometry:
    """A random jigsaw geometry of size n (n >= 4)."""
    owner = _start(n)
    members: list[set[int]] = [set() for _ in range(n)]
    for cell, r in enumerate(owner):
        members[r].add(cell)
    trades, tries = 0, 0
    while trades < TRADES_PER_CELL * n * n and tries < 200 * n * n:
        tries += 1
        a = rng.randrange(n * n)
        ra = owner[a]
        others = [x for x in neighbours(a, n) if owner[x] != ra]
        if not others:
            continue
        rb = owner[rng.choice(others)]
        # b: a cell of region rb that borders ra (other than through a), to move into ra
        backs = [x for x in members[rb] if x != a
                 and any(owner[y] == ra and y != a for y in neighbours(x, n))]
        if not backs:
            continue
        b = rng.choice(backs)
        new_a = members[ra] - {a} | {b}
        new_b = members[rb] - {b} | {a}
        if connected(new_a, n) and connected(new_b, n):
            members[ra], members[rb] = new_a, new_b
            owner[a], owner[b] = rb, ra
            trades += 1
    regions = [tuple(sorted(m)) for m in members]
    regions.sort()
    if n >= 4 and _is_boxes(regions, n):
        return random_regions(n, rng)
    return irregular(n, regions)


def _is_boxes(regions, n: int) -> bool:
    try:
        return sorted(regions) == sorted(boxed(n).regions)
    except ModelError:
        return False
