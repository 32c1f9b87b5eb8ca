"""Bounded JSON and TOML decoding: hostile nesting and number lengths become ParseErrors.

Python's decoders recurse once per nesting level and convert digit runs with
`int()`, so a 1,000-deep list or a 5,000-digit number would escape as
RecursionError or ValueError. The text is measured first and refused by name.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

from ..errors import ParseError

MAX_DEPTH = 32  # a puzzle file needs about 5 (a table, a list of cages, a cage's cells)
MAX_DIGITS = 100  # no count, sum or cell index needs more
# One puzzle's document: a TOML file, a JSON object (one of JSON lines, or an item of a
# JSON list), a link, an ISS string. The play server takes request bodies of as much.
# The readers are pure Python for TOML and links, so a bigger document would hold the
# command in them past any time limit; files of many puzzles are not capped as a whole.
MAX_DOCUMENT = 1 << 20


# What the bounds check looks at: strings and comments (skipped whole), brackets, and
# digit runs longer than MAX_DIGITS.
_TOKENS = re.compile(r'"(?:\\.|[^"\\])*"|\'[^\']*\'|#[^\n]*|[\[\]{}]|\d{'
                     + str(MAX_DIGITS + 1) + ",}")


def check_bounds(text: str, source: str, limit: int = MAX_DEPTH) -> None:
    """Refuse text whose brackets nest deeper than `limit`, with a number of more than
    MAX_DIGITS digits (Python's int() refuses 4,300+), or with a document (a top-level
    object, or an object or list in a top-level list) longer than MAX_DOCUMENT
    characters, as soon as it passes that length. Strings and `#` comments are
    skipped: brackets and digit runs inside a grid string are harmless."""
    depth = 0
    top = ""  # the bracket that opened the top level
    start = -1  # where the document being read began (-1: none)
    for m in _TOKENS.finditer(text):
        token = m.group()
        if start >= 0 and m.end() - start > MAX_DOCUMENT:
            refuse_document("the JSON document here", source, text.count("\n", 0, start) + 1)
        if token in ("[", "{"):
            depth += 1
            if depth > limit:
                _refuse(f"nested more than {limit} levels deep", text, m.start(), source)
            if depth == 1:
                top = token
                start = m.start() if token == "{" else -1
            elif depth == 2 and top == "[":
                start = m.start()
        elif token in ("]", "}"):
            depth -= 1
            if depth == 0 or (depth == 1 and top == "["):
                start = -1
        elif token[0].isdigit():
            _refuse(f"a number of {len(token)} digits (at most {MAX_DIGITS} are read)", text,
                    m.start(), source)


def refuse_document(what: str, source: str, line: int | None = None):
    """The error for a puzzle document past MAX_DOCUMENT characters."""
    raise ParseError(f"{what} is longer than {MAX_DOCUMENT} characters, the limit for one "
                     f"puzzle's document", source, line)


def _refuse(message: str, text: str, at: int, source: str):
    line = text.count("\n", 0, at) + 1
    raise ParseError(message, source, line, at - text.rfind("\n", 0, at))


def json_value(text: str, source: str) -> Any:
    """json.loads after the bounds are checked; JSONDecodeError is left to the caller,
    who knows how to place it."""
    check_bounds(text, source)
    return json.loads(text)


def toml_value(text: str, source: str) -> dict[str, Any]:
    """tomllib.loads after the bounds are checked, its errors as one ParseError."""
    if len(text) > MAX_DOCUMENT:  # TOML is one document, however many puzzles it lists
        refuse_document(f"the TOML document ({len(text)} characters)", source)
    check_bounds(text, source)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        msg = re.sub(r"\s*\(at line.*\)", "", str(exc))
        raise ParseError(f"invalid TOML: {msg}", source,
                         int(m.group(1)) if m else None, int(m.group(2)) if m else None) from None
