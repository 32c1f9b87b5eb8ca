"""Text output for the logical solver: the candidate grid and one line per step or rating.

`candidate_grid` prints a state and `read_candidate_grid` reads that text back (as a
player's `--state`): they are a matched pair, and any change to one goes with the other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ParseError
from ..grid.symbols import ALPHABET, BLANKS
from .state import State, bit_values

NO_CANDIDATE = "-"  # a blank cell with no candidate left (a broken state)
SOURCE = "state"  # how errors in a state grid name it


def cell_text(value: int, mask: int) -> str:
    """A placed value as its symbol, a blank cell as its candidates' symbols run together
    (one character a value, up to 25, so the reader needs no separator inside a cell)."""
    if value:
        return ALPHABET[value - 1]
    return "".join(ALPHABET[x - 1] for x in bit_values(mask)) or NO_CANDIDATE


def candidate_grid(state: State, region_of) -> str:
    """Every cell as its value (placed) or its candidates, with lines between regions."""
    n = state.size  # the grid's width (its rows: the cells over it)
    texts = [cell_text(v, m) for v, m in zip(state.values, state.cand)]
    width = max(len(t) for t in texts)
    lines = []
    for r in range(len(texts) // n):
        parts = []
        for c in range(n):
            cell = r * n + c
            if c and region_of[cell] != region_of[cell - 1]:
                parts.append("|")
            parts.append(texts[cell].ljust(width))
        line = " ".join(parts)
        if r and any(region_of[r * n + c] != region_of[(r - 1) * n + c] for c in range(n)) \
                and all(region_of[r * n + c] != region_of[(r - 1) * n + c] for c in range(n)):
            lines.append("".join("+" if ch == "|" else "-" for ch in line))
        lines.append(line)
    return "\n".join(lines)


@dataclass(frozen=True)
class Token:
    text: str
    line: int  # 1-based, as an editor counts
    column: int


_RULE_CHARS = frozenset("-=+|:'.")


def _is_rule(stripped: str) -> bool:
    """A line between bands of regions: one run of dashes and crossings, no spaces (a
    row of cells, even one of all `-`, has a space between them)."""
    return (len(stripped) > 1 and set(stripped) <= _RULE_CHARS
            and ("-" in stripped or "=" in stripped) and not any(ch.isspace() for ch in stripped))


def cell_tokens(text: str) -> tuple[list[Token], bool]:
    """The cell tokens of a grid, row by row, and whether it had region separators
    (`|` between cells, rule lines between bands) as the candidate grid prints them."""
    tokens: list[Token] = []
    separated = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if _is_rule(stripped):
            separated = True
            continue
        for m in re.finditer(r"\S+", line):
            if set(m.group()) <= {"|"}:
                separated = True
            else:
                tokens.append(Token(m.group(), number, m.start() + 1))
    return tokens, separated


def is_candidate_grid(tokens: list[Token], separated: bool, size: int) -> bool:
    """Whether the tokens are one a cell in candidate-grid form (else the text is a
    plain grid, for the puzzle parser: one line, a row a line, or spaced single symbols).

    From 10x10 up a grid may be written with decimal values (`10 . 3 16 ...`), where
    `12` is the value 12, not the candidates 1 and 2; a candidate grid of such a size
    always holds letters (each row needs its values from 10 up, A and on)."""
    if len(tokens) != size * size:
        return False
    if size > 9 and not any(ch.isalpha() for t in tokens for ch in t.text):
        return False
    return separated or any(len(t.text) > 1 for t in tokens)


def read_candidate_grid(tokens: list[Token], size: int) -> list[int]:
    """The candidates of every cell (bit v-1 for value v) from the tokens of a candidate
    grid: a run of symbols for a cell's candidates, a lone symbol for a value or a last
    candidate, a blank symbol for a cell without marks (every value), `-` for none."""
    if len(tokens) != size * size:
        raise count_error(tokens, size)
    full = (1 << size) - 1
    masks = []
    for i, tok in enumerate(tokens):
        text = tok.text
        where = f"pencil marks {text!r} at r{i // size + 1}c{i % size + 1}"
        if text == NO_CANDIDATE:
            masks.append(0)
            continue
        if len(text) == 1 and text in BLANKS:
            masks.append(full)
            continue
        mask = 0
        for ch in text:
            v = ALPHABET.find(ch.upper()) + 1
            if not v:
                raise ParseError(f"{where} hold {ch!r}, not a symbol "
                                 f"{ALPHABET[0]}-{ALPHABET[size - 1]}", SOURCE,
                                 tok.line, tok.column)
            if v > size:
                raise ParseError(f"{where} hold {ch!r}, beyond the {size}x{size} puzzle's "
                                 f"values {ALPHABET[0]}-{ALPHABET[size - 1]}", SOURCE,
                                 tok.line, tok.column)
            if mask >> (v - 1) & 1:
                raise ParseError(f"{where} repeat {ch!r}", SOURCE, tok.line, tok.column)
            mask |= 1 << (v - 1)
        masks.append(mask)
    return masks


def count_error(tokens: list[Token], size: int) -> ParseError:
    """The cell count against the puzzle's, and the first row that is not `size` cells
    long when the text has a row a line (the usual slip: a line cut short or joined)."""
    message = (f"the state has {len(tokens)} cell tokens; the {size}x{size} puzzle "
               f"needs {size * size}")
    rows: dict[int, list[Token]] = {}
    for tok in tokens:
        rows.setdefault(tok.line, []).append(tok)
    if len(rows) > 1:
        for number, (line, row) in enumerate(rows.items(), 1):
            if len(row) != size:
                at = row[size] if len(row) > size else None
                return ParseError(f"{message} (grid row {number} has {len(row)} cells, a row "
                                  f"has {size})", SOURCE, line, at.column if at else None)
        # every row whole: rows are missing or extra
        return ParseError(f"{message} ({len(rows)} rows of {size} cells, the puzzle has "
                          f"{size} rows)", SOURCE)
    return ParseError(message, SOURCE)
