"""The `either` puzzle-file key: groups of alternatives, at least one of each holding.

    either = [
        [{givens = {r1c2 = 1}}, {givens = {r1c1 = 1}}],
        [{cages = [{cells = ["r1c1", "r1c2"], sum = 3}]}, {xv = {x = [["r1c1", "r1c2"]]}}],
    ]

An alternative is a piece of a puzzle file: `givens` (cell name -> digit) and any
element keys, read by the puzzle file's own element reader (`read`, passed down by
`families.rules`: this module sits below the reader that lists every family)."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import ModelError
from ..rules import cells as cellrefs
from ..rules.either import Alternative, Either
from .fields import listed, whole

KEYS = ("either",)
READS_PARTS = True  # `rules` takes the reader of an alternative's elements

ReadPart = Callable[[dict, int], list]


def rules(data: dict, size: int, read: ReadPart | None = None) -> list[Either]:
    """The either rule, if `data` holds the key; `read(part, size)` reads the element
    rules of one alternative (and refuses keys that are not elements)."""
    if "either" not in data:
        return []
    if read is None:
        raise ModelError("either: alternatives need the puzzle file's element reader")
    return [Either(_either(i, item, size, read)
                   for i, item in enumerate(listed(data["either"], "either"), 1))]


def _either(i: int, item, size: int, read: ReadPart) -> tuple[Alternative, ...]:
    alternatives = listed(item, f"either {i}")
    if not alternatives:
        raise ModelError(f"either {i} lists no alternatives")
    return tuple(_alternative(f"either {i}, alternative {k}", part, size, read)
                 for k, part in enumerate(alternatives, 1))


def _alternative(what: str, part, size: int, read: ReadPart) -> Alternative:
    if not isinstance(part, dict):
        raise ModelError(f"{what} must be a table of givens and elements, not {part!r}")
    if not part:
        raise ModelError(f"{what} is empty: give it givens or elements")
    try:
        rest = {key: value for key, value in part.items() if key != "givens"}
        return Alternative(_givens(part.get("givens", {})), tuple(read(rest, size) if rest else ()))
    except ModelError as exc:
        raise ModelError(f"{what}: {exc}") from None


def _givens(table) -> tuple[tuple[cellrefs.CellRef, int], ...]:
    if not isinstance(table, dict):
        raise ModelError(f"givens must be a table of cell = digit (givens = {{r1c1 = 5}}), "
                         f"not {table!r}")
    return tuple((cellrefs.ref(name), whole(value, f"given {name}"))
                 for name, value in table.items())
