"""Rules speak digits, the model speaks values: the one place that translates.

A rule states its constraints over the digits a cell may hold (`Geometry.digits`: a
killer cage's total is a sum of digits, a whisper compares digits). Every engine
below counts in values 1..V, value v standing for digit `first + v - 1`. With digits
from 1 the two agree and nothing is done; for a 0-indexed puzzle each constraint is
restated here, shifting what it says about grid cells and extra cells (never about a
rule's auxiliary variables, which hold counts or labels, not digits).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import ModelError
from .automaton import Automaton
from .constraints import AllDifferent, Allowed, AnyOf, Constraint, InSet, Less, Regular, Sum
from .geometry import Geometry
from .ranks import FullRank

# Kinds that compare digits only (equal, different, smaller): the same over values.
_ORDER_ONLY = (AllDifferent, Less, FullRank)


def in_values(constraints: Iterable[Constraint], geometry: Geometry) -> list[Constraint]:
    """The constraints, stated over digits, restated over values."""
    shift = geometry.first - 1  # digit = value + shift
    if not shift:
        return list(constraints)
    holding_digits = geometry.ncells + len(geometry.extra)  # the grid's cells, then extra cells
    return [_restated(con, shift, holding_digits) for con in constraints]


_SHIFTED: dict[tuple[int, int], tuple[Automaton, Automaton]] = {}


def _shifted(a: Automaton, shift: int) -> Automaton:
    """The automaton reading values for digits: once per automaton, since a rule shares
    one among its constraints (a Doppelganger's 81) and the engines find what they
    build from it by identity. An entry holds its automaton, so no other takes its id."""
    hit = _SHIFTED.get((id(a), shift))
    if hit is None or hit[0] is not a:
        if len(_SHIFTED) > 256:
            _SHIFTED.clear()
        moved = Automaton(a.start, a.accepting,
                          tuple((s, v - shift, t) for s, v, t in a.transitions), a.window)
        hit = _SHIFTED[id(a), shift] = (a, moved)
    return hit[1]


def _restated(con: Constraint, shift: int, ncells: int) -> Constraint:
    grid = [c < ncells for c in con.cells]
    if isinstance(con, _ORDER_ONLY):
        return con
    if isinstance(con, Sum):
        # sum w * (value + shift) = total
        moved = shift * sum(w for w, g in zip(con.weights(), grid) if g)
        return Sum(con.cells, con.total - moved, con.coeffs, label=con.label)
    if isinstance(con, Allowed):
        return Allowed(con.cells, tuple(tuple(v - shift if g else v for v, g in zip(t, grid))
                                        for t in con.tuples), label=con.label)
    if isinstance(con, InSet) and all(grid):
        return InSet(con.cells, frozenset(v - shift for v in con.values), label=con.label)
    if type(con) is Regular and all(grid):
        return Regular(con.cells, automaton=_shifted(con.automaton, shift), label=con.label)
    if isinstance(con, AnyOf):
        return AnyOf(con.cells, alternatives=tuple(
            tuple(_restated(part, shift, ncells) for part in group)
            for group in con.alternatives), label=con.label)
    raise ModelError(f"{con.describe()}: a {con.kind} constraint is only stated for digits "
                     f"from 1; this puzzle's digits start at {shift + 1}")
