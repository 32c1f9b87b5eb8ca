"""The compiled search for models with every constraint kind (`_vkernel`, C).

`engine.kernel` covers all-different models only; this one also takes the
plan's other constraints, each flattened to (kind, cells, data, total):

- a sum whose cells must all differ (a killer cage): its value sets, the same
  table `propagators.DistinctSum` keeps;
- any other sum (little killers, arrows, X/V): its weights;
- a less chain (thermometers, greater-than): its cells alone;
- a table (kropki, anything decomposed): its tuples, flattened;
- a regular constraint (line rules): its automaton's states, start, accepting
  states and transitions.

Same interface as `kernel.solve`; the extension is optional (`available()`).
"""

from __future__ import annotations

import time

from ..grid.constraints import Allowed, Less, Regular, Sum
from .plan import Plan
from .propagators import DistinctSum

try:
    from . import _vkernel  # type: ignore[attr-defined]
except ImportError:  # built without a compiler: the pure-Python engine is used
    _vkernel = None

MAX_VALUES = 32 if _vkernel is None else _vkernel.MAX_VALUES

# Branching choices the kernel offers. Measured on ISS's examples with other
# constraints (nodes to two solutions): the most conflicts per candidate took
# 8,435 on 'Leven against 76,689 for the fewest candidates, 46,321 on The
# Barbed Cross against 904,564 (see docs/benchmarks.md).
CHOICES = {"fewest": 0, "fewest-conflicts": 1, "conflicts": 2}
DEFAULT_CHOICE = "conflicts"


def available() -> bool:
    return _vkernel is not None


def applicable(plan: Plan) -> str | None:
    """Why this kernel cannot search the plan, or None when it can (once per structure)."""
    return plan.structure.once("vkernel_refusal", lambda: _refusal(plan))


def _refusal(plan: Plan) -> str | None:
    if _vkernel is None:
        return "the C kernel for variants is not built"
    if not 1 <= plan.size <= MAX_VALUES:
        return f"the kernel handles 1 to {MAX_VALUES} values, not {plan.size}"
    for con in plan.structure.others:
        if not isinstance(con, (Sum, Less, Allowed, Regular)):
            return f"no compiled propagator for {con.kind} constraints"
    return None


def flat(con, structure) -> tuple[int, tuple[int, ...], tuple[int, ...], int]:
    """One constraint as the extension reads it: (kind, cells, data, total)."""
    assert _vkernel is not None
    if isinstance(con, Sum):
        combos = DistinctSum.combinations(con, structure)
        if combos is not None:
            return _vkernel.CAGE, con.cells, combos, con.total
        return _vkernel.SUM, con.cells, con.weights(), con.total
    if isinstance(con, Less):
        return _vkernel.LESS, con.cells, (), 0
    if isinstance(con, Allowed):
        return _vkernel.TABLE, con.cells, tuple(v for row in con.tuples for v in row), 0
    if isinstance(con, Regular):
        a = con.automaton
        accepting = tuple(sorted(a.accepting))
        data = (a.states, a.start, len(accepting), *accepting,
                *(x for t in a.transitions for x in t))
        return _vkernel.REGULAR, con.cells, data, 0
    raise TypeError(f"no compiled propagator for {con.kind} constraints")


def vkernel_of(plan: Plan):
    """The structure's kernel (checked and built by the extension once)."""
    assert _vkernel is not None
    s = plan.structure
    return s.once("vkernel", lambda: _vkernel.VKernel(
        s.size, s.units, s.peers, s.intersections, [flat(con, s) for con in s.others]))


def solve(plan: Plan, max_solutions: int = 1, deadline: float | None = None,
          locked: bool | int = False, choice: str = DEFAULT_CHOICE):
    """As `kernel.solve`: returns (solutions, exhausted, timed_out, stats).

    `choice`: the branching cell, "fewest" candidates (the first found),
    "fewest-conflicts" (ties broken by how often a cell took part in a failure)
    or "conflicts" (the most failures per candidate)."""
    locked_depth = (1 << 30 if locked else 0) if isinstance(locked, bool) else locked
    time_limit = None if deadline is None else max(0.0, deadline - time.monotonic())
    return vkernel_of(plan).solve(plan.domains, min(max_solutions, 1 << 62), time_limit,
                                  min(locked_depth, 1 << 30), CHOICES[choice])
