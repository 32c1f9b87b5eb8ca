"""`generate`: one puzzle from (seed, index, options), a pure function of them so
that puzzle i of a run can be made anywhere (another process, another machine)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..errors import CpsudokuError, ExitCode, ModelError, UsageError
from ..grid.geometry import Geometry, boxed, has_box
from ..grid.multigrid import named as named_board
from ..grid.puzzle import Puzzle
from . import bands, symmetry
from .grids import solution_grid
from .jigsaw import random_regions
from .killer import unique_cages
from .oracle import Oracle
from .removal import remove_clues

# Fewest clues a unique puzzle can have, where known (9x9: McGuire et al., 2012).
# Elsewhere N-1: with two values absent they could be swapped in any solution.
KNOWN_MIN_CLUES = {4: 4, 9: 17}
# Targets (a clue count, a rating band) retry until found; without --time-limit
# they get this long per puzzle before giving up.
DEFAULT_TARGET_TIME_S = 60.0
# Bands ending below this rating also guard each blanking (it is put back if the
# puzzle rates above the band): minimal puzzles rate 1.5 or less about once in 16
# grids and 1.2 or less in fewer than 1 in 100 (measured), so easy and medium
# puzzles are made by stopping short of minimal.
GUARDED_BELOW = 2.0
# A jigsaw layout whose randomized fill restarts more often than this is replaced.
JIGSAW_RESTARTS = 3


class GenerationTimeout(CpsudokuError):
    """A target (clue count, rating band) not reached within the time limit."""

    exit_code = ExitCode.TIMEOUT


@dataclass(frozen=True)
class Generated:
    """A generated puzzle with what makes it reproducible."""

    puzzle: Puzzle
    solution: tuple[int, ...]
    seed: int
    index: int
    clues: int
    rating: float | None = None  # Sudoku Explainer's ER, when a band was asked for
    symmetry: str = "none"
    attempts: int = 1  # solution grids tried (more than one when aiming at a target)
    time_s: float = 0.0
    options: dict = field(default_factory=dict, compare=False)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"index": self.index,
                               "source": f"generated seed {self.seed} #{self.index + 1}",
                               "status": "generated", "seed": self.seed,
                               "puzzle": self.puzzle.line(),
                               "solution": self.puzzle.geometry.line(self.solution),
                               "clues": self.clues, "symmetry": self.symmetry}
        if self.rating is not None:
            out["rating"] = self.rating
        out.update(attempts=self.attempts, time_s=round(self.time_s, 4))
        if self.options:
            out["options"] = self.options
        return out


@dataclass(frozen=True)
class Options:
    """Checked generation options (see `generate`)."""

    size: int = 9
    box: tuple[int, int] | None = None
    symmetry: str = "none"
    band: tuple[float, float] | None = None
    rules: tuple = ()
    jigsaw: bool = False
    killer: bool = False
    givens: int | None = None
    clues: int | None = None
    time_limit: float | None = None
    layout: str | None = None  # a multi-grid board's named layout (samurai ...)

    def describe(self) -> dict[str, Any]:
        """The options that differ from the defaults, for the output record."""
        out: dict[str, Any] = {"size": self.size}
        if self.layout is not None:
            out["layout"] = self.layout
        if self.box is not None:
            out["box"] = f"{self.box[0]}x{self.box[1]}"
        if self.rules:
            out["rules"] = [r.name for r in self.rules]
        for key in ("jigsaw", "killer"):
            if getattr(self, key):
                out[key] = True
        for key in ("givens", "clues", "band"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


def options(*, size: int = 9, box=None, symmetry: str = "none", difficulty: str | None = None,
            rating=None, rules: Sequence = (), jigsaw: bool = False, killer: bool = False,
            givens: int | None = None, clues: int | None = None,
            time_limit: float | None = None, layout: str | None = None) -> Options:
    """Validate generation options, each bad one named in one line."""
    from .. import rules as known_rules
    from ..validate import parse_box
    if not 4 <= size <= 25:
        raise UsageError(f"size {size} is outside 4..25")
    if layout is not None:
        layout = _layout(layout, size, box, symmetry, rules, jigsaw, killer)
    shape = parse_box(box) if isinstance(box, str) else (tuple(box) if box else None)
    if not jigsaw:
        if shape is None and not has_box(size):
            raise UsageError(f"size {size} has no rectangular box shape; generate jigsaw "
                             f"regions for it (--jigsaw)")
        boxed(size, shape)  # raises when the box does not tile the grid
    elif shape is not None:
        raise UsageError("--box and --jigsaw exclude each other (jigsaw regions are random)")
    sym = symmetry_name(symmetry)
    if isinstance(rules, str):
        rule_objects = tuple(known_rules.by_names(rules)) if rules else ()
    else:
        rule_objects = tuple(known_rules.get(r) if isinstance(r, str) else r for r in rules)
    if givens is not None and not killer:
        raise UsageError("--givens applies to --killer puzzles; use --clues for others")
    if givens is not None and not 0 <= givens <= size * size:
        raise UsageError(f"--givens {givens} is outside 0..{size * size}")
    if clues is not None:
        if killer:
            raise UsageError("--clues does not apply to --killer puzzles; use --givens")
        least = KNOWN_MIN_CLUES.get(size, size - 1) if not rule_objects and not jigsaw \
            else size - 1
        if clues < least and layout is None:
            raise UsageError(f"--clues {clues} is impossible: a unique {size}x{size} puzzle "
                             f"needs at least {least} clues")
        if clues < 0:
            raise UsageError(f"--clues {clues} is below 0")
    if time_limit is not None and not time_limit > 0:
        raise UsageError(f"time limit must be a positive number of seconds, not {time_limit}")
    band = bands.band(difficulty, rating)
    if band is not None:
        bands.rater()  # no rater: fail now, before any output
    return Options(size, shape, sym, band, rule_objects, jigsaw, killer, givens, clues,
                   time_limit, layout)


def _layout(name: str, size: int, box, symmetry: str, rules, jigsaw: bool,
            killer: bool) -> str:
    """A named multi-grid layout, checked against the other options."""
    try:
        geometry = named_board(name)
    except ModelError as exc:
        raise UsageError(str(exc)) from None
    if jigsaw or killer or rules or box:
        raise UsageError("--layout makes a board of classic sub-grids: it excludes --jigsaw, "
                         "--killer, --rules and --box")
    if size != geometry.values:
        raise UsageError(f"--layout {geometry.layout}: its sub-grids are "
                         f"{geometry.values}x{geometry.values}, not --size {size}")
    if symmetry_name(symmetry) != "none" and not geometry.square:
        raise UsageError(f"--symmetry on a {geometry.shape} board: only square boards "
                         f"are symmetric")
    return geometry.layout


def symmetry_name(name: str) -> str:
    return symmetry.check(name.lower())


def seed_rng(seed: int, index: int) -> random.Random:
    """Puzzle `index` of a run with `seed` draws every random choice from this."""
    return random.Random(f"cpsudoku-generate:{seed}:{index}")


def fresh_seed() -> int:
    return random.SystemRandom().randrange(1 << 32)


@lru_cache(maxsize=16)
def _oracle(geometry: Geometry, rules: tuple) -> Oracle:
    return Oracle(Puzzle(geometry, (0,) * geometry.ncells, rules))


def make(opts: Options, seed: int, index: int = 0) -> Generated:
    """Puzzle `index` of the run with `seed` (raises GenerationTimeout when a target is
    not reached in time)."""
    started = time.monotonic()
    limit = opts.time_limit
    if limit is None and (opts.band is not None or opts.clues is not None):
        limit = DEFAULT_TARGET_TIME_S
    deadline = None if limit is None else started + limit
    rng = seed_rng(seed, index)
    rate = bands.rater() if opts.band is not None else None
    attempts = 0
    try:
        while True:
            attempts += 1
            puzzle, solution = _attempt(opts, rng, deadline, rate)
            clues = sum(1 for v in puzzle.givens if v)
            if opts.clues is not None and clues > opts.clues:
                _check_time(deadline, f"no puzzle with at most {opts.clues} clues found in "
                                      f"{limit:g} s ({attempts} tried)")
                continue
            er = None
            if rate is not None and opts.band is not None:
                er = rate(puzzle).er  # None: beyond the scale, in no band
                lo, hi = opts.band
                if er is None or not lo <= er <= hi:
                    _check_time(deadline, f"no puzzle rated {lo:g}-{hi:g} found in {limit:g} s "
                                          f"({attempts} tried)")
                    continue
            return Generated(puzzle, tuple(solution), seed, index, clues, er, opts.symmetry,
                             attempts, time.monotonic() - started, opts.describe())
    except TimeoutError:
        raise GenerationTimeout(f"puzzle {index + 1} not finished in {limit:g} s "
                                f"(seed {seed})") from None


def _check_time(deadline: float | None, message: str) -> None:
    if deadline is not None and time.monotonic() >= deadline:
        raise GenerationTimeout(message)


def _attempt(opts: Options, rng: random.Random, deadline: float | None,
             rate=None) -> tuple[Puzzle, Sequence[int]]:
    """One unique puzzle: minimal unless a clue target or an easy band stops it early."""
    n = opts.size
    while True:
        geometry = random_regions(n, rng) if opts.jigsaw else \
            named_board(opts.layout) if opts.layout else boxed(n, opts.box)
        oracle = _oracle(geometry, opts.rules) if not opts.jigsaw else \
            Oracle(Puzzle(geometry, (0,) * geometry.ncells, opts.rules))
        try:
            # Some jigsaw layouts have no (or no quickly found) solution grid.
            solution = solution_grid(oracle, rng, deadline,
                                     JIGSAW_RESTARTS if opts.jigsaw else None)
        except ValueError:
            if not opts.jigsaw:
                raise ModelError(f"no {n}x{n} grid satisfies the rules "
                                 f"{', '.join(r.name for r in opts.rules)}") from None
            continue  # draw another layout
        break
    if geometry.absent:  # a board's cells outside its sub-grids hold no digit
        absent = set(geometry.absent)
        solution = tuple(0 if c in absent else v for c, v in enumerate(solution))
    if opts.killer:
        givens = [0] * (n * n)
        for cell in rng.sample(range(n * n), opts.givens or 0):
            givens[cell] = solution[cell]
        puzzle, _ = unique_cages(oracle.layout, solution, givens, rng, deadline)
        return puzzle, solution
    accept = None
    if rate is not None and opts.band is not None and opts.band[1] < GUARDED_BELOW:
        top = opts.band[1]

        def accept(givens: list[int]) -> bool:
            er = rate(Puzzle(geometry, tuple(givens), opts.rules)).er
            return er is not None and er <= top  # None: beyond the scale, above any band
    givens = remove_clues(oracle, solution, rng, opts.symmetry, opts.clues, deadline,
                          accept=accept)
    return Puzzle(geometry, tuple(givens), opts.rules), solution


def generate(*, size: int = 9, box=None, symmetry: str = "none", difficulty: str | None = None,
             rating=None, rules: Sequence = (), jigsaw: bool = False, killer: bool = False,
             givens: int | None = None, clues: int | None = None, seed: int | None = None,
             time_limit: float | None = None, index: int = 0,
             layout: str | None = None) -> Generated:
    """One unique puzzle, minimal for its symmetry unless `clues` stops removal early.

    size/box: grid size 4..25 and box shape ("2x3"); symmetry: none, rot180, rot90,
    mirror, flip, diagonal, antidiagonal, dihedral; difficulty (easy, medium, hard,
    fiendish, diabolical) or rating ("LO-HI" or (lo, hi), Sudoku Explainer's ER scale)
    need `cpsudoku.logic`; rules: rule names or objects; jigsaw: random regions;
    killer: random cages (with `givens` given digits, 0 by default); clues: stop at
    this many or fewer; seed and index: the same ones give the same puzzle;
    time_limit: seconds per puzzle (GenerationTimeout, exit 4, when a target is not
    met in time); layout: a multi-grid board of classic 9x9 sub-grids ("samurai" ...).
    """
    opts = options(size=size, box=box, symmetry=symmetry, difficulty=difficulty, rating=rating,
                   rules=rules, jigsaw=jigsaw, killer=killer, givens=givens, clues=clues,
                   time_limit=time_limit, layout=layout)
    return make(opts, fresh_seed() if seed is None else seed, index)


def generate_many(count: int, *, seed: int | None = None, **kwargs) -> Iterator[Generated]:
    """`count` puzzles of one run: puzzle i is `generate(seed=seed, index=i, ...)`."""
    if count < 1:
        raise UsageError(f"count must be at least 1, not {count}")
    opts = options(**kwargs)
    seed = fresh_seed() if seed is None else seed
    for index in range(count):
        yield make(opts, seed, index)
