"""Rules written as data: relations given as expressions or tables, regular-expression
lines and automata, so that a setter adds a rule without writing Python.

- `relations`: a relation between two cells' values, written in the expression
  language of `expressions.py` (`abs(a - b) >= 5`) or as the list of allowed value
  pairs; it holds between consecutive cells of a line (`mode = "line"`, ISS's Pair),
  between every two cells listed (`"all"`, ISS's PairX) or reads all the cells at
  once (`"cells"`: a, b, c ... in order). Each lowers to `Allowed` tables, evaluated
  once per tuple of values.
- `regex_lines`: the digits along the line match a pattern (`regex.py`), lowered to
  the `Regular` kind.
- `automata`: a finite automaton given as states and transitions on digits, read
  along the line (ISS's NFA), also lowered to `Regular`.

Values, pairs, patterns and transitions are the grid's digits as shown (0..8 on a
0-indexed 9x9), as ISS's relations and regular expressions read them.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from ..errors import ModelError
from ..grid.automaton import MAX_GIVEN_STATES, Automaton, given_size_problem
from ..grid.constraints import AllDifferent, Allowed, Constraint, Regular
from ..grid.geometry import Geometry
from . import cells as C
from . import expressions, regex
from .alphabet import digit_range, shown
from .element import ElementRule

MODES = ("line", "all", "cells")
MAX_TABLE = 200_000  # value tuples a "cells" relation may list
MAX_STATES = MAX_GIVEN_STATES  # state numbers of an automaton given as data: 0..4095


# ---------------------------------------------------------------- relations

@dataclass(frozen=True)
class Relation:
    """Cells, and either an expression or the allowed value pairs (a, b)."""

    cells: tuple[C.CellRef, ...]
    expression: str | None = None
    pairs: tuple[tuple[int, int], ...] | None = None
    mode: str = "line"
    name: str = ""


class Relations(ElementRule):
    name: ClassVar[str] = "relations"
    noun: ClassVar[str] = "relation"
    key: ClassVar[str] = "relations"
    meaning: ClassVar[str] = ("a relation written as an expression over the values a, b "
                              "(abs(a - b) >= 5) or as allowed pairs, between consecutive "
                              "cells, every pair of cells, or all the cells at once")

    def describe(self) -> str:
        return f"relations ({len(self.elements)}): custom relations between cells"

    def label(self, i, element):
        named = f" {element.name!r}" if element.name else ""
        at = f" at {C.name(element.cells[0])}" if element.cells else ""
        return f"{self.noun} {i}{named}{at}"

    def data(self):
        out = []
        for r in self.elements:
            entry: dict = {"cells": C.names(r.cells)}
            if r.expression is not None:
                entry["expression"] = r.expression
            else:
                entry["pairs"] = [list(p) for p in r.pairs or ()]
            if r.mode != "line":
                entry["mode"] = r.mode
            if r.name:
                entry["name"] = r.name
            out.append(entry)
        return {self.key: out}

    def check_element(self, i, element, geometry):
        what = self.label(i, element)
        if element.mode not in MODES:
            raise ModelError(f"{what}: mode {element.mode!r} is not one of {', '.join(MODES)}")
        if len(element.cells) < 2:
            raise ModelError(f"{what} needs at least two cells")
        cells = C.resolve(element.cells, geometry, what)
        if (element.expression is None) == (element.pairs is None):
            raise ModelError(f"{what}: give either an expression or pairs")
        if element.mode == "cells":
            if element.expression is None:
                raise ModelError(f"{what}: mode 'cells' reads all its cells at once: give an "
                                 f"expression over {expressions.NAMES[:len(cells)]}")
            if len(cells) > len(expressions.NAMES):
                raise ModelError(f"{what}: mode 'cells' reads at most "
                                 f"{len(expressions.NAMES)} cells, not {len(cells)}")
            count = len(geometry.digits)
            if count ** len(cells) > MAX_TABLE:
                raise ModelError(f"{what}: {len(cells)} cells of {shown(geometry.digits)} are "
                                 f"too many value tuples ({count ** len(cells)}) to list; "
                                 f"split the relation")
        if not self.table(element, geometry.digits, what, len(cells)):
            raise ModelError(f"{what}: no values {shown(geometry.digits)} satisfy it")
        return cells

    @staticmethod
    def table(element: Relation, digits: int | range, what: str,
              width: int) -> tuple[tuple[int, ...], ...]:
        """The digit tuples the relation allows (pairs, or `width`-tuples for "cells");
        `digits` a range, or n for 1..n."""
        digits = digit_range(digits)
        if element.pairs is not None:
            for pair in element.pairs:
                if not all(v in digits for v in pair):
                    raise ModelError(f"{what}: pair {list(pair)} is outside {shown(digits)}")
            return tuple(sorted(set(element.pairs)))
        arity = width if element.mode == "cells" else 2
        assert element.expression is not None
        expression = expressions.parse(element.expression, what, arity)
        return tuple(t for t in itertools.product(digits, repeat=arity)
                     if expression.holds(t))

    def element_constraints(self, i, element, cells, geometry):
        what = self.label(i, element)
        table = self.table(element, geometry.digits, what, len(cells))
        if element.mode == "cells":
            return [Allowed(cells, table, label=what)]
        if element.mode == "line":
            pairs = list(zip(cells, cells[1:]))
        else:
            pairs = list(itertools.combinations(cells, 2))
        out: list[Constraint] = [Allowed(pair, table, label=what) for pair in pairs]
        if element.mode == "all" and len(cells) > 2 and not any(a == b for a, b in table):
            # Every pair differs: the group is all-different, which says as much and
            # lets an engine take the sets of values the group can hold (ISS's
            # Nabner, groups of pairwise non-consecutive digits)
            out.append(AllDifferent(cells, label=what))
        return out


# ---------------------------------------------------------------- lines read by automata

class _AutomatonLines(ElementRule):
    """Lines whose digits, read in order, form a word of an automaton."""

    key: ClassVar[str]
    meaning: ClassVar[str]

    def describe(self) -> str:
        return f"{self.key.replace('_', ' ')} ({len(self.elements)}): {self.meaning}"

    def label(self, i, element):
        return f"{self.noun} {i}" + (f" at {C.name(element.cells[0])}" if element.cells else "")

    def automaton(self, element, geometry: Geometry, what: str) -> Automaton:
        raise NotImplementedError  # pragma: no cover - overridden

    def check_element(self, i, element, geometry):
        what = self.label(i, element)
        if not element.cells:
            raise ModelError(f"{what} needs at least one cell")
        cells = C.resolve(element.cells, geometry, what)
        automaton = self.automaton(element, geometry, what)
        if not automaton.fits(len(cells), geometry.digits):
            raise ModelError(f"{what}: no digits {shown(geometry.digits)} along its "
                             f"{len(cells)} cells are accepted")
        return cells

    def element_constraints(self, i, element, cells, geometry):
        what = self.label(i, element)
        return [Regular(cells, automaton=self.automaton(element, geometry, what), label=what)]


@dataclass(frozen=True)
class RegexLine:
    cells: tuple[C.CellRef, ...]
    pattern: str


class RegexLines(_AutomatonLines):
    name: ClassVar[str] = "regex-lines"
    noun: ClassVar[str] = "regex line"
    key: ClassVar[str] = "regex_lines"
    meaning: ClassVar[str] = ("the digits along the line, read as a string, match the "
                              "regular expression (digits, ., [..], ( ), |, *, +, ?, {m,n})")

    def data(self):
        return {self.key: [{"cells": C.names(e.cells), "pattern": e.pattern}
                           for e in self.elements]}

    def automaton(self, element, geometry, what):
        return regex.compile_pattern(element.pattern, geometry.digits, what)


@dataclass(frozen=True)
class AutomatonLine:
    """States are numbers; `starts` holds one start state or several (ISS's NFAs)."""

    cells: tuple[C.CellRef, ...]
    starts: tuple[int, ...]
    accepting: tuple[int, ...]
    transitions: tuple[tuple[int, int, int], ...]
    name: str = ""


class Automata(_AutomatonLines):
    name: ClassVar[str] = "automata"
    noun: ClassVar[str] = "automaton"
    key: ClassVar[str] = "automata"
    meaning: ClassVar[str] = ("the digits along the line are a word the automaton accepts "
                              "(states, start, accepting, transitions [state, digit, next])")

    def label(self, i, element):
        named = f" {element.name!r}" if element.name else ""
        return super().label(i, element).replace(f"{self.noun} {i}", f"{self.noun} {i}{named}",
                                                 1)

    def data(self):
        out = []
        for e in self.elements:
            entry: dict = {"cells": C.names(e.cells),
                           "start": e.starts[0] if len(e.starts) == 1 else list(e.starts),
                           "accepting": list(e.accepting),
                           "transitions": [list(t) for t in e.transitions]}
            if e.name:
                entry["name"] = e.name
            out.append(entry)
        return {self.key: out}

    def automaton(self, element, geometry, what):
        # Known by the transitions' identity (the rule holds them): lines that share
        # one list skip hashing its hundreds of transitions again (Stepped Thermos).
        known = self.__dict__.setdefault("_automata", {})
        mine = (id(element.transitions), element.starts, element.accepting, geometry.digits)
        held, found = known.get(mine, (None, None))
        if held is not element.transitions:  # (an id is only trusted with its object)
            key = (element.starts, element.accepting, element.transitions)
            problem = _problem(*key, geometry.digits)
            if problem:
                raise ModelError(f"{what}: {problem}")
            found = _built(*key)
            known[mine] = (element.transitions, found)
        return found


# An automaton given as data is checked and built once for all the lines that carry it
# (ISS copies one NFA onto many lines: its Stepped Thermos, 54 of them).

@cache
def _problem(starts: tuple[int, ...], accepting: tuple[int, ...],
             transitions: tuple[tuple[int, int, int], ...], digits: range) -> str | None:
    """What is wrong with an automaton given as data, or None."""
    states = [*starts, *accepting, *(s for t in transitions for s in (t[0], t[2]))]
    if not starts:
        return "give a start state"
    if any(s < 0 or s >= MAX_STATES for s in states):
        bad = next(s for s in states if s < 0 or s >= MAX_STATES)
        return f"state {bad} is outside 0..{MAX_STATES - 1}"
    too_large = given_size_problem(max(states) + 1, len(transitions))
    if too_large:
        return too_large
    for t in transitions:
        if t[1] not in digits:
            return f"transition {list(t)} reads {t[1]}, outside the digits {shown(digits)}"
    return None


@cache
def _built(starts: tuple[int, ...], accepting: tuple[int, ...],
           transitions: tuple[tuple[int, int, int], ...]) -> Automaton:
    if len(starts) == 1:
        return Automaton(starts[0], frozenset(accepting), tuple(sorted(set(transitions))))
    # several start states: one new start that moves as any of them does
    fresh = max(s for t in transitions for s in (t[0], t[2])) + 1 if transitions else 0
    fresh = max([fresh, *(s + 1 for s in (*starts, *accepting))])
    first = set(starts)
    moves = {(fresh, v, t) for s, v, t in transitions if s in first}
    finals = set(accepting) | ({fresh} if first & set(accepting) else set())
    return Automaton(fresh, frozenset(finals), tuple(sorted(set(transitions) | moves)))


CUSTOM_RULES = (Relations, RegexLines, Automata)


def constraints_of(rules: Iterable[ElementRule], geometry: Geometry) -> list[Constraint]:
    """Every constraint of several element rules on one geometry (for composites)."""
    return [con for rule in rules for con in rule.constraints(geometry)]
