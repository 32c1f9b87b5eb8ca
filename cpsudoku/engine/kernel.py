"""The compiled kernel (`_kernel`, C) behind the same interface as `fast.solve`.

The extension is optional: `available()` says whether it was built. A
structure's kernel is built once and cached with its other compiled tables.
"""

from __future__ import annotations

import time

from .plan import Plan

try:
    from . import _kernel  # type: ignore[attr-defined]
except ImportError:  # built without a compiler: the pure-Python engine is used
    _kernel = None

MAX_VALUES = 32 if _kernel is None else _kernel.MAX_VALUES


def available() -> bool:
    return _kernel is not None


def applicable(plan: Plan) -> str | None:
    """Why the kernel cannot search this plan, or None when it can (decided once
    per structure)."""
    return plan.structure.once("kernel_refusal", lambda: _refusal(plan))


def _refusal(plan: Plan) -> str | None:
    if _kernel is None:
        return "the C kernel is not built"
    if plan.structure.others:
        return "the model has constraints other than all-different"
    if not 1 <= plan.size <= MAX_VALUES:
        return f"the kernel handles 1 to {MAX_VALUES} values, not {plan.size}"
    if plan.structure.width != plan.size or plan.nvars != plan.size * plan.size:
        return "the kernel reads N values on an NxN grid"
    return None


def kernel_of(plan: Plan):
    """The structure's kernel (checked and built by the extension once)."""
    assert _kernel is not None
    return plan.structure.once("kernel", lambda: _kernel.Kernel(
        plan.size, plan.units, plan.peers, plan.intersections))


def solve(plan: Plan, max_solutions: int = 1, deadline: float | None = None,
          locked: bool | int = False, pairs: bool = False, probing: bool = False):
    """As `fast.solve`: returns (solutions, exhausted, timed_out, stats).

    With `probing`, the kernel probes more than the Python engine: besides the
    two values of each two-candidate cell, the two places of each value that has
    two places left in a unit (measured on the 25x25 minimal puzzles: 3 to 7
    times fewer nodes, several more puzzles solved within a minute).
    """
    locked_depth = (1 << 30 if locked else 0) if isinstance(locked, bool) else locked
    time_limit = None if deadline is None else max(0.0, deadline - time.monotonic())
    return kernel_of(plan).solve(plan.domains, min(max_solutions, 1 << 62), time_limit,
                                 min(locked_depth, 1 << 30), pairs, 2 if probing else 0)
