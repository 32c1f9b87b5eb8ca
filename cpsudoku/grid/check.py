"""The independent checker: which rules a (partial or complete) grid breaks.

It reads only the constraints' own `check`/`holds`, never a solver's code, so
it can judge every backend's answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import validate
from ..errors import ArgumentError
from .constraints import AllDifferent, InSet
from .puzzle import Puzzle
from .symbols import MAX_SIZE, symbol


def _check_puzzle(puzzle) -> None:
    if not isinstance(puzzle, Puzzle):  # text and rows are read at the API's face (cpsudoku.api)
        raise ArgumentError(f"puzzle must be a Puzzle, not {type(puzzle).__name__}")


@dataclass(frozen=True)
class Conflict:
    cells: tuple[int, ...]
    message: str


def conflicts(puzzle: Puzzle, values: Sequence[int] | None = None) -> list[Conflict]:
    """Every broken rule among the filled cells of `values` (default: the givens).

    All-different groups report each repeated pair; other constraints are judged
    once all their cells are filled.
    """
    _check_puzzle(puzzle)
    most, first = puzzle.geometry.values, puzzle.geometry.first
    grid = puzzle.givens if values is None else validate.cells(values, "values",
                                                                puzzle.geometry.ncells, most)
    # auxiliary variables (grid.variables) are not part of a grid: blank, never judged
    grid = tuple(grid) + (0,) * puzzle.variables.count
    name = puzzle.geometry.cell_name
    found: list[Conflict] = []
    for con in puzzle.constraints():
        if isinstance(con, AllDifferent):
            held: dict[int, int] = {}  # value -> the first cell holding it
            for cell in con.cells:
                v = grid[cell]
                if not v:
                    continue
                if v in held:
                    found.append(Conflict((held[v], cell), f"{name(held[v])} and {name(cell)} "
                                          f"both hold {symbol(v, first)} in {con.describe()}"))
                else:
                    held[v] = cell
        elif isinstance(con, InSet):
            for cell in con.cells:
                if grid[cell] and grid[cell] not in con.values:
                    shown = symbol(grid[cell], first)
                    found.append(Conflict((cell,), f"{name(cell)} = {shown} breaks "
                                          f"{con.describe()}"))
        elif all(grid[c] for c in con.cells) and not con.check(grid):
            # a whole-grid rule (full rank) names the part of it that breaks
            broken = [p for p in con.pieces if not p.check(grid)] or [con]
            for piece in broken:
                cells = ", ".join(name(c) for c in piece.cells)
                found.append(Conflict(piece.cells, f"{cells} break {piece.describe()}"))
    return found


def is_solution(puzzle: Puzzle, values: Sequence[int]) -> bool:
    """A complete grid that keeps the givens and breaks no rule. Constraints on
    auxiliary variables (a chaos construction's regions) are not judged from
    the digits alone: the backends that search them check their own answers."""
    _check_puzzle(puzzle)
    ncells, most = puzzle.geometry.ncells, puzzle.geometry.values
    # A value outside 1..V is an answer (not a solution); a non-number is a wrong call.
    values = validate.cells(values, "values", ncells, most=MAX_SIZE)
    present = puzzle.geometry.present  # a board's absent cells hold 0, and only they
    if not all(1 <= v <= most if inside else v == 0 for v, inside in zip(values, present)):
        return False
    if any(g and g != v for g, v in zip(puzzle.givens, values)):
        return False
    return all(con.check(values) for con in puzzle.constraints()
               if max(con.cells, default=0) < ncells)
