"""A step as data: what a technique found, what it places and removes, and why."""

from __future__ import annotations

from dataclasses import dataclass, field


def cell_name(cell: int, size: int) -> str:
    return f"r{cell // size + 1}c{cell % size + 1}"


def cells_text(cells, size: int) -> str:
    return ",".join(cell_name(c, size) for c in cells)


def eliminations_text(elims, size: int) -> str:
    """HoDoKu's compact form: cells sharing the same removed values are grouped,
    e.g. `r5c3,r6c7<>4` or `r4c5<>7,8,9`."""
    by_cell: dict[int, list[int]] = {}
    for cell, value in elims:
        by_cell.setdefault(cell, []).append(value)
    groups: dict[tuple[int, ...], list[int]] = {}
    for cell, values in by_cell.items():
        groups.setdefault(tuple(sorted(values)), []).append(cell)
    return ", ".join(f"{cells_text(sorted(cells), size)}<>{','.join(map(str, values))}"
                     for values, cells in groups.items())


@dataclass
class Step:
    technique: str
    rating: float
    placements: list[tuple[int, int]]  # (cell index, value)
    eliminations: list[tuple[int, int]]
    cells: list[int]  # the cells that justify the step (for highlighting)
    groups: list[str]  # the houses or rules it reasons about
    text: str  # one sentence in HoDoKu's notation
    size: int = field(default=9, repr=False)
    number: int = 0  # position in an explanation, from 1
    chain: list = field(default_factory=list)  # chain.Branch per chain of a chain step
    # why the step holds, in one sentence a player follows: a rule's technique says it
    # when it makes the step; the solver gives the others the plain-language sentence
    # `words.plain` builds from the step's data (the classic techniques)
    reason: str = ""

    def as_dict(self) -> dict:
        name = lambda c: cell_name(c, self.size)  # noqa: E731
        return {
            "step": self.number,
            "technique": self.technique,
            "rating": self.rating,
            "placements": [f"{name(c)}={v}" for c, v in self.placements],
            "eliminations": [f"{name(c)}<>{v}" for c, v in self.eliminations],
            "text": self.text,
            "reason": self.reason,
            "cells": [name(c) for c in self.cells],
            "groups": list(self.groups),
            "chain": [branch.as_dict() for branch in self.chain],
        }


def make_step(technique: str, rating: float, size: int, *, what: str,
              placements=(), eliminations=(), cells=(), groups=(),
              chain=(), reason: str = "") -> Step:
    """A step whose sentence is `Technique: what => result`."""
    placements = list(placements)
    eliminations = sorted(set(eliminations))
    results = [f"{cell_name(c, size)}={v}" for c, v in placements]
    if eliminations:
        results.append(eliminations_text(eliminations, size))
    text = f"{technique}: {what}" + (f" => {', '.join(results)}" if results else "")
    return Step(technique, round(rating, 1), placements, eliminations, list(cells),
                list(groups), text, size, chain=list(chain), reason=reason)
