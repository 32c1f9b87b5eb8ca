"""The technique registry: each technique is a name, an SE rating and a finder.

A finder takes a `State` and yields steps, easiest and first-found first; the
solver asks the techniques in `order` (SE's order, which follows the rating)
and applies the first step of the first one that makes progress. A new
technique is one decorated function in any module of `logic.techniques`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .state import State
from .step import Step

Finder = Callable[[State], Iterator[Step]]


@dataclass(frozen=True)
class Technique:
    name: str
    rating: float  # the SE rating (the lowest, for techniques with a length term)
    order: float  # when it is tried; equal to the rating unless SE tries it elsewhere
    find: Finder
    needs_unique: bool = False  # uniqueness arguments are sound only for unique puzzles
    classic_only: bool = False  # relies on rows/columns/boxes only
    # SE asks its chain techniques in stages and takes the easiest step of the first
    # stage that has one, even when a later stage would have an easier one
    stage: str | None = None
    # the nested levels (9.0 and up): on a variant puzzle they may search for minutes
    # where nothing applies, so there they run only when asked for (`Solver(deep=True)`)
    deep: bool = False
    # read from the variant rules or the engine's propagation: never offered on SE's own
    # grid, whose ladder (and ratings) stay SE's
    variant_only: bool = False
    # sound on any grid the logical solver reads, square or not, whatever its digits, a
    # multi-grid board too: it reads houses only as groups holding every digit (never as
    # a grid's rows, columns and boxes), and names cells by the width
    any_grid: bool = False
    # its steps found on one grid at the first one's rating are all taken before the
    # ladder starts again from the singles: each stays sound on the grid the earlier
    # ones leave (fewer candidates only bring a contradiction sooner), and the ladder's
    # easier techniques, which found nothing on that grid, are not asked again for each
    batch: bool = False


REGISTRY: list[Technique] = []


def technique(name: str, rating: float, *, order: float | None = None,
              needs_unique: bool = False, classic_only: bool = False,
              stage: str | None = None, deep: bool = False, variant_only: bool = False,
              any_grid: bool = False, batch: bool = False):
    """Register a finder as a technique."""
    def register(find: Finder) -> Finder:
        REGISTRY.append(Technique(name, rating, rating if order is None else order, find,
                                  needs_unique, classic_only, stage, deep, variant_only,
                                  any_grid, batch))
        REGISTRY.sort(key=lambda t: t.order)
        return find
    return register


def all_techniques() -> list[Technique]:
    from . import techniques  # noqa: F401  (importing registers every technique)
    return list(REGISTRY)
