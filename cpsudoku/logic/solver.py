"""The SE loop: at each point take the easiest step that makes progress, apply it, repeat.

Techniques are tried in SE's order; a technique whose rating depends on the
length of its chain may find a harder step than the next technique's base
rating, so the search goes on while a later technique could still be easier,
except across SE's chain stages (aligned pairs, chains, aligned triplets,
Nishio, multiple, dynamic): there the first stage with a step wins, as in SE.
When nothing applies, the solver stops there: the explanation is left unfinished
rather than carried on with a value read from the solution, which would explain
nothing. The solution is searched for only to refuse puzzles with no or several
solutions and to judge a player's entries, never to make a step.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from dataclasses import replace
from itertools import takewhile

from ..api import _solve_built, as_puzzle
from ..engine.clock import OutOfTime
from ..errors import CpsudokuError, ExitCode, ModelError
from ..grid.puzzle import Puzzle
from ..grid.variables import EXTRA
from ..model import Model, build_model, find_conflicts
from ..result import Status
from . import probing
from .state import Layout, State, layout_of
from .step import Step
from .technique import Technique, all_techniques
from .words import plain


class Unsolvable(CpsudokuError):
    """The puzzle (or the grid given as the current state) has no solution."""

    exit_code = ExitCode.UNSOLVABLE


class RatingTimeout(CpsudokuError):
    """The time limit passed before the logical solver reached the end."""

    exit_code = ExitCode.TIMEOUT


class NotUnique(CpsudokuError):
    """The puzzle has several solutions: Sudoku Explainer and HoDoKu refuse to rate it."""

    exit_code = ExitCode.NOT_UNIQUE


class Solver:
    """One puzzle's layout, solution and the techniques that are sound for it.

    A puzzle with several solutions is refused (`NotUnique`) unless `allow_multiple`:
    then the techniques that assume one solution are left out.

    `time_limit` bounds the search for the solution and its uniqueness (on a 25x25 it
    can take minutes): past it, `RatingTimeout`; or, with `unsettled_ok`, the solver goes
    on without knowing (no technique that assumes one solution, no entry judged wrong).

    After `run` ends short of a full grid, `stuck` tells whether no technique applied
    (else the deadline passed)."""

    def __init__(self, puzzle, techniques: list[Technique] | None = None, *,
                 allow_multiple: bool = False, time_limit: float | None = None,
                 unsettled_ok: bool = False, deep: bool = False):
        self.puzzle: Puzzle = as_puzzle(puzzle)
        geometry = self.puzzle.geometry
        geometry.require_grid_only(f"{self.puzzle.label()}: the logical solver")
        geometry.require_houses(f"{self.puzzle.label()}: the logical solver")
        # most techniques count on every row, column and box holding every digit; on
        # another grid (a multi-grid board too) only those marked `any_grid` run: the
        # ones that read a house only as a group holding every digit, and the engine's
        # own steps
        self.any_grid = not geometry.standard
        if self.any_grid and geometry.first != 1:
            raise ModelError(f"{self.puzzle.label()}: the logical solver reads digits from "
                             f"1, not {geometry.first}..{geometry.digits[-1]}")
        self.model = build_model(self.puzzle)  # built once: conflicts, solution, candidates
        problems = find_conflicts(self.model)
        if problems:
            raise Unsolvable(f"{self.puzzle.label()}: no solution: {problems[0]}")
        result = _solve_built(self.model, max_solutions=2, time_limit=time_limit)
        if result.status is Status.UNSOLVABLE:
            raise Unsolvable(f"{self.puzzle.label()}: no solution")
        self.settled = result.status in (Status.UNIQUE, Status.MULTIPLE)
        if not self.settled and not unsettled_ok:
            raise RatingTimeout(f"{self.puzzle.label()}: its solution and uniqueness not "
                                f"settled within the time limit ({time_limit:g} s)")
        self.solution: tuple[int, ...] | None = result.solution
        self.unique = result.status is Status.UNIQUE
        if result.status is Status.MULTIPLE and not allow_multiple:
            raise NotUnique(f"{self.puzzle.label()}: not unique (several solutions); only a "
                            f"puzzle with one solution is rated and explained "
                            f"(--allow-multiple to go on with one of them)")
        self.model = _digits_model(self.puzzle, self.model, time_limit)
        self.layout: Layout = layout_of(self.model.puzzle)
        probing.attach(self.layout, self.model)  # what the rule contradictions propagate
        chosen = techniques if techniques is not None else all_techniques()
        classic = self.layout.is_classic()
        self.techniques = [t for t in chosen if (self.unique or not t.needs_unique)
                           and (classic or not t.classic_only)
                           and not (classic and t.variant_only)
                           and (classic or deep or not t.deep)
                           and (t.any_grid or not self.any_grid)]
        if self.any_grid and probing.prober(self.layout) is None:
            shape = geometry.shape if not geometry.square else \
                f"{geometry.shape} with the digits 1..{geometry.values}"
            raise ModelError(f"{self.puzzle.label()}: the logical solver reads a {shape} "
                             f"grid only with the compiled engine, which is not built")
        self.stuck = False
        self._queue: tuple[State | None, deque[Step]] = (None, deque())

    def start(self) -> State:
        return State.start(self.puzzle, self.layout, self.model)

    def next_step(self, state: State) -> Step | None:
        """The easiest step from `state`, or None when no technique applies."""
        best = self._queued_step(state)
        if best is not None:
            return best
        stage = None
        found: Iterator[Step] | None = None
        batch = False
        for tech in self.techniques:
            if best is not None and (tech.order > best.rating
                                     or (stage is not None and tech.stage != stage)):
                break
            steps = iter(tech.find(state))
            step = next(steps, None)
            if step is not None and (best is None or step.rating < best.rating):
                best, stage, found, batch = step, tech.stage, steps, tech.batch
        if best is not None and batch and found is not None:
            # the technique's other steps at the same rating, taken next (`Technique.batch`)
            self._queue = (state, deque(takewhile(lambda s: s.rating == best.rating, found)))
        if best is not None and not best.reason:
            best.reason = plain(best)
        return best

    def _queued_step(self, state: State) -> Step | None:
        """The next step a batch technique found on this state's earlier grid that
        still removes something."""
        owner, queued = self._queue
        if owner is not state:
            return None
        while queued:
            step = queued.popleft()
            if (all(state.cand[c] >> (v - 1) & 1 for c, v in step.eliminations)
                    and all(not state.values[c] for c, _ in step.placements)):
                if not step.reason:
                    step.reason = plain(step)
                return step
        return None

    def advance(self, state: State, number: int) -> Step | None:
        """Find the next step, apply it to `state` and number it; None (and `state`
        untouched) when no technique applies."""
        step = self.next_step(state)
        if step is None:
            return None
        apply(state, step)
        step.number = number
        return step

    def run(self, state: State, limit: int | None = None, deadline: float | None = None):
        """Yield steps, each already applied to `state`, until the grid is full, or
        until no technique applies (then `self.stuck`) or the deadline passes: in both
        the grid is left unsolved."""
        self.stuck = False
        count = 0
        budget = state.size ** 3 * 2
        state.deadline = deadline
        while not state.solved():
            if limit is not None and count >= limit:
                return
            if deadline is not None and time.monotonic() > deadline:
                return
            count += 1
            try:
                step = self.advance(state, count)
            except OutOfTime:
                return
            if step is None:
                self.stuck = True
                return
            yield step
            if count > budget:  # pragma: no cover - every step makes progress
                raise RuntimeError("the logical solver made no progress")


def _digits_model(puzzle: Puzzle, model: Model, time_limit: float | None) -> Model:
    """The model the steps reason on: the puzzle's own, or, when rules add unknowns beside
    the digits (a chaos construction's region labels), the puzzle without those rules.
    Pencil marks hold digits only, and no step over a bounded group of candidates can
    read such a rule (the regions are one connected partition of the whole grid). What
    the other rules imply holds in the whole puzzle too, so every step stays sound; the
    rules left out must not be needed, so the digits must have one solution without them,
    else the puzzle is refused by name (no step could tell the digits apart)."""
    if not any(group.name != EXTRA for group in puzzle.variables.groups):
        return model
    left_out = [rule for rule in puzzle.rules
                if hasattr(rule, "variables") and rule.variables(puzzle.geometry)]
    digits = build_model(replace(puzzle, rules=tuple(r for r in puzzle.rules
                                                    if r not in left_out)))
    found = _solve_built(digits, max_solutions=2, time_limit=time_limit)
    if found.status is Status.UNIQUE:
        return digits
    what = ", ".join(dict.fromkeys(group.meaning or group.name
                                   for group in puzzle.variables.groups if group.name != EXTRA))
    names = ", ".join(dict.fromkeys(rule.name for rule in left_out))
    if found.status is Status.MULTIPLE:
        raise ModelError(f"{puzzle.label()}: the logical solver reads the cells' digits only, "
                         f"not {what}, and without the rules over them ({names}) the digits "
                         f"have several solutions")
    raise RatingTimeout(f"{puzzle.label()}: whether the digits have one solution without the "
                        f"rules over {what} ({names}) was not settled within the time limit")


def apply(state: State, step: Step) -> None:
    for cell, value in step.eliminations:
        state.eliminate(cell, value)
    for cell, value in step.placements:
        state.place(cell, value)
