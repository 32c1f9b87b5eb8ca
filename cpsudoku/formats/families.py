"""The element families a puzzle file may hold beyond the classic elements of
`puzzlefile` (cages, arrows, dots ...): each family is a module with its puzzle-file
`KEYS` and `rules(data, size)`, the rules whose keys `data` holds. A new family is one
module and one line in FAMILIES; the puzzle-file reader, its "unknown element" messages
and the record reader all take their keys from here."""

from __future__ import annotations

from . import (
    cell_elements,
    chaos_elements,
    custom_elements,
    distinct_elements,
    either_elements,
    line_elements,
    outside_elements,
    set_elements,
)

FAMILIES = (line_elements, custom_elements, outside_elements, cell_elements, chaos_elements,
            either_elements, set_elements, distinct_elements)

KEYS: tuple[str, ...] = tuple(key for family in FAMILIES for key in family.KEYS)


def rules(data: dict, size: int, read_part=None) -> list:
    """Every family's rules from a puzzle file's `data`, in FAMILIES order; a family whose
    elements hold pieces of a puzzle file (`either`) reads them with `read_part`."""
    return [rule for family in FAMILIES
            for rule in (family.rules(data, size, read_part)
                         if getattr(family, "READS_PARTS", False) else family.rules(data, size))]
