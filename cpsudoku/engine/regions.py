"""The propagator of regions found while solving (chaos construction).

`Regions` names the N*N digit cells, then one label variable per cell (label k is
the mask bit k - 1). Each pass, to a fixpoint of its own:

1. canonical labels: label k + 1 may appear only after some earlier cell may
   take label k (the labelling `Regions` accepts, one per partition);
2. region houses: a region of N cells holds each digit once, so a cell whose
   label and digit are both decided keeps that (label, digit) pair from every
   other cell; a digit with one possible cell left in a region goes there; a
   region with N decided cells takes no other; one with too few possible cells
   fails;
3. connectivity: from a decided cell of region k, a breadth-first search that
   counts only the undecided cells it passes (decided ones of k are free) marks
   the cells the region can still reach within its N cells; the rest lose k, the
   decided cells must all be reached, and when exactly N can be reached they are
   the region. A region with no decided cell keeps k only in the pieces of
   possible cells big enough to hold it. A decided piece of fewer than N cells
   with one way out must take it.

Sound, not complete: the search decides the rest, and `Regions.holds` judges
every solution.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from ..grid.constraints import Allowed, Regions
from .plan import Structure, keep


def _neighbours(n: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for i in range(n * n):
        r, c = divmod(i, n)
        out.append(tuple(j for j, ok in ((i - n, r > 0), (i + n, r < n - 1),
                                         (i - 1, c > 0), (i + 1, c < n - 1)) if ok))
    return tuple(out)


def anchors(n: int, weight: Sequence[int] | None = None) -> tuple[int, ...]:
    """Up to three cells whose regions surely differ: two cells N or more steps apart
    (Manhattan distance) never share a region of N connected cells. The compiled
    pass labels them 1, 2, 3 and the other regions after them (`relabel` gives the
    solutions their canonical labels back). Two are on the grid's edge, the third
    anywhere; the three with the most `weight` (per grid position: how much the
    clues say of its digit and region) win, then the farthest apart. A pinned label
    where the clues speak decides much at once: ISS picks its anchors so, and on
    its "Let there be chaos" r1c1 and two edge cells left 300,000 nodes without a
    solution. Without weights: r1c1 and the two edge cells farthest from it."""
    cells = range(n * n)
    edge = [i for i in cells if i // n in (0, n - 1) or i % n in (0, n - 1)]

    def gap(a: int, b: int) -> int:
        return abs(a // n - b // n) + abs(a % n - b % n)

    if weight is None:
        weight = [1 if i == 0 else 0 for i in cells]
    best: tuple[int, ...] = ()
    top: tuple[int, int] = (-1, -1)
    for x, a in enumerate(edge):
        for b in edge[x + 1:]:
            if gap(a, b) < n:
                continue
            # the third: the heaviest, then the farthest from a and b, then the first
            third = max((c for c in cells if gap(a, c) >= n and gap(b, c) >= n),
                        key=lambda c: (weight[c], min(gap(a, c), gap(b, c)), -c), default=None)
            if third is None:
                continue
            score = (weight[a] + weight[b] + weight[third],
                     min(gap(a, b), gap(a, third), gap(b, third)))
            if score > top:
                top, best = score, tuple(sorted((a, b, third)))
    if not best:  # too small a grid for three: two cells apart, or one
        best = next(((a, b) for a in edge for b in edge if a < b and gap(a, b) >= n), (0,))
    return best


def clue_weights(con: Regions, others) -> list[int]:
    """Per grid position, how much the other constraints say of its digit and its
    region label: each constraint adds its length for each of the two it holds
    (ISS's cell priorities), and a long one holding both adds it twice more."""
    n2 = con.width * con.width
    position = {v: i % n2 for i, v in enumerate(con.cells)}
    out = [0] * n2
    for other in others:
        if other is con:
            continue
        size = len(other.cells)
        seen: dict[int, int] = {}
        for v in other.cells:
            if v in position:
                out[position[v]] += size
                seen[position[v]] = seen.get(position[v], 0) + 1
        if size >= max(10, con.width + 1):
            for i, times in seen.items():
                if times >= 2:
                    out[i] += 2 * size
    return out


def links(con: Regions, others) -> list[int]:
    """The grid positions two-cell tables of equal labels bind (same-region clues),
    pair after pair, flattened. The compiled pass joins them into same-region groups
    and treats a group as one piece (ISS's shards): entering it costs the region all
    its cells."""
    n2 = con.width * con.width
    position = {v: i for i, v in enumerate(con.cells[n2:])}
    equal = {(v, v) for v in range(1, con.width + 1)}
    return [position[v] for other in others
            if isinstance(other, Allowed) and len(other.cells) == 2
            and all(v in position for v in other.cells) and set(other.tuples) == equal
            for v in other.cells]


def relabel(solution: tuple[int, ...], con: Regions) -> tuple[int, ...]:
    """The solution with its region labels numbered in the order of their first cells."""
    n = con.width
    labels = con.cells[n * n:]
    order: dict[int, int] = {}
    for v in labels:
        order.setdefault(solution[v], len(order) + 1)
    out = list(solution)
    for v in labels:
        out[v] = order[solution[v]]
    return tuple(out)


class RegionsPass:
    def __init__(self, con: Regions, structure: Structure):
        self.con = con
        self.cells = con.cells
        n = con.width
        self.n = n
        self.digits = con.cells[:n * n]
        self.labels = con.cells[n * n:]
        self.near = _neighbours(n)

    def propagate(self, cands, grid, changed) -> bool:
        n = self.n
        digits, labels = self.digits, self.labels
        ncells = n * n
        full = (1 << n) - 1
        moved = False

        def noted(var: int, new: int) -> None:
            nonlocal moved
            moved = True
            changed(var, new)

        def narrow(var: int, mask: int) -> bool:
            return keep(cands, grid, var, mask, noted)

        while True:
            moved = False

            # 1. canonical order
            allowed = 1
            for v in labels:
                if not narrow(v, allowed):
                    return False
                allowed = (allowed | ((cands[v] or grid[v]) << 1)) & full
            lab = [cands[v] or grid[v] for v in labels]
            dig = [cands[v] or grid[v] for v in digits]
            # 2. region houses
            for k in range(n):
                bit = 1 << k
                fixed = [i for i in range(ncells) if lab[i] == bit]
                maybe = [i for i in range(ncells) if lab[i] & bit]
                if len(fixed) > n or len(maybe) < n:
                    return False
                taken = 0  # digits decided inside region k
                for i in fixed:
                    d = dig[i]
                    if not d & (d - 1):
                        if taken & d:
                            return False
                        taken |= d
                if len(fixed) == n and len(maybe) > n:
                    for i in maybe:
                        if lab[i] != bit and not narrow(labels[i], ~bit):
                            return False
                for i in maybe:
                    d = dig[i]
                    if lab[i] == bit:
                        if d & (d - 1) and d & taken and not narrow(digits[i], ~taken):
                            return False
                    elif not d & (d - 1) and d & taken and not narrow(labels[i], ~bit):
                        return False
                for value in range(n):
                    vbit = 1 << value
                    if taken & vbit:
                        continue
                    where = [i for i in maybe if dig[i] & vbit]
                    if not where:
                        return False
                    if len(where) == 1:
                        i = where[0]
                        if not narrow(labels[i], bit) or not narrow(digits[i], vbit):
                            return False
                if moved:
                    break
            if moved:
                continue
            # 3. connectivity
            for k in range(n):
                if not self.connect(k, lab, narrow):
                    return False
                if moved:
                    break
            if not moved:
                return True

    def connect(self, k: int, lab: list[int], narrow) -> bool:
        """Region k's reach, as the module says; False on contradiction."""
        n, near, labels = self.n, self.near, self.labels
        bit = 1 << k
        fixed = [i for i, m in enumerate(lab) if m == bit]
        if not fixed:
            seen: set[int] = set()
            viable = False
            for s in range(len(lab)):
                if s in seen or not lab[s] & bit:
                    continue
                piece, todo = [s], [s]
                seen.add(s)
                while todo:
                    i = todo.pop()
                    for j in near[i]:
                        if j not in seen and lab[j] & bit:
                            seen.add(j)
                            piece.append(j)
                            todo.append(j)
                if len(piece) < n:
                    for i in piece:
                        if not narrow(labels[i], ~bit):
                            return False
                else:
                    viable = True
            return viable
        # 0-1 breadth-first search from one decided cell: undecided cells cost one
        budget = n - len(fixed)
        cost = {fixed[0]: 0}
        ring: deque[int] = deque([fixed[0]])
        while ring:
            i = ring.popleft()
            here = cost[i]
            for j in near[i]:
                m = lab[j]
                if not m & bit:
                    continue
                step = here if m == bit else here + 1
                if step > budget or cost.get(j, budget + 1) <= step:
                    continue
                cost[j] = step
                if m == bit:
                    ring.appendleft(j)
                else:
                    ring.append(j)
        if any(i not in cost for i in fixed):
            return False
        if len(cost) < n:
            return False
        for i, m in enumerate(lab):
            if m & bit and m != bit and i not in cost and not narrow(labels[i], ~bit):
                return False
        if len(cost) == n:
            for i in cost:
                if not narrow(labels[i], bit):
                    return False
            return True
        return self.doors(bit, fixed, lab, narrow)

    def doors(self, bit: int, fixed: list[int], lab: list[int], narrow) -> bool:
        """A decided piece of region k smaller than N with one way out takes it."""
        n, near = self.n, self.near
        inside = set(fixed)
        done: set[int] = set()
        for s in fixed:
            if s in done:
                continue
            piece, todo, exits = {s}, [s], set()
            while todo:
                i = todo.pop()
                for j in near[i]:
                    if j in inside:
                        if j not in piece:
                            piece.add(j)
                            todo.append(j)
                    elif lab[j] & bit:
                        exits.add(j)
            done |= piece
            if len(piece) >= n:
                continue
            if not exits:
                return False
            if len(exits) == 1 and not narrow(self.labels[exits.pop()], bit):
                return False
        return True
