"""The engine's propagation read by the logical solver: what every rule, house and
single makes of a grid of pencil marks, and who removed what.

The native engine's compiled kernel (`backends.native.propagation_kernel`) runs the
same passes the search runs: each constraint kind's own (sums with their
combinations, orders, tables, automata, counts, either/or), hidden and naked
singles, locked candidates. `probe` tries every candidate of a grid and names the
ones whose propagation fails, "if r3c5 were 4, the arrow at r6c2 could not add up";
`trace` replays one of them with each removal's source, so a step can say which
rule forced what. The logical solver attaches its puzzle's model to its layout
(`attach`); a layout without a kernel (the extension not built, a construction
the kernel does not read) has no probe.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..backends.native import propagation_kernel
from ..engine.clock import OutOfTime, check_clock
from ..model import Model
from .state import Layout, State

# the kernel's sources of removals (see the extension's `propagate`)
START, PEERS, UNIT, RULE, LOCKED = range(5)

MAX_LAYOUTS = 64  # layouts kept with their kernels; past it they are built again
_ATTACHED: dict[int, tuple[Layout, Model]] = {}  # id(layout) -> (layout, model)
_BUILT: dict[int, tuple[Layout, Prober | None]] = {}


def attach(layout: Layout, model: Model) -> None:
    """Let the techniques probe grids of `layout` with `model`'s constraints."""
    if _ATTACHED.get(id(layout), (None,))[0] is not layout:
        if len(_ATTACHED) >= MAX_LAYOUTS:  # a long-running server meets many layouts
            _ATTACHED.clear()
            _BUILT.clear()
        _ATTACHED[id(layout)] = (layout, model)
        _BUILT.pop(id(layout), None)


def prober(layout: Layout) -> Prober | None:
    """The layout's prober, built on first use; None without a kernel for it."""
    hit = _BUILT.get(id(layout))
    if hit is not None and hit[0] is layout:
        return hit[1]
    model = _ATTACHED.get(id(layout))
    built = None
    if model is not None and model[0] is layout:
        found = propagation_kernel(model[1])
        if found is not None:
            built = Prober(layout, *found)
    _BUILT[id(layout)] = (layout, built)
    return built


@dataclass
class Event:
    """One removal of a traced propagation: `values` taken from `cell` by `source`."""

    kind: int
    index: int
    cell: int
    values: int


@dataclass
class Failure:
    """Where a propagation broke: the source, and the cell it emptied (or -1)."""

    kind: int
    index: int
    cell: int


class Prober:
    """One layout's compiled propagation."""

    def __init__(self, layout: Layout, plan, kernel, sources) -> None:
        self.layout = layout
        self.plan = plan
        self.kernel = kernel
        self.sources = sources  # per kernel constraint: the model constraints behind it
        self.cells = list(range(len(layout.houses_of)))  # the grid's cells
        labels = {frozenset(h.cells): h.label for h in layout.houses}
        self.units = [labels.get(frozenset(unit), "a house") for unit in plan.structure.units]
        self.intersections = plan.structure.intersections
        self._last: tuple | None = None  # the last grid probed and what it gave

    def domains(self, state: State) -> list[int]:
        """The state's pencil marks (a placed cell: its value) and, for a rule's
        unknowns beside the grid, their domains in the model."""
        out = list(self.plan.domains)
        for cell in self.cells:
            v = state.values[cell]
            out[cell] = 1 << (v - 1) if v else state.cand[cell]
        return out

    def contradictions(self, state: State, locked: bool = True,
                       time_limit: float | None = None) -> list[tuple[int, int, int]] | None:
        """(removals before the failure, cell, value) for every candidate whose
        placement fails under propagation, or None when the grid itself fails;
        OutOfTime when the time limit passes first."""
        key = (tuple(state.values), tuple(state.cand), locked)
        if self._last is not None and self._last[0] == key:
            return self._last[1]  # the easier techniques and the harder ask the same grid
        root, found, timed_out = self.kernel.probe(self.domains(state), self.cells,
                                                   locked, time_limit)
        if timed_out:
            raise OutOfTime
        if root is None:
            return None
        out = sorted((cost, cell, value) for cell, value, cost in found)
        self._last = (key, out)
        return out

    def rule_cells(self, index: int) -> list[int]:
        """The grid cells of the kernel's constraint `index` (of the rules behind it)."""
        ncells = len(self.cells)
        return sorted({c for con in self.sources[index] for c in con.cells if c < ncells})

    def trace(self, state: State, cell: int | None, value: int,
              locked: bool = True) -> tuple[list[Event], Failure | None]:
        """The removals that follow from placing `value` in `cell` (None: from the
        grid as it is), in order, and the failure they end in (None: they end in a
        fixpoint)."""
        domains = self.domains(state)
        if cell is not None:
            domains[cell] = 1 << (value - 1)
        return self.trace_domains(domains, locked)

    def trace_domains(self, domains: list[int],
                      locked: bool = True) -> tuple[list[Event], Failure | None]:
        """`trace` from these domains (every variable's, as `domains` gives them)."""
        _, events, failure = self.kernel.propagate(domains, locked, True)
        return ([Event(*e) for e in events],
                None if failure is None else Failure(*failure))

    def source_text(self, kind: int, index: int) -> str:
        """The rule, house or single a removal or failure comes from."""
        if kind == RULE:
            return self.sources[index][0].describe()
        if kind == UNIT:
            return self.units[index]
        if kind == PEERS:
            return f"{self.layout.name(index)}'s peers"
        if kind == LOCKED:
            return "locked candidates"
        return "the pencil marks"


@dataclass
class Nested:
    """A contradiction one level down: placing the assumption, the contradictions of
    the grid it leaves (`inner`, each (cell, value, size) in the order they were
    found and struck out) lead to a grid whose propagation fails."""

    inner: list[tuple[int, int, int]]
    domains: list[int]  # the grid before its last propagation, inner removals made


def nested(p: Prober, state: State, cell: int, value: int,
           deadline: float | None) -> Nested | None:
    """Whether placing `value` in `cell` fails once the contradictions of the grid it
    leaves are struck out, again and again: the removals on the way, or None (no
    failure); OutOfTime when the deadline passes first."""
    domains = p.domains(state)
    domains[cell] = 1 << (value - 1)
    inner: list[tuple[int, int, int]] = []
    while True:
        check_clock(deadline)
        left = None if deadline is None else deadline - time.monotonic()
        root, found, timed_out = p.kernel.probe(domains, p.cells, True, left)
        if root is None:
            start = p.domains(state)
            start[cell] = 1 << (value - 1)
            inner = _fewest(p, start, inner)
            for c, v, _ in inner:
                start[c] &= ~(1 << (v - 1))
            return Nested(inner, start)
        if timed_out:
            raise OutOfTime
        if not found:
            return None
        for c, v, size in found:
            domains[c] &= ~(1 << (v - 1))
            inner.append((c, v, size))


def _fewest(p: Prober, start: list[int],
            inner: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The inner contradictions the failure needs: each of the others left out in
    turn (the last found first) while the grid they all leave still fails and the
    ones after it, in order, still hold on the grid those before them leave (the
    ones before it read a grid it never touched)."""
    def grid(kept: list[tuple[int, int, int]]) -> list[int]:
        domains = list(start)
        for c, v, _ in kept:
            domains[c] &= ~(1 << (v - 1))
        return domains

    def fails(domains: list[int]) -> bool:
        return p.kernel.propagate(domains, True)[0] is None

    kept = list(inner)
    for drop in reversed(inner):
        at = next(i for i, x in enumerate(kept) if x is drop)
        fewer = kept[:at] + kept[at + 1:]
        if not fails(grid(fewer)):  # the failure needs it: the cheap test first
            continue
        domains = grid(fewer[:at])
        for c, v, _ in fewer[at:]:
            trial = list(domains)
            trial[c] = 1 << (v - 1)
            if not fails(trial):
                break
            domains[c] &= ~(1 << (v - 1))
        else:
            kept = fewer
    return kept
