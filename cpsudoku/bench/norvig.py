"""A Norvig-style reference solver, the benchmark's side-by-side baseline.

The method of Peter Norvig's essay "Solving Every Sudoku Puzzle": candidates
as strings of symbols, two rules (a square with one candidate removes it from
its peers; a unit with one place for a value puts it there), and depth-first
search on the square with the fewest candidates, copying the grid at each
guess. It is independent of the native engine on purpose.
"""

from __future__ import annotations

from functools import cache

from ..grid.geometry import boxed
from ..grid.symbols import ALPHABET


@cache
def vocabulary(size: int):
    """squares, units (per square) and peers (per square) of a boxed size x size grid."""
    geometry = boxed(size)
    squares = tuple(range(size * size))
    unitlist = [list(u) for u in geometry.units]
    units = {s: [u for u in unitlist if s in u] for s in squares}
    peers = {s: set(sum(units[s], [])) - {s} for s in squares}
    return squares, units, peers, ALPHABET[:size]


def solve(line: str) -> str | None:
    """One solution of a puzzle line ('.' or '0' for blanks), or None."""
    size = int(round(len(line) ** 0.5))
    values = parse_grid(line, size)
    values = search(values, size) if values else None
    if not values:
        return None
    squares = vocabulary(size)[0]
    return "".join(values[s] for s in squares)


def parse_grid(line: str, size: int):
    squares, _, _, digits = vocabulary(size)
    values = {s: digits for s in squares}
    for s, d in zip(squares, line):
        if d in digits and not assign(values, s, d, size):
            return False
    return values


def assign(values, s, d, size):
    """Eliminate every other value from square s and propagate."""
    other = values[s].replace(d, "")
    if all(eliminate(values, s, d2, size) for d2 in other):
        return values
    return False


def eliminate(values, s, d, size):
    if d not in values[s]:
        return values
    values[s] = values[s].replace(d, "")
    _, units, peers, _ = vocabulary(size)
    if len(values[s]) == 0:
        return False  # removed the last candidate
    if len(values[s]) == 1:
        d2 = values[s]
        if not all(eliminate(values, s2, d2, size) for s2 in peers[s]):
            return False
    for u in units[s]:
        places = [s2 for s2 in u if d in values[s2]]
        if len(places) == 0:
            return False  # no place left for d in this unit
        if len(places) == 1 and not assign(values, places[0], d, size):
            return False
    return values


def search(values, size):
    if values is False:
        return False
    squares = vocabulary(size)[0]
    if all(len(values[s]) == 1 for s in squares):
        return values
    _, s = min((len(values[s]), s) for s in squares if len(values[s]) > 1)
    for d in values[s]:
        result = search(assign(values.copy(), s, d, size), size)
        if result:
            return result
    return False
