"""Reasoning that pays on big grids (16x16 and up), used by `engine.fast`.

- Naked and hidden pairs: two cells of a unit whose candidates are the same
  two values take those values from the rest of the unit; two values that can
  only go in the same two cells of a unit leave those cells no other value.
  On the 25x25 minimal puzzles this cuts the search tree 3 to 50 fold for
  about twice the cost per node.
- Dual branching: besides the fewest-candidates cell, consider each (unit,
  value) pair by the number of cells of the unit where the value can still
  go. A value with two places is as good a binary choice as a two-candidate
  cell and usually propagates further, so it is preferred.

Measured on the 25x25 minimal puzzles and not kept, because none solved more
of them within a minute: matching-based (Regin) all-different filtering (half
the nodes at several times the cost per node), failure-weighted branching
(dom/wdeg), randomized restarts on a Luby schedule, constructive disjunction
over the two probes of a cell, and ordering a cell's two values by what their
probes placed. The first puzzle of the set is still unsolved after 15 minutes
and 114,000 nodes; CP-SAT, which learns clauses from its failures, solves
every one of them.
"""

from __future__ import annotations

from .plan import Plan


def make_pairs(plan: Plan, bits):
    """pairs(cands, grid, placed, propagate) -> placements made, or -1 on contradiction.

    Applies naked and hidden pairs to every unit, propagates what they remove,
    and repeats until neither finds anything. `bits[c]` is the bitmask of the
    units of cell c (what `propagate` expects as dirty units).
    """
    units = plan.units

    def pairs(cands, grid, placed, propagate):
        # The same pass as the C kernel's, step for step (the tests compare the two
        # searches node for node): counts first, then naked pairs, then hidden pairs.
        total = 0
        queue: list[int] = []  # cells left with one candidate, for `propagate` to place
        dirty = 0

        def take(p, x):
            """Remove x from cell p; False when that empties it."""
            nonlocal dirty
            m = cands[p] & ~x
            cands[p] = m
            dirty |= bits[p]
            if not m & (m - 1):
                if not m:
                    return False
                queue.append(p)
            return True

        while True:
            dirty = 0
            queue.clear()
            for cells in units:
                o = t = h = 0  # values seen at least once, twice, three times
                for c in cells:
                    x = cands[c]
                    h |= t & x
                    t |= o & x
                    o |= x
                for i, c in enumerate(cells):
                    x = cands[c]
                    y = x & (x - 1)
                    if not y or y & (y - 1):
                        continue  # not two candidates
                    for j in range(i + 1, len(cells)):
                        if cands[cells[j]] != x:
                            continue
                        for k, p in enumerate(cells):  # naked pair: x leaves the others
                            if k != i and k != j and cands[p] & x and not take(p, x):
                                return -1
                        break
                two = t & ~h  # values with exactly two places in this unit
                if not two & (two - 1):
                    continue
                placed_at: list[tuple[tuple[int, int], int]] = []
                while two:
                    v = two & -two
                    two ^= v
                    key = tuple(c for c in cells if cands[c] & v)
                    if len(key) != 2:
                        continue  # a naked pair above took v from a cell
                    for at, w in placed_at:
                        if at == key:
                            keep = w | v  # hidden pair: the two cells hold only w and v
                            for p in key:
                                if cands[p] & ~keep and not take(p, ~keep):
                                    return -1
                    placed_at.append((key, v))
            if not dirty:
                return total
            r = propagate(cands, grid, placed, queue, dirty)
            if r < 0:
                return -1
            total += r

    return pairs


def make_dual_choose(plan: Plan):
    """choose(cands) -> (cell, value bit) to branch on, or (-1, 0) when all are placed.

    The first value with exactly two places in a unit if there is one (its
    first place), else the lowest candidate of a fewest-candidates cell. The
    unit scans are generated straight-line code, like `fast`'s propagation.
    """
    def build():
        lines = [
            "def choose(cands):",
            "    best, fewest = -1, 99",
            "    for c, m in enumerate(cands):",
            "        if m:",
            "            k = m.bit_count()",
            "            if k < fewest:",
            "                best, fewest = c, k",
            "                if k == 2:",
            "                    break",
            "    if best < 0:",
            "        return -1, 0",
        ]
        for u, unit in enumerate(plan.units):
            if len(unit) < 3:
                continue
            lines += [f"    o = cands[{unit[0]}]", f"    x = cands[{unit[1]}]",
                      "    t = o & x", "    o |= x", "    h = 0"]
            for c in unit[2:]:
                lines += [f"    x = cands[{c}]", "    h |= t & x", "    t |= o & x", "    o |= x"]
            lines += ["    two = t & ~h", "    if two:", "        v = two & -two",
                      f"        for c in units[{u}]:", "            if cands[c] & v:",
                      "                return c, v"]
        lines += ["    m = cands[best]", "    return best, m & -m"]
        namespace = {"units": plan.units}
        exec("\n".join(lines), namespace)
        return namespace["choose"]

    return plan.once("dual_choose", build)


def make_probe(plan: Plan, bits, propagate, settle, tick):
    """probe(cands, grid, placed) -> (cell, value bit) to branch on, None to let
    the chooser decide, or -1 on contradiction.

    Failed-literal probing on two-candidate cells: each of the two values is
    tried with singles propagation on a copy; a value that fails is removed
    (the cell takes the other) and `settle` (the node's full propagation)
    runs before probing again. When no value fails, the cell whose two probes
    placed the most (product of the counts) is the branching choice, as in
    look-ahead SAT solvers, its value that placed more first. On 25x25 minimal
    puzzles this divides the search tree by about ten for a probe costing a tenth
    of a node.
    `tick()` is called before each pass (it raises when the deadline is past).
    """

    def probe(cands, grid, placed):
        scratch = grid[:]  # propagate only writes placed values there
        while True:  # passes over the cells, until one finds no failing value
            tick()
            best, best_score, failed = None, -1, False
            for c, m in enumerate(cands):
                if not m:
                    continue
                rest = m & (m - 1)
                if rest & (rest - 1):
                    continue  # three or more candidates
                a = m & -m
                made = []
                for v in (a, rest):
                    child = cands[:]
                    child[c] = v
                    r = propagate(child, scratch, placed[:], [c], bits[c])
                    if r < 0:
                        cands[c] = m ^ v
                        if settle(cands, grid, placed, [c], bits[c]) < 0:
                            return -1
                        failed = True
                        break
                    made.append(r)
                else:
                    score = (made[0] + 1) * (made[1] + 1)
                    if score > best_score:  # the value that placed more goes first
                        best, best_score = (c, rest if made[1] > made[0] else a), score
            if not failed:
                return best

    return probe
