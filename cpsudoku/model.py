"""Lowering: a Puzzle becomes a Model (cell domains + constraints) that backends solve.

Givens and unary restrictions are folded into the domains here, once, so no
backend handles them. `find_conflicts` reports contradictory givens before any
search; `lower_for` decomposes what a backend cannot handle natively.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from functools import cache, wraps
from typing import Concatenate, ParamSpec, TypeVar

from .errors import BackendError
from .grid import deadline
from .grid.constraints import AllDifferent, AnyOf, Constraint, InSet
from .grid.puzzle import Puzzle


@dataclass(frozen=True)
class Model:
    puzzle: Puzzle
    domains: tuple[frozenset[int], ...]  # candidate values per cell
    constraints: tuple[Constraint, ...]  # never InSet: those are in the domains
    # Candidate values of the auxiliary variables (see grid.variables), which the
    # constraints name by index after the cells': most puzzles have none.
    aux_domains: tuple[frozenset[int], ...] = ()

    @property
    def size(self) -> int:
        return self.puzzle.geometry.size

    @property
    def width(self) -> int:
        """Cells per row (the side, unless the grid is not square)."""
        return self.puzzle.geometry.width

    @property
    def values(self) -> int:
        """How many values a cell may take (V: the digits' count, N unless stated)."""
        return self.puzzle.geometry.values

    @property
    def all_domains(self) -> tuple[frozenset[int], ...]:
        """The cells' domains, then the auxiliary variables'."""
        return self.domains + self.aux_domains if self.aux_domains else self.domains

    def with_domains(self, domains) -> Model:
        return replace(self, domains=tuple(domains))


@cache
def full_domain(size: int) -> frozenset[int]:
    return frozenset(range(1, size + 1))


@cache
def single(value: int) -> frozenset[int]:
    return frozenset((value,))


@cache
def _domain_by_value(size: int) -> tuple[frozenset[int], ...]:
    """Index v: the domain of a cell given v; index 0: a blank cell's."""
    return (full_domain(size),) + tuple(map(single, range(1, size + 1)))


K = TypeVar("K")
P = ParamSpec("P")
T = TypeVar("T")


def by_identity(compute: Callable[Concatenate[K, P], T]) -> Callable[Concatenate[K, P], T]:
    """compute(key, ...) remembered per key object, found again by identity. Puzzles of
    one geometry and rules share one constraints tuple: finding what was computed from
    it by identity saves hashing every constraint of it on each solve. An entry holds
    its key, so no other object takes that id while it lives; past 64, all are dropped."""
    entries: dict[int, tuple] = {}  # id(key) -> (key, value)

    @wraps(compute)
    def remembered(key: K, *args: P.args, **kwargs: P.kwargs) -> T:
        hit = entries.get(id(key))
        if hit is None or hit[0] is not key:
            if len(entries) > 64:
                entries.clear()
            hit = entries[id(key)] = (key, compute(key, *args, **kwargs))
        return hit[1]

    return remembered


@by_identity
def kinds_of(constraints: tuple[Constraint, ...]) -> frozenset[str]:
    """The kinds in a constraints tuple (found again by identity: see `by_identity`)."""
    return frozenset(con.kind for con in constraints)


def build_model(puzzle: Puzzle) -> Model:
    by_value = _domain_by_value(puzzle.geometry.values)  # Puzzle keeps givens within 0..V
    domains = [by_value[v] for v in puzzle.givens]
    for cell in puzzle.geometry.absent:  # in no constraint: one value, so no branching
        domains[cell] = by_value[1]  # and no extra solutions (results show it as 0)
    everything = puzzle.constraints()
    aux = puzzle.variables.domains()
    if InSet.kind not in kinds_of(everything):
        # the puzzle's own tuple: shared by every puzzle of a geometry, so the
        # backends' per-structure caches find it by identity
        return Model(puzzle, tuple(domains), everything, aux)
    constraints = []
    ncells, every = len(domains), domains + list(aux)  # an InSet may name an extra cell
    for con in everything:
        if isinstance(con, InSet):
            for cell in con.cells:
                every[cell] = every[cell] & con.values
        else:
            constraints.append(con)
    return Model(puzzle, tuple(every[:ncells]), tuple(constraints), tuple(every[ncells:]))


def find_conflicts(model: Model) -> list[str]:
    """Contradictions visible from the givens alone, each naming the cells involved:
    rules the givens already break (see `check.conflicts`) and blank cells that
    the givens leave with no candidate.

    It runs before every solve, so the common case (no conflict) is a bitmask pass.
    """
    puzzle = model.puzzle
    # auxiliary variables are never given: read as blanks, their constraints wait
    givens = puzzle.givens + (0,) * len(model.aux_domains)
    bits = [(1 << v) if v else 0 for v in givens]  # bit v: the given value v
    seen_by = [0] * len(givens)  # values given among each cell's all-different peers
    clash = False
    for con in model.constraints:
        if isinstance(con, AllDifferent):
            present = 0
            for cell in con.cells:
                b = bits[cell]
                if present & b:
                    clash = True
                present |= b
            if present:
                for cell in con.cells:
                    seen_by[cell] |= present
        elif not clash and all(givens[c] for c in con.cells) and not con.check(givens):
            clash = True
    for cell, dom in enumerate(model.domains):
        if givens[cell] and givens[cell] not in dom:
            clash = True
    problems = []
    if clash:
        from .grid.check import conflicts
        problems = [c.message for c in conflicts(puzzle)]
    name = puzzle.geometry.cell_name
    for cell, dom in enumerate(model.domains):
        if not givens[cell] and not _mask(dom) & ~seen_by[cell]:
            problems.append(f"{name(cell)} has no candidate left" if dom
                            else f"{name(cell)} has no allowed value")
    return problems


_MASKS: dict[frozenset[int], int] = {}


def _mask(domain: frozenset[int]) -> int:
    m = _MASKS.get(domain)
    if m is None:
        m = sum(1 << v for v in domain)
        if len(_MASKS) < 4096:
            _MASKS[domain] = m
    return m


# Tries a kind the backend can also take whole gets to list its table: a table that
# takes longer to list than the search it would speed up is not worth it.
QUICK_TRIES = 20_000


def lower_for(model: Model, native_kinds: Collection[str], backend: str = "this backend",
              whole_when_too_big: Collection[str] = ()) -> Model:
    """Decompose every constraint whose kind the backend does not handle natively; a
    kind in `whole_when_too_big` (an AnyOf: its decompose takes `tries`) gets a short
    budget to list its table and stays whole when that is refused."""
    if all(kind in native_kinds for kind in kinds_of(model.constraints)):
        return model
    out: list[Constraint] = []
    for con in model.constraints:
        deadline.check()  # a decomposition may list big tables: within the time limit
        out.extend(_lowered(con, model, native_kinds, backend, whole_when_too_big))
    return replace(model, constraints=tuple(out))


def _lowered(con: Constraint, model: Model, native_kinds: Collection[str], backend: str,
             whole_when_too_big: Collection[str]) -> list[Constraint]:
    """One constraint in the kinds the backend handles: itself, or its decomposition,
    each piece lowered in turn (full rank becomes automata, which become tables
    where a backend has no automata)."""
    if con.kind in native_kinds:
        return [con]
    if (isinstance(con, AnyOf) and "regular" in native_kinds
            and (line := con.as_regular(range(1, model.values + 1))) is not None):
        return [line]  # an either/or along one line: one automaton, no table
    pieces: list[Constraint]
    try:
        pieces = list(con.decompose(model.all_domains, tries=QUICK_TRIES)
                      if isinstance(con, AnyOf) and con.kind in whole_when_too_big
                      else con.decompose(model.all_domains))
    except BackendError:
        if con.kind in whole_when_too_big:
            return [con]
        if "allowed" in native_kinds:  # the table was this backend's way: too big
            raise
        pieces = [con]  # no table would do either: say the kind cannot be expressed
    out: list[Constraint] = []
    for piece in pieces:
        deadline.check()
        if piece.kind in native_kinds:
            out.append(piece)
        elif piece.kind in (con.kind, "allowed"):  # nothing simpler to turn it into
            raise BackendError(f"{con.describe()} ({con.kind}) cannot be expressed "
                               f"for {backend}")
        else:
            out.extend(_lowered(piece, model, native_kinds, backend, whole_when_too_big))
    return out
