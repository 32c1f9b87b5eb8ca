"""Clue symmetries: the cells that are blanked together (orbits), as Sudoku
Explainer names them."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import UsageError

Map = Callable[[int, int, int], tuple[int, int]]  # (row, col, size) -> (row, col)

_IDENTITY: Map = lambda r, c, n: (r, c)  # noqa: E731
_ROT90: Map = lambda r, c, n: (c, n - 1 - r)  # noqa: E731
_ROT180: Map = lambda r, c, n: (n - 1 - r, n - 1 - c)  # noqa: E731
_ROT270: Map = lambda r, c, n: (n - 1 - c, r)  # noqa: E731
_MIRROR: Map = lambda r, c, n: (r, n - 1 - c)  # noqa: E731
_FLIP: Map = lambda r, c, n: (n - 1 - r, c)  # noqa: E731
_DIAGONAL: Map = lambda r, c, n: (c, r)  # noqa: E731
_ANTIDIAGONAL: Map = lambda r, c, n: (n - 1 - c, n - 1 - r)  # noqa: E731

# Each symmetry is the group of maps a clue pattern must be invariant under.
SYMMETRIES: dict[str, tuple[Map, ...]] = {
    "none": (_IDENTITY,),
    "rot180": (_IDENTITY, _ROT180),
    "rot90": (_IDENTITY, _ROT90, _ROT180, _ROT270),
    "mirror": (_IDENTITY, _MIRROR),
    "flip": (_IDENTITY, _FLIP),
    "diagonal": (_IDENTITY, _DIAGONAL),
    "antidiagonal": (_IDENTITY, _ANTIDIAGONAL),
    "dihedral": (_IDENTITY, _ROT90, _ROT180, _ROT270, _MIRROR, _FLIP, _DIAGONAL, _ANTIDIAGONAL),
}


def check(name: str) -> str:
    if name not in SYMMETRIES:
        raise UsageError(f"unknown symmetry {name!r}; choose from: {', '.join(SYMMETRIES)}")
    return name


def orbits(name: str, size: int) -> list[tuple[int, ...]]:
    """The grid's cells partitioned into orbits under the symmetry, each orbit
    sorted, in order of its first cell."""
    maps = SYMMETRIES[check(name)]
    seen: set[int] = set()
    out = []
    for cell in range(size * size):
        if cell in seen:
            continue
        r, c = divmod(cell, size)
        orbit = tuple(sorted({rr * size + cc for rr, cc in (m(r, c, size) for m in maps)}))
        seen.update(orbit)
        out.append(orbit)
    return out


def is_symmetric(givens, name: str, size: int) -> bool:
    """True if clues and blanks follow the symmetry (each orbit all given or all blank)."""
    return all(len({bool(givens[c]) for c in orbit}) == 1 for orbit in orbits(name, size))
