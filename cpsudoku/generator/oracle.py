"""The native engine as a uniqueness oracle: the layout (geometry and rules) is
compiled once, and each question ("a solution of these givens?", "one where cell c
is not v?") is one search over changed candidate masks."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import Any

from ..engine import fast
from ..engine.general import GeneralSearch
from ..engine.plan import Plan, compile_model
from ..grid.puzzle import Puzzle
from ..model import build_model

try:  # the compiled kernel's interface (looked up by name: older engines lack it)
    compiled: Any = import_module("..engine.kernel", __package__)
except ImportError:
    compiled = None

# Locked candidates: everywhere from 16x16 and on sum models; on smaller classic
# grids never (measured: the removal searches run faster without them).
LOCKED_FROM_SIZE = 16


class Oracle:
    """Searches over one puzzle layout (geometry and rules), for any givens."""

    def __init__(self, layout: Puzzle):
        self.layout = layout
        self.size = layout.size
        self.model = build_model(Puzzle(layout.geometry, (0,) * layout.geometry.ncells,
                                        layout.rules))
        plan = compile_model(self.model)
        self.structure = plan.structure
        self.base = plan.domains  # candidate masks the rules allow, before any given
        self.general = bool(self.structure.others)
        self.locked: bool | int = True if self.general or self.size >= LOCKED_FROM_SIZE else False
        # The C kernel answers the uniqueness questions when it is built; fills need
        # a value order (`pick`), which only the Python engine takes.
        self.kernel = compiled is not None and compiled.applicable(plan) is None
        self.searches = 0

    def masks(self, givens: Sequence[int]) -> list[int]:
        base = self.base
        return [base[c] & (1 << (v - 1)) if v else base[c] for c, v in enumerate(givens)]

    def search(self, masks: list[int], limit: int, deadline: float | None = None,
               pick=None) -> list[tuple[int, ...]]:
        """Up to `limit` solutions within the candidate masks (raises TimeoutError past
        the deadline). `pick` chooses the value tried first (see `engine.fast.solve`)."""
        self.searches += 1
        plan = Plan(self.structure, masks)
        if pick is None and self.kernel and compiled is not None:
            solutions, _, timed_out, _ = compiled.solve(plan, limit, deadline, self.locked)
        elif self.general:
            engine = GeneralSearch(plan, None, max_solutions=limit, deadline=deadline,
                                   locked=True, pick=pick)
            solutions, _, timed_out, _ = engine.run()
        else:
            solutions, _, timed_out, _ = fast.solve(plan, limit, deadline, self.locked,
                                                    pick=pick)
        if timed_out:
            raise TimeoutError
        return solutions

    def count(self, givens: Sequence[int], limit: int = 2,
              deadline: float | None = None) -> list[tuple[int, ...]]:
        """Up to `limit` solutions of the givens (raises TimeoutError past the deadline)."""
        return self.search(self.masks(givens), limit, deadline)

    def other_solution(self, givens: Sequence[int], cell: int, value: int,
                       near: Sequence[int], deadline: float | None = None
                       ) -> tuple[int, ...] | None:
        """A solution of the givens (the cell's own given ignored) with `cell` not
        `value`, if any: the one search that tells whether blanking the cell keeps
        the puzzle unique. `near` is the known solution: another one mostly agrees
        with it, so the Python engine tries its values first (measured: a third less
        time on 16x16, the same on 9x9); the C kernel, when built, is faster still
        with its own order."""
        masks = self.masks(givens)
        masks[cell] = self.base[cell] & ~(1 << (value - 1))

        def prefer_near(c: int, mask: int) -> int:
            b = 1 << (near[c] - 1)
            return b if mask & b else mask & -mask
        found = self.search(masks, 1, deadline, pick=None if self.kernel else prefer_near)
        return found[0] if found else None

    def forced(self, givens: Sequence[int], cell: int, value: int) -> bool:
        """Whether the givens alone force `value` into the blank `cell` by one naked or
        hidden single: then blanking it cannot break uniqueness, no search needed."""
        s = self.structure
        bit = 1 << (value - 1)
        seen = 0
        for p in s.peers[cell]:
            if givens[p]:
                seen |= 1 << (givens[p] - 1)
        if (seen | bit) & s.full == s.full and not seen & bit:
            return True
        for u in s.cell_units[cell]:
            for other in s.units[u]:
                if other != cell and not givens[other] and not any(
                        givens[p] == value for p in s.peers[other]):
                    break
            else:
                return True
        return False
