"""Lowering: a Puzzle becomes a Model (cell domains + constraints) that backends solve.

Givens and unary restrictions are folded into the domains here, once, so no
backend handles them. `find_conflicts` reports contradictory givens before any
search; `lower_for` decomposes what a backend cannot handle natively.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Collection

from .constraints import AllDifferent, Constraint, InSet
from .puzzle import Puzzle


@dataclass(frozen=True)
class Model:
    puzzle: Puzzle
    domains: tuple[frozenset[int], ...]  # candidate values per cell
    constraints: tuple[Constraint, ...]  # never InSet: those are in the domains

    @property
    def size(self) -> int:
        return self.puzzle.geometry.size

    def with_domains(self, domains) -> "Model":
        return replace(self, domains=tuple(domains))


_FULL: dict[int, frozenset[int]] = {}
_SINGLE: dict[int, frozenset[int]] = {}


def full_domain(size: int) -> frozenset[int]:
    d = _FULL.get(size)
    if d is None:
        d = _FULL[size] = frozenset(range(1, size + 1))
    return d


def single(value: int) -> frozenset[int]:
    d = _SINGLE.get(value)
    if d is None:
        d = _SINGLE[value] = frozenset((value,))
    return d


def build_model(puzzle: Puzzle) -> Model:
    full = full_domain(puzzle.size)
    domains = [single(v) if v else full for v in puzzle.givens]
    constraints = []
    for con in puzzle.constraints():
        if isinstance(con, InSet):
            for cell in con.cells:
                domains[cell] = domains[cell] & con.values
        else:
            constraints.append(con)
    return Model(puzzle, tuple(domains), tuple(constraints))


def find_conflicts(model: Model) -> list[str]:
    """Contradictions visible from the givens alone, each naming the cells involved:
    rules the givens already break (see `check.conflicts`) and blank cells that
    the givens leave with no candidate."""
    from .check import conflicts
    puzzle = model.puzzle
    givens, name = puzzle.givens, puzzle.geometry.cell_name
    problems = [c.message for c in conflicts(puzzle)]
    excluded: dict[int, set[int]] = {}
    for con in model.constraints:
        if isinstance(con, AllDifferent):
            present = {givens[c] for c in con.cells} - {0}
            if present:
                for cell in con.cells:
                    if not givens[cell]:
                        excluded.setdefault(cell, set()).update(present)
    for cell, gone in excluded.items():
        if not (model.domains[cell] - gone):
            problems.append(f"{name(cell)} has no candidate left")
    for cell, dom in enumerate(model.domains):
        if not dom:
            problems.append(f"{name(cell)} has no allowed value")
    return problems


def lower_for(model: Model, native_kinds: Collection[str]) -> Model:
    """Decompose every constraint whose kind the backend does not handle natively."""
    if all(con.kind in native_kinds for con in model.constraints):
        return model
    out: list[Constraint] = []
    for con in model.constraints:
        if con.kind in native_kinds:
            out.append(con)
        else:
            pieces = con.decompose(model.domains)
            if not all(p.kind in native_kinds for p in pieces):
                from .errors import BackendError
                raise BackendError(f"{con.describe()} ({con.kind}) cannot be expressed "
                                   f"for this backend")
            out.extend(pieces)
    return replace(model, constraints=tuple(out))
