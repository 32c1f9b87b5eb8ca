"""The Interactive Sudoku Solver's constraint strings and links, read and written.

An ISS constraint string is a run of `.Type~arg~arg...` items (`.~R1C1_5` for a given,
`.Thermo~R9C4~R8C3`, `.Diagonal~1`, `.Shape~6x6`); an ISS link carries one in its `q`
parameter. `.Shape` may name other digits than 1..N (`6x6~9`: 1..9; `9x9~0-8`), and
`.RegionSize` boxes or jigsaw pieces of more cells than a row: the puzzle file's
`digits`, `box` and `regions` keys. Givens and clues are digits, as in the puzzle file
(relation keys and automata count values 1..V, and are translated).

Reading turns one into the cpsudoku puzzle-file dict (see
`cpsudoku.formats.puzzlefile`) and loads it with the puzzle-file loader, so both speak
one vocabulary; `ISS_TYPES` is the one table from ISS types to puzzle-file keys. A type
with no cpsudoku counterpart, or whose key the loader does not know yet, is refused with
its name and where it stands in the string, never left out. Writing goes the other way,
from `puzzlefile.as_dict(puzzle)` to a string or a link.

The modules: `tokens` (items, cell ids, what both directions share), `tables` (the types
read and written by name), `readers` (one reader per type, and `ISS_TYPES`), `read` (a
string or link to a puzzle) and `write` (a puzzle to a string or link).
"""

from .read import from_link, from_string, load, looks_like_iss, split_link, to_dict
from .readers import ISS_TYPES, Reading
from .tables import COMPOSITES, LINE_TYPES, NUMBERED_TYPES, OUTSIDE_TYPES, REFUSED, RULE_TYPES
from .tokens import (
    ISS_URL,
    MAX_DIGITS,
    Item,
    cell_name,
    decode_pattern,
    encode_pattern,
    iss_cell,
    items,
    little_killer_diagonals,
)
from .write import dumps, link

__all__ = ["COMPOSITES", "ISS_TYPES", "ISS_URL", "LINE_TYPES", "MAX_DIGITS", "NUMBERED_TYPES",
           "OUTSIDE_TYPES", "REFUSED", "RULE_TYPES", "Item", "Reading", "cell_name",
           "decode_pattern", "dumps", "encode_pattern", "from_link", "from_string", "items",
           "iss_cell", "link", "little_killer_diagonals", "load", "looks_like_iss",
           "split_link", "to_dict"]
