"""explain, hint and rate: the logical solver's Python API (the CLI is a thin layer over it)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import validate
from ..errors import ModelError, ParseError
from ..formats.read import parse_one
from ..grid.puzzle import Puzzle
from ..grid.symbols import ALPHABET, BLANKS
from .levels import BEYOND, level_of
from .show import cell_text, cell_tokens, count_error, is_candidate_grid, read_candidate_grid
from .solver import RatingTimeout, Solver, Unsolvable
from .state import State
from .step import Step, cell_name

SETTLE_SHARE = 0.2  # of a hint's time limit, for the search for the solution
STUCK = "no technique applies"  # how every command words the logical solver's stop
HINT_STUCK = f"{STUCK}: the logical solver cannot go on from here"  # CLI and play page


@dataclass
class Explanation:
    """The steps made. Unless `solved`, the explanation stopped short: `stuck` when no
    technique applies to what is left (`candidates` holds its pencil marks), else the
    time limit passed."""

    steps: list[Step]
    solved: bool
    grid: list[int] = field(default_factory=list)  # the values at the end
    stuck: bool = False
    candidates: list[int] = field(default_factory=list)  # per cell, a mask: bit v-1 for v

    @property
    def status(self) -> str:
        return "solved" if self.solved else "stuck" if self.stuck else "timeout"

    def as_dicts(self) -> list[dict]:
        return [s.as_dict() for s in self.steps]


@dataclass
class Hint:
    step: Step | None  # None: the grid is solved, or (`stuck`) no technique applies
    wrong: list[str]  # cells whose entries (or pencil marks) contradict the solution
    stuck: bool = False

    def as_dict(self) -> dict:
        return {"step": self.step.as_dict() if self.step else None, "wrong": self.wrong,
                "stuck": self.stuck}


@dataclass
class Rating:
    """A puzzle's place on the SE scale, or (`beyond`) none: the logical solver found
    no technique for the rest, so no ER can be given. EP and ED are still given when
    the steps that fix them were made before it stopped (EP: up to the first placement;
    ED: the first step), as they are the same whatever the rest would need."""

    er: float | None  # None: beyond the scale
    ep: float | None
    ed: float | None
    level: str
    techniques: dict[str, int]
    time_s: float
    steps: int = 0
    unique: bool = True  # False: rated with allow_multiple, along one of its solutions
    hardest: float = 0.0  # the hardest step made (the ER when rated)

    @property
    def beyond(self) -> bool:
        return self.er is None

    @property
    def status(self) -> str:
        return "beyond" if self.beyond else "rated"

    def as_dict(self) -> dict:
        return {"er": self.er, "ep": self.ep, "ed": self.ed, "level": self.level,
                "techniques": dict(self.techniques), "steps": self.steps,
                "hardest": self.hardest, "unique": self.unique,
                "time_s": round(self.time_s, 6)}


def _read_state(solver: Solver, state,
                time_limit: float | None = None) -> tuple[State, list[str]]:
    """The player's grid as a pencil-mark state, and the cells whose entries are wrong.

    `state` is a grid (string, Puzzle or list of values, 0 blank) or pencil marks
    (a candidate grid as `explain --grid-at` prints it: one token of candidate symbols
    per cell, `|` and rule lines optional; or a list of ints and sets).
    `time_limit` bounds the search that tells whether entries without a known solution
    still have one (past it, they are taken as they are)."""
    puzzle = solver.puzzle
    n = puzzle.size
    if not puzzle.geometry.standard:
        geometry = puzzle.geometry
        raise ModelError(f"state: a player's grid is read on square grids with the digits "
                         f"1..N, not a {geometry.shape} grid with the digits "
                         f"{geometry.first}..{geometry.digits[-1]}: hint without a state "
                         f"gives its first step")
    values, marks = _state_values(state, n, solver.layout.peers)
    givens = puzzle.givens
    for cell, (g, v) in enumerate(zip(givens, values)):
        if g and v and g != v:
            raise ModelError(f"state: {cell_name(cell, n)} holds {v} but the puzzle gives {g}")
        if g and not v and marks and marks[cell] and not marks[cell] >> (g - 1) & 1:
            raise ModelError(f"state: {cell_name(cell, n)} holds {cell_text(0, marks[cell])} "
                             f"but the puzzle gives {g}")
    wrong: list[str] = []
    entries = list(givens)
    solution = solver.solution if solver.unique else None
    for cell, v in enumerate(values):
        if v and not givens[cell]:
            if solution is not None and solution[cell] != v:
                wrong.append(cell_name(cell, n))
            else:
                entries[cell] = v
    current = State.start(Puzzle(puzzle.geometry, tuple(entries), puzzle.rules), solver.layout)
    if current.broken() or (solution is None and entries != list(givens)
                            and not _consistent(puzzle, entries, time_limit)):
        raise Unsolvable("state: the grid given has no solution")
    if marks is not None:
        for cell, m in enumerate(marks):
            if m and current.cand[cell]:
                if solution is not None and not m >> (solution[cell] - 1) & 1:
                    wrong.append(cell_name(cell, n))
                    m |= 1 << (solution[cell] - 1)
                current.cand[cell] &= m
        # marks that strike out every value a cell's peers leave it
        for cell in range(n * n):
            if not current.values[cell] and not current.cand[cell]:
                raise Unsolvable(f"state: {cell_name(cell, n)} has no candidate left")
    return current, sorted(set(wrong), key=lambda s: [int(x) for x in s[1:].split("c")])


def _consistent(puzzle: Puzzle, entries, time_limit: float | None = None) -> bool:
    from ..api import solve
    from ..result import Status
    return solve(Puzzle(puzzle.geometry, tuple(entries), puzzle.rules),
                 time_limit=time_limit).status is not Status.UNSOLVABLE


def _state_values(state, n: int, peers) -> tuple[list[int], list[int] | None]:
    if isinstance(state, Puzzle):
        values = list(state.givens)
        if len(values) != n * n:
            raise ModelError(f"state: {len(values)} cells given for a {n}x{n} puzzle")
        return values, None
    if isinstance(state, str):
        tokens, separated = cell_tokens(state)
        if is_candidate_grid(tokens, separated, n):
            return _marks_from_masks(read_candidate_grid(tokens, n), n, peers)
        try:
            grid = parse_one(state, size=n, source="state")
        except ParseError:
            # more tokens than rows, or region separators, and no run of cells with blanks
            # (as `8..` of a plain grid is): a candidate grid with cells missing or extra,
            # told in cells and rows (the grid parser counts symbols, no help there)
            cells = BLANKS | set(ALPHABET[:n]) | set(ALPHABET[:n].lower())
            if (len(tokens) > n or separated) and not any(
                    len(t.text) > 1 and set(t.text) & BLANKS and set(t.text) <= cells
                    for t in tokens):
                raise count_error(tokens, n) from None
            raise
        return _state_values(grid, n, peers)
    if isinstance(state, Sequence):
        flat = [x for row in state for x in row] if state and isinstance(state[0], list) \
            else list(state)
        if len(flat) != n * n:
            raise ModelError(f"state: {len(flat)} cells given for a {n}x{n} puzzle")
        if any(isinstance(x, (set, frozenset)) for x in flat):
            return _marks_from_sets(flat, n)
        return [int(x) for x in flat], None
    raise ModelError(f"state: cannot read a grid from {type(state).__name__}")


def _marks_from_sets(flat, n: int) -> tuple[list[int], list[int]]:
    values, marks = [], []
    for i, x in enumerate(flat):
        items = sorted(x) if isinstance(x, (set, frozenset)) else [int(x)]
        if not items or any(not 1 <= int(v) <= n for v in items) and items != [0]:
            raise ModelError(f"state: pencil marks {sorted(items)} at {cell_name(i, n)} are "
                             f"not values 1..{n}")
        if isinstance(x, (set, frozenset)) and len(items) > 1:
            values.append(0)
            marks.append(sum(1 << (int(v) - 1) for v in items))
        else:
            values.append(int(items[0]))
            marks.append(0)
    return values, marks


def _marks_from_masks(masks: list[int], n: int, peers) -> tuple[list[int], list[int]]:
    """Values and pencil marks from a candidate grid's cells. A lone candidate is a
    placed value when no peer still lists it (as a placement leaves the grid), else a
    cell with one candidate left: the candidate grid writes both alike, and this keeps
    a printed state's candidates as they were."""
    values = [0] * len(masks)
    for cell, m in enumerate(masks):
        if not m:
            raise Unsolvable(f"state: {cell_name(cell, n)} has no candidate left")
        if not m & (m - 1) and not any(masks[p] & m for p in peers[cell]):
            values[cell] = m.bit_length()
    return values, masks


def explain(puzzle, *, state=None, time_limit: float | None = None,
            allow_multiple: bool = False, deep: bool = False) -> Explanation:
    """Every step from the puzzle (or from a player's `state`) to the solution, or as
    far as a technique applies (`stuck`). A puzzle with several solutions raises
    `NotUnique` unless `allow_multiple`. `deep`: a variant puzzle may take the nested
    levels (9.0 and up) too, which can search for minutes (classic puzzles always may)."""
    solver = Solver(puzzle, allow_multiple=allow_multiple, deep=deep)
    current = _read_state(solver, state)[0] if state is not None else solver.start()
    deadline = time.monotonic() + time_limit if time_limit else None
    steps = list(solver.run(current, deadline=deadline))
    return explanation(solver, current, steps)


def explanation(solver: Solver, state: State, steps: list[Step]) -> Explanation:
    """What `solver.run` left in `state` after `steps`."""
    solved = state.solved()
    grid = list(state.values)
    for cell in solver.puzzle.geometry.absent:  # a board's cells outside its sub-grids
        grid[cell] = 0
    return Explanation(steps, solved, grid, solver.stuck and not solved, list(state.cand))


def hint(puzzle, state=None, *, allow_multiple: bool = False,
         time_limit: float | None = None, deep: bool = False) -> Hint:
    """The next step from the puzzle or a player's grid, and the entries that are wrong.
    A puzzle with several solutions raises `NotUnique` unless `allow_multiple`;
    `RatingTimeout` when no step is found within `time_limit` seconds."""
    time_limit = validate.seconds(time_limit)
    deadline = time.monotonic() + time_limit if time_limit is not None else None
    # The search for the solution (which names wrong entries and proves uniqueness) may
    # take minutes on a 25x25 while the next step takes milliseconds: it gets a share of
    # the time, and past it the hint is a step that holds without knowing the solution.
    settle = None if time_limit is None else time_limit * SETTLE_SHARE
    solver = Solver(puzzle, allow_multiple=allow_multiple, time_limit=settle,
                    unsettled_ok=time_limit is not None, deep=deep)
    if state is None:
        current, wrong = solver.start(), list[str]()
    else:
        current, wrong = _read_state(solver, state, settle)
    step = next(solver.run(current, limit=1, deadline=deadline), None)
    if step is None and solver.stuck:
        return Hint(None, wrong, stuck=True)
    if step is None and not current.solved():
        raise RatingTimeout(f"{solver.puzzle.label()}: no step found within the time limit "
                            f"({time_limit:g} s)")
    return Hint(step, wrong)


def rate(puzzle, *, allow_multiple: bool = False, time_limit: float | None = None,
         deep: bool = False) -> Rating:
    """ER, EP and ED on the SE scale, the level, and the techniques used; `beyond` the
    scale (no ER) when no technique applies before the end. A puzzle with several
    solutions raises `NotUnique` unless `allow_multiple` (the rating then says
    `unique=False`); `RatingTimeout` when `time_limit` seconds pass first."""
    time_limit = validate.seconds(time_limit)
    started = time.monotonic()
    deadline = started + time_limit if time_limit is not None else None
    solver = Solver(puzzle, allow_multiple=allow_multiple, time_limit=time_limit, deep=deep)
    er = ep = ed = 0.0
    placed = False
    used: dict[str, int] = {}
    count = 0
    state = solver.start()
    for step in solver.run(state, deadline=deadline):
        count += 1
        er = max(er, step.rating)
        if count == 1:
            ed = step.rating
        if not placed:
            ep = max(ep, step.rating)
            placed = bool(step.placements)
        used[step.technique] = used.get(step.technique, 0) + 1
    spent = time.monotonic() - started
    if solver.stuck:
        # EP holds once a placement was made, ED once any step was: the rest cannot
        # change them. ER would be the rest's, which no technique reaches.
        return Rating(None, ep if placed else None, ed if count else None, BEYOND, used,
                      spent, count, solver.unique, er)
    if not state.solved():
        raise RatingTimeout(f"{solver.puzzle.label()}: no rating within the time limit "
                            f"({time_limit:g} s)")
    return Rating(er, ep, ed, level_of(er), used, spent, count, solver.unique, er)
