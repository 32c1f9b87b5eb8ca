"""Killer puzzles: random connected cages over a solution grid, sums from it, then
repair until unique: a cage holding a cell where a second solution differs is split
in two (a split only adds information, so repairs end), and single-cell cages are
merged back into a neighbour where uniqueness survives."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..grid.puzzle import Puzzle
from ..rules import Cage, Killer
from .jigsaw import connected, neighbours
from .oracle import Oracle

MAX_CAGE = 5


def random_cages(solution: Sequence[int], n: int, rng: random.Random,
                 max_size: int = MAX_CAGE) -> list[list[int]]:
    """A partition of the grid into connected cages of 1..max_size cells whose digits
    (in `solution`) differ."""
    owner = [-1] * (n * n)
    cages: list[list[int]] = []
    order = list(range(n * n))
    rng.shuffle(order)
    for start in order:
        if owner[start] >= 0:
            continue
        cage, digits = [start], {solution[start]}
        owner[start] = len(cages)
        want = rng.randint(2, max_size)
        while len(cage) < want:
            frontier = [x for c in cage for x in neighbours(c, n)
                        if owner[x] < 0 and solution[x] not in digits]
            if not frontier:
                break
            x = rng.choice(frontier)
            owner[x] = len(cages)
            cage.append(x)
            digits.add(solution[x])
        cages.append(cage)
    return cages


def killer_puzzle(layout: Puzzle, cages: Sequence[Sequence[int]], solution: Sequence[int],
                  givens: Sequence[int]) -> Puzzle:
    n = layout.size
    rule = Killer(Cage.of(sum(solution[c] for c in cage),
                          [(c // n + 1, c % n + 1) for c in sorted(cage)]) for cage in cages)
    return Puzzle(layout.geometry, tuple(givens), layout.rules + (rule,))


def split(cage: list[int], at: int, n: int, rng: random.Random) -> list[list[int]]:
    """Two connected parts of a cage, one of them grown from the cell `at`."""
    part = {at}
    rest = set(cage) - part
    target = rng.randint(1, len(cage) - 1)
    while len(part) < target:
        options = [x for c in part for x in neighbours(c, n)
                   if x in rest and connected(rest - {x}, n)] if len(rest) > 1 else []
        if not options:
            break
        x = rng.choice(options)
        part.add(x)
        rest.discard(x)
    if not connected(rest, n):  # cannot happen by construction; keep the cage whole
        return [cage]
    return [sorted(part), sorted(rest)]


def unique_cages(layout: Puzzle, solution: Sequence[int], givens: Sequence[int],
                 rng: random.Random, deadline: float | None) -> tuple[Puzzle, int]:
    """A killer puzzle over `solution` with a unique solution; returns it and the
    number of searches made (raises TimeoutError past the deadline)."""
    n = layout.size
    cages = random_cages(solution, n, rng)
    searches = 0
    while True:
        puzzle = killer_puzzle(layout, cages, solution, givens)
        searches += 1
        found = Oracle(puzzle).count(puzzle.givens, 2, deadline)
        other = next((s for s in found if tuple(s) != tuple(solution)), None)
        if other is None:
            break
        differ = [c for c in range(n * n) if other[c] != solution[c]]
        cell = rng.choice(differ)
        k = next(i for i, cage in enumerate(cages) if cell in cage)
        cages[k:k + 1] = split(cages[k], cell, n, rng)
    cages, merged = merge_singletons(layout, cages, solution, givens, rng, deadline)
    return killer_puzzle(layout, cages, solution, givens), searches + merged


def merge_singletons(layout: Puzzle, cages: list[list[int]], solution: Sequence[int],
                     givens: Sequence[int], rng: random.Random,
                     deadline: float | None) -> tuple[list[list[int]], int]:
    """Merge one-cell cages into a random neighbouring cage (digits still different,
    at most MAX_CAGE cells) when the puzzle stays unique."""
    n = layout.size
    searches = 0
    singles = [cage[0] for cage in cages if len(cage) == 1]
    rng.shuffle(singles)
    for cell in singles:
        k = next((i for i, cage in enumerate(cages) if cage == [cell]), None)
        if k is None:
            continue  # already merged into by another one-cell cage
        hosts = sorted({i for i, cage in enumerate(cages) for x in neighbours(cell, n)
                        if x in cage and i != k and len(cage) < MAX_CAGE
                        and solution[cell] not in {solution[c] for c in cage}})
        rng.shuffle(hosts)
        # One host per cell: each try costs a full killer search (measured: trying
        # every host tripled the time of a 9x9 killer for few fewer one-cell cages).
        for h in hosts[:1]:
            trial = [cage for i, cage in enumerate(cages) if i not in (h, k)]
            trial.append(sorted(cages[h] + [cell]))
            puzzle = killer_puzzle(layout, trial, solution, givens)
            searches += 1
            if len(Oracle(puzzle).count(puzzle.givens, 2, deadline)) == 1:
                cages = trial
                break
    return cages, searches
