"""The hot path: search over models made only of all-different groups.

State is three flat lists, copied when the search branches (copying 81 ints
is cheaper in CPython than logging and undoing changes on a trail):

- `cands[c]`: candidate bitmask of an open cell, 0 once the cell is placed;
- `grid[c]`: the placed value's bit, 0 while open;
- `placed[u]`: the values already placed in unit u.

Propagation: placing a value removes it from the peers (naked singles follow),
then each unit is scanned for values with one place left (hidden singles), then
optionally units that share cells are checked for locked candidates.
Branching is binary: try the lowest candidate of a fewest-candidates cell; if
that subtree is exhausted, remove the value and propagate again.
On big grids (see `subsets`) naked/hidden pairs join the propagation, values
with two places in a unit are branched on too, and failed-literal probing of
two-candidate cells removes values and picks the branching cell.
"""

from __future__ import annotations

import time

from .clock import OutOfTime, check_clock
from .plan import Plan
from .subsets import make_dual_choose, make_pairs, make_probe

# Intersections per generated locked-candidates function: compiling all of a
# 25x25's at once takes about half a second, which no deadline could interrupt.
LOCKED_CHUNK = 25


def make_propagate(plan: Plan, locked: bool, deadline: float | None = None):
    """propagate(cands, grid, placed, queue, dirty) -> placements made, or -1 on contradiction.

    `queue` holds open cells that have exactly one candidate left; `dirty` is a
    bitmask of the units whose candidates changed since they were last scanned
    (only those are scanned again). The unit scan is generated as straight-line
    code, one block per unit: a Python loop over the cells costs twice as much.
    Locked candidates are generated as functions of LOCKED_CHUNK intersections
    each, compiled one by one (and kept), with the deadline checked in between:
    `OutOfTime` when it passes.
    """
    def build():
        namespace = {
            "peers": plan.peers, "cell_units": plan.cell_units, "units": plan.units,
            "unit_bits": unit_bits(plan), "full": plan.full,
        }
        chunks = range(0, len(plan.intersections), LOCKED_CHUNK) if locked else range(0)
        for first in chunks:
            namespace[f"locked_{first}"] = _locked_function(plan, first, deadline)
        check_clock(deadline)
        exec(_propagate_source(plan, chunks), namespace)
        return namespace["propagate"]

    return plan.once(("propagate", locked), build)


def _locked_function(plan: Plan, first: int, deadline: float | None):
    """locked(cands, queue) -> the units changed (a bitmask), or -1 on contradiction:
    locked candidates at the intersections first .. first + LOCKED_CHUNK - 1."""
    def build():
        check_clock(deadline)
        lines = ["def locked(cands, queue):", "    dirty = 0"]
        for k in range(first, min(first + LOCKED_CHUNK, len(plan.intersections))):
            lines += ["    " + s for s in _locked_check(k, *plan.intersections[k])]
        lines.append("    return dirty")
        namespace = {"unit_bits": unit_bits(plan),
                     "rests": tuple((a, b) for _, a, b in plan.intersections)}
        exec("\n".join(lines), namespace)
        return namespace["locked"]

    return plan.once(("locked", first), build)


def unit_bits(plan: Plan) -> tuple[int, ...]:
    """Per cell, the bitmask of the units it belongs to."""
    def build():
        bits = []
        for units in plan.cell_units:
            m = 0
            for u in units:
                m |= 1 << u
            bits.append(m)
        return tuple(bits)

    return plan.once("unit_bits", build)


def _unit_scan(u: int, unit) -> list[str]:
    """Once/twice accumulation over a unit: values with no place fail, values
    with exactly one place are hidden singles."""
    lines = [f"if d & {1 << u}:", f"    o = cands[{unit[0]}]"]
    if len(unit) == 1:
        lines.append("    t = 0")
    else:
        lines += [f"    x = cands[{unit[1]}]", "    t = o & x", "    o |= x"]
    for c in unit[2:]:
        lines += [f"    x = cands[{c}]", "    t |= o & x", "    o |= x"]
    lines += [
        f"    if o | placed[{u}] != full:",
        "        return -1",
        "    o &= ~t",
        "    if o:",
        f"        for c in units[{u}]:",
        "            m = cands[c] & o",
        "            if m:",
        "                if m & (m - 1):",
        "                    return -1",  # one cell is the only place for two values
        "                if cands[c] != m:",
        "                    cands[c] = m",
        "                    dirty |= unit_bits[c]",
        "                    queue.append(c)",
    ]
    return lines


def _locked_check(k: int, shared, rest_a, rest_b) -> list[str]:
    """Locked candidates at one intersection of units a and b: a value that
    unit a can only hold in the shared cells leaves the rest of unit b."""
    def union(cells):
        return " | ".join(f"cands[{c}]" for c in cells) if cells else "0"
    lines = [f"i = {union(shared)}", "if i:",
             f"    ra = {union(rest_a)}", f"    rb = {union(rest_b)}"]
    for confined, rest in (("i & rb & ~ra", "b"), ("i & ra & ~rb", "a")):
        lines += [
            f"    x = {confined}",
            "    if x:",
            f"        for c in rests[{k}][{0 if rest == 'a' else 1}]:",
            "            m = cands[c]",
            "            if m & x:",
            "                m &= ~x",
            "                cands[c] = m",
            "                dirty |= unit_bits[c]",
            "                if not m & (m - 1):",
            "                    if not m:",
            "                        return -1",
            "                    queue.append(c)",
        ]
    return lines


def _propagate_source(plan: Plan, chunks: range) -> str:
    scan = []
    for u, unit in enumerate(plan.units):
        scan += _unit_scan(u, unit)
    checks = []
    for first in chunks:
        checks += [f"r = locked_{first}(cands, queue)", "if r < 0:", "    return -1",
                   "dirty |= r"]
    source = _PROPAGATE_TEMPLATE.replace(
        "            #SCAN#", "\n".join("            " + s for s in scan))
    locked_code = "\n".join("        " + s for s in checks) or "        pass"
    return source.replace("        #LOCKED#", locked_code)


_PROPAGATE_TEMPLATE = '''
def propagate(cands, grid, placed, queue, dirty):
    count = 0
    while True:
        while queue:
            c = queue.pop()
            b = cands[c]
            cands[c] = 0
            grid[c] = b
            count += 1
            for u in cell_units[c]:
                placed[u] |= b
            for p in peers[c]:
                m = cands[p]
                if m & b:
                    m ^= b
                    cands[p] = m
                    dirty |= unit_bits[p]
                    if not m & (m - 1):
                        if not m:
                            return -1
                        queue.append(p)
        if dirty:
            d = dirty
            dirty = 0
            #SCAN#
            continue
        #LOCKED#
        if not dirty and not queue:
            return count
'''


def make_choose(plan: Plan):
    """choose(cands) -> (an open cell with the fewest candidates, its lowest
    candidate's bit), or (-1, 0) when all are placed."""
    def choose(cands):
        best, fewest = -1, 99
        for c, m in enumerate(cands):
            if m:
                k = m.bit_count()
                if k < fewest:
                    if k == 2:
                        return c, m & -m  # no open cell has fewer
                    best, fewest = c, k
        if best < 0:
            return -1, 0
        m = cands[best]
        return best, m & -m
    return choose


def solve(plan: Plan, max_solutions: int = 1, deadline: float | None = None,
          locked: bool | int = False, pairs: bool = False, probing: bool = False,
          pick=None):
    """Search for up to `max_solutions` solutions.

    `locked`: look for locked candidates (True), never (False), or only at the
    first `locked` levels of the search tree (an int), where a pruned branch
    is large enough to pay for the extra pass.
    `pairs`: also apply naked and hidden pairs at every node and branch on
    values with two places in a unit as well as on cells (see `subsets`).
    `probing`: probe two-candidate cells at every node, which also picks the
    branching cell (see `subsets.make_probe`).
    `pick(cell, mask) -> bit`: the value tried first in a branching cell (default
    the lowest); a random pick makes random solution grids.
    Returns (solutions, exhausted, timed_out, stats).
    """
    pick_value = pick
    locked_depth = (1 << 30 if locked else 0) if isinstance(locked, bool) else locked
    stats = {"nodes": 0, "guesses": 0, "backtracks": 0, "propagations": 0}
    try:  # a first big grid's generated code takes a while to compile
        shallow = make_propagate(plan, locked_depth > 0, deadline)
        deep = make_propagate(plan, False, deadline)
        bits = unit_bits(plan)
        if pairs:
            choose = make_dual_choose(plan)
            subsets = make_pairs(plan, bits)
            check_clock(deadline)
        else:
            choose = make_choose(plan)
            subsets = None
    except OutOfTime:
        return [], False, True, stats

    def settle_with(propagate):
        """The node's propagation: singles (and locked candidates), then pairs."""
        if subsets is None:
            return propagate

        def settle(cands, grid, placed, queue, dirty):
            r = propagate(cands, grid, placed, queue, dirty)
            if r >= 0 and subsets is not None:
                more = subsets(cands, grid, placed, propagate)
                r = -1 if more < 0 else r + more
            return r
        return settle

    monotonic = time.monotonic

    def tick():
        if deadline is not None and monotonic() > deadline:
            raise OutOfTime

    settle_shallow, settle_deep = settle_with(shallow), settle_with(deep)
    probe_shallow = probe_deep = None
    if probing:
        probe_shallow = make_probe(plan, bits, deep, settle_shallow, tick)
        probe_deep = make_probe(plan, bits, deep, settle_deep, tick)
    # Read the clock every 256 nodes on small grids, every 16 on big ones
    # (a 25x25 node costs about a millisecond).
    # Probing checks the clock itself, at each of its passes.
    clock_mask = 255 if plan.size <= 9 else 15
    solutions: list[tuple[int, ...]] = []
    nodes = guesses = backtracks = props = 0

    def dfs(cands, grid, placed, depth):
        """Explore a propagated state; True once enough solutions are found."""
        nonlocal nodes, guesses, backtracks, props
        if depth < locked_depth:
            propagate, probe = settle_shallow, probe_shallow
        else:
            propagate, probe = settle_deep, probe_deep
        while True:
            nodes += 1
            if deadline is not None and not nodes & clock_mask and monotonic() > deadline:
                raise OutOfTime
            pick = probe(cands, grid, placed) if probe is not None else None
            if pick is None:
                best, b = choose(cands)
            elif pick == -1:
                return False
            else:
                best, b = pick
            if best >= 0 and pick_value is not None:
                b = pick_value(best, cands[best])
            if best < 0:
                solutions.append(tuple(b.bit_length() for b in grid))
                return len(solutions) >= max_solutions
            m = cands[best]
            guesses += 1
            child = cands[:]
            child[best] = b
            child_grid = grid[:]
            child_placed = placed[:]
            r = propagate(child, child_grid, child_placed, [best], bits[best])
            if r >= 0:
                props += r
                if dfs(child, child_grid, child_placed, depth + 1):
                    return True
            backtracks += 1
            m ^= b
            cands[best] = m
            r = propagate(cands, grid, placed, [] if m & (m - 1) else [best], bits[best])
            if r < 0:
                return False
            props += r

    cands = list(plan.domains)
    exhausted, timed_out = True, False
    if all(cands):
        grid = [0] * len(cands)
        placed = [0] * len(plan.units)
        r = settle_shallow(cands, grid, placed,
                           [c for c, m in enumerate(cands) if not m & (m - 1)],
                           (1 << len(plan.units)) - 1)
        if r >= 0:
            props += r
            try:
                done = dfs(cands, grid, placed, 0)
                exhausted = not done
            except OutOfTime:
                exhausted, timed_out = False, True
    stats.update(nodes=nodes, guesses=guesses, backtracks=backtracks, propagations=props)
    return solutions, exhausted, timed_out, stats
