"""Clue removal: blank cells (with their symmetric partners) in random order while
the puzzle stays unique. Each orbit is tried once: a removal that fails now
fails for every later, smaller set of clues, so the result is minimal."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from . import symmetry as sym
from .oracle import Oracle
from .unavoidable import left_bare, two_value_sets


def keeps_unique(oracle: Oracle, givens: Sequence[int], orbit: Sequence[int],
                 solution: Sequence[int], deadline: float | None,
                 unavoidable: Sequence[Sequence[tuple[int, ...]]] | None = None) -> bool:
    """Whether the puzzle stays unique with the orbit's cells blanked: no solution
    differs from `solution` at any of them (at most one search per cell of the orbit;
    none for a cell a single forces, or whose blanking bares an unavoidable set)."""
    trial = list(givens)
    for cell in orbit:
        trial[cell] = 0
    for cell in orbit:
        if oracle.forced(trial, cell, solution[cell]):
            continue
        if unavoidable is not None and left_bare(unavoidable[cell], trial):
            return False
        if oracle.other_solution(trial, cell, solution[cell], solution, deadline) is not None:
            return False
    return True


def remove_clues(oracle: Oracle, solution: Sequence[int], rng: random.Random,
                 symmetry: str = "none", target: int | None = None,
                 deadline: float | None = None, start: Sequence[int] | None = None,
                 accept: Callable[[list[int]], bool] | None = None) -> list[int]:
    """Givens taken from `solution` (or the clues of `start`), blanked orbit by orbit
    in random order while the puzzle stays unique; stops early once at most `target`
    clues are left. `accept(givens)` can refuse a blanking that keeps uniqueness
    (e.g. one that makes the puzzle too hard). Raises TimeoutError past the deadline."""
    givens = list(start if start is not None else solution)
    orbits = [o for o in sym.orbits(symmetry, oracle.size) if all(givens[c] for c in o)]
    rng.shuffle(orbits)
    clues = sum(1 for v in givens if v)
    unavoidable = two_value_sets(oracle, solution)
    for orbit in orbits:
        if target is not None and clues <= target:
            break
        if keeps_unique(oracle, givens, orbit, solution, deadline, unavoidable):
            trial = [0 if c in orbit else v for c, v in enumerate(givens)]
            if accept is None or accept(trial):
                givens = trial
                clues -= len(orbit)
    return givens
