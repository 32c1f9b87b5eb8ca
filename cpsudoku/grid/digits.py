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
from .constraints import (
    AllDifferent,
    Allowed,
    AnyOf,
    Constraint,
    InSet,
    Less,
    Regular,
    SameCount,
    SameSet,
    Sandwich,
    Sum,
    XSum,
)
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


_MOVED: dict[tuple, tuple[object, object]] = {}  # (id, how) -> (the object, its restatement)


def _once(obj, how: tuple, make):
    """`make()`, the restatement of `obj` (an automaton, a table's rows), once per
    object: a rule shares one among its constraints (a Doppelganger's 81 automata, a
    0-indexed XV's 144 negative dots' rows), and the engines find what they build from
    it by identity. An entry holds its object, so no other takes its id."""
    key = (id(obj), *how)
    hit = _MOVED.get(key)
    if hit is None or hit[0] is not obj:
        if len(_MOVED) > 512:
            _MOVED.clear()
        hit = _MOVED[key] = (obj, make())
    return hit[1]


def _shifted(a: Automaton, shift: int) -> Automaton:
    """The automaton reading values for digits."""
    return _once(a, (shift,), lambda: Automaton(
        a.start, a.accepting, tuple((s, v - shift, t) for s, v, t in a.transitions), a.window))


def _shifted_rows(rows: tuple, shift: int, grid: tuple[bool, ...]) -> tuple:
    """A table's rows over values (digits shifted in the grid's cells only)."""
    return _once(rows, (shift, grid), lambda: tuple(
        tuple(v - shift if g else v for v, g in zip(t, grid)) for t in rows))


def _restated(con: Constraint, shift: int, ncells: int) -> Constraint:
    grid = [c < ncells for c in con.cells]
    if isinstance(con, _ORDER_ONLY):
        return con
    if isinstance(con, Sum):
        # sum w * (value + shift) = total
        moved = shift * sum(w for w, g in zip(con.weights(), grid) if g)
        return Sum(con.cells, con.total - moved, con.coeffs, label=con.label)
    if isinstance(con, Allowed):
        return Allowed(con.cells, _shifted_rows(con.tuples, shift, tuple(grid)), label=con.label)
    if isinstance(con, InSet) and all(grid):
        return InSet(con.cells, frozenset(v - shift for v in con.values), label=con.label)
    if (type(con) is Regular or isinstance(con, (Sandwich, XSum))) and all(grid):
        # a sandwich's or x-sum's total over digits is no total over values: its
        # automaton alone
        return Regular(con.cells, automaton=_shifted(con.automaton, shift), label=con.label)
    if isinstance(con, SameCount) and all(grid):
        return SameCount(con.cells, values=range(con.values.start - shift,
                                                 con.values.stop - shift),
                         value=con.value - shift, label=con.label)
    if isinstance(con, SameSet) and all(grid):
        return SameSet(con.cells, values=range(con.values.start - shift, con.values.stop - shift),
                       label=con.label)
    if isinstance(con, AnyOf):
        return AnyOf(con.cells, alternatives=tuple(
            tuple(_restated(part, shift, ncells) for part in group)
            for group in con.alternatives), label=con.label)
    raise ModelError(f"{con.describe()}: a {con.kind} constraint is only stated for digits "
                     f"from 1; this puzzle's digits start at {shift + 1}")
