"""The general path: every constraint kind, and the optional trace.

Same state and search as `fast` (candidate masks, binary branching on a
fewest-candidates cell, copy on branch), written as plain loops so that each
step can say why it happened. Sum, less and table constraints are narrowed by
their propagators (see `propagators`) between rounds of singles.
"""

from __future__ import annotations

import time

from ..formats.trace import TraceEvent
from ..grid.geometry import cell_name
from ..grid.symbols import symbol
from .clock import OutOfTime
from .plan import Plan, values_of
from .propagators import propagator_for


class Contradiction(Exception):
    pass


class GeneralSearch:
    def __init__(self, plan: Plan, givens=None, *, max_solutions: int = 1,
                 deadline: float | None = None, trace: bool = False, locked: bool = False,
                 pick=None):
        s = plan.structure
        self.plan = plan
        self.size = s.size
        # auxiliary variables (after the cells) are never given
        self.givens = tuple(givens or ()) + (0,) * (s.nvars - len(givens or ()))
        self.props = [propagator_for(con, s) for con in s.others]
        self.intersections = s.intersections if locked else ()
        self.max_solutions = max_solutions
        self.deadline = deadline
        self.pick = pick  # pick(cell, mask) -> the value bit tried first (default the lowest)
        self.trace: list[TraceEvent] | None = [] if trace else None
        self.depth = 0
        self.solutions: list[tuple[int, ...]] = []
        self.stats = {"nodes": 0, "guesses": 0, "backtracks": 0, "propagations": 0}

    # -- trace ---------------------------------------------------------------
    def emit(self, kind, cell=None, value=None, reason="", candidates=(), eliminations=()):
        if self.trace is not None:
            self.trace.append(TraceEvent(kind, self.depth, cell, value, reason, candidates,
                                         tuple(eliminations)))

    def unit_label(self, cells) -> str:
        """The label of the unit made of `cells` (tracing only)."""
        s = self.plan.structure
        by_cells = s.once("unit_by_cells", lambda: {frozenset(u): s.unit_labels[i]
                                                    for i, u in enumerate(s.units)})
        return by_cells.get(frozenset(cells), "a unit")

    def fail(self, reason: str):
        self.emit("contradiction", reason=reason)
        raise Contradiction

    def name(self, cell: int) -> str:
        return cell_name(cell, self.plan.structure.width)

    def digit(self, value: int) -> str:
        return symbol(value, self.plan.structure.first)

    # -- propagation ---------------------------------------------------------
    def place(self, cands, grid, placed, queue):
        """Place queued single-candidate cells and remove their values from the peers."""
        s = self.plan.structure
        peers, cell_units = s.peers, s.cell_units
        while queue:
            c, reason = queue.pop(0)
            b = cands[c]
            if not b:
                continue  # already placed
            cands[c] = 0
            grid[c] = b
            self.stats["propagations"] += 1
            for u in cell_units[c]:
                placed[u] |= b
            if reason is not None:
                self.emit("place", c, b.bit_length(), reason)
            for p in peers[c]:
                m = cands[p]
                if m & b:
                    m ^= b
                    cands[p] = m
                    if not m & (m - 1):
                        if not m:
                            self.fail(f"{self.name(p)} has no candidate left "
                                      f"(after {self.name(c)} = {self.digit(b.bit_length())})")
                        queue.append((p, "naked single"))

    def run_propagators(self, cands, grid, queue) -> bool:
        """One pass of the sum/less/table propagators; True if a domain changed."""
        changes = 0
        reason = ""

        removed: list[tuple[int, int]] = []
        tracing = self.trace is not None

        def changed(c, new):
            nonlocal changes
            if tracing:
                removed.extend((c, v) for v in values_of(cands[c] & ~new))
            cands[c] = new
            changes += 1
            if not new & (new - 1):
                queue.append((c, reason))

        for prop in self.props:
            reason = prop.con.describe()
            ok = prop.propagate(cands, grid, changed)
            if removed:
                self.emit("eliminate", reason=reason, eliminations=removed)
                removed.clear()
            if not ok:
                self.fail(f"{reason} cannot be satisfied")
        return changes > 0

    def hidden_singles(self, cands, placed, queue) -> bool:
        """Queue the hidden singles of the first unit that has any."""
        s = self.plan.structure
        full = s.full
        for u, unit in enumerate(s.units):
            once = twice = 0
            for c in unit:
                m = cands[c]
                twice |= once & m
                once |= m
            missing = full & ~(once | placed[u])
            if missing:
                v = (missing & -missing).bit_length()
                self.fail(f"no place left for {self.digit(v)} in {s.unit_labels[u]}")
            once &= ~twice
            if once:
                for c in unit:
                    m = cands[c] & once
                    if m:
                        if m & (m - 1):
                            a, b = values_of(m)[:2]
                            self.fail(f"{self.name(c)} is the only place for both {self.digit(a)} "
                                      f"and {self.digit(b)} in {s.unit_labels[u]}")
                        if cands[c] != m:
                            cands[c] = m
                            queue.append((c, f"hidden single in {s.unit_labels[u]}"))
                return True
        return False

    def locked_candidates(self, cands, queue) -> bool:
        changed = False
        for shared, rest_a, rest_b in self.intersections:
            inside = out_a = out_b = 0
            for c in shared:
                inside |= cands[c]
            for c in rest_a:
                out_a |= cands[c]
            for c in rest_b:
                out_b |= cands[c]
            # A value of the shared cells missing from the rest of one unit is locked
            # there, so the other unit's rest loses it.
            for x, rest, own in ((inside & out_b & ~out_a, rest_b, rest_a),
                                 (inside & out_a & ~out_b, rest_a, rest_b)):
                if x:
                    changed = True
                    removed: list[tuple[int, int]] = []
                    for c in rest:
                        m = cands[c]
                        if m & x:
                            if self.trace is not None:
                                removed.extend((c, v) for v in values_of(m & x))
                            m &= ~x
                            cands[c] = m
                            if not m:
                                self.trace_locked(x, shared, own, rest, removed)
                                self.fail(f"{self.name(c)} has no candidate left")
                            if not m & (m - 1):
                                queue.append((c, "naked single"))
                    self.trace_locked(x, shared, own, rest, removed)
        return changed

    def trace_locked(self, values: int, shared, own, rest, removed) -> None:
        """Record a locked-candidates elimination: `values` of the unit `shared + own`
        lie only in `shared`, so the unit `shared + rest` loses them elsewhere."""
        if self.trace is None or not removed:
            return
        digits = ",".join(self.digit(v) for v in values_of(values))
        home = self.unit_label(shared + own)
        other = self.unit_label(shared + rest)
        self.emit("eliminate", reason=f"locked candidates: {digits} in {home} only where "
                                      f"it meets {other}", eliminations=list(removed))
        removed.clear()

    def propagate(self, cands, grid, placed, queue) -> bool:
        """Propagate to a fixpoint; False on contradiction."""
        try:
            while True:
                self.place(cands, grid, placed, queue)
                if self.props and self.run_propagators(cands, grid, queue):
                    continue
                if self.hidden_singles(cands, placed, queue):
                    continue
                if self.intersections and self.locked_candidates(cands, queue):
                    continue
                return True
        except Contradiction:
            return False

    # -- search --------------------------------------------------------------
    def choose(self, cands) -> int:
        best, fewest = -1, 99
        for c, m in enumerate(cands):
            if m:
                k = m.bit_count()
                if k < fewest:
                    if k == 2:
                        return c
                    best, fewest = c, k
        return best

    def dfs(self, cands, grid, placed) -> bool:
        stats = self.stats
        while True:
            stats["nodes"] += 1
            if (self.deadline is not None and not stats["nodes"] & 63
                    and time.monotonic() > self.deadline):
                raise OutOfTime
            best = self.choose(cands)
            if best < 0:
                self.solutions.append(tuple(b.bit_length() for b in grid))
                self.emit("solution")
                return len(self.solutions) >= self.max_solutions
            m = cands[best]
            b = m & -m if self.pick is None else self.pick(best, m)
            stats["guesses"] += 1
            self.emit("guess", best, b.bit_length(), candidates=values_of(m))
            child, child_grid, child_placed = cands[:], grid[:], placed[:]
            child[best] = b
            self.depth += 1
            if self.propagate(child, child_grid, child_placed, [(best, None)]):
                if self.dfs(child, child_grid, child_placed):
                    return True
            self.depth -= 1
            stats["backtracks"] += 1
            self.emit("backtrack", best, b.bit_length())
            m ^= b
            cands[best] = m
            queue = [] if m & (m - 1) else [(best, "naked single")]
            if not self.propagate(cands, grid, placed, queue):
                return False

    def initial(self):
        """The propagated starting state, or None on contradiction."""
        plan = self.plan
        cands = list(plan.domains)
        for c, m in enumerate(cands):
            if not m:
                self.emit("contradiction", reason=f"{self.name(c)} has no allowed value")
                return None
        grid = [0] * len(cands)
        placed = [0] * len(plan.structure.units)
        queue = [(c, "given" if self.givens[c] else "only allowed value")
                 for c, m in enumerate(cands) if not m & (m - 1)]
        if not self.propagate(cands, grid, placed, queue):
            return None
        return cands, grid, placed

    def run(self):
        """Returns (solutions, exhausted, timed_out, stats)."""
        exhausted, timed_out = True, False
        state = self.initial()
        if state is not None:
            try:
                exhausted = not self.dfs(*state)
            except OutOfTime:
                exhausted, timed_out = False, True
        return self.solutions, exhausted, timed_out, self.stats


def reduced_domains(plan: Plan, locked: bool = True):
    """Candidate masks after propagation alone (placed cells as their value's bit), or None."""
    state = GeneralSearch(plan, locked=locked).initial()
    if state is None:
        return None
    cands, grid, _ = state
    return [m or g for m, g in zip(cands, grid)]
