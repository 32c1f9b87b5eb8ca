"""SudokuPad puzzles as they are shared, and Sudoku Maker's JSON.

A SudokuPad link (`https://sudokupad.app/scl...`, `https://app.crackingthecryptic.com/
sudoku/?puzzleid=...`, `...?puzzle=...`) or its bare payload names its form by a prefix:

- `scl` (and its older name `ctc`): LZString base64 of the puzzle's JSON, usually in
  SudokuPad's shortened form, where keys are not quoted, strings use single quotes, an
  empty array slot stands for `{}`, `t`/`f` for true/false, `#0`/`#F` and bare six-digit
  hex values for colours, and the common keys are abbreviated (`KEYS`: `ce` cells,
  `re` regions, `ca` cages, `l` lines, `a` arrows, `o` overlays, `u` underlays, ...);
- `fpuzzles` (or `fpuz`): an f-puzzles payload, read by the f-puzzles reader;
- `scf`: SudokuPad's compact classic form, refused by name.

A link holding only an id (`https://sudokupad.app/abc123`) is resolved by SudokuPad's
server; it is refused, saying so. Sudoku Maker's JSON (`{"id": "sxsm_...", "metadata":
{...}, "cells": [...], ...}`) is the same data unpacked: both reach `from_sudokupad`,
and `sudokupad_elements` turns what they draw into the rules of a puzzle file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, NoReturn
from urllib.parse import unquote

from ..errors import ParseError
from ..grid.puzzle import Puzzle
from . import sudokupad_elements
from .lzstring import decompress_from_base64
from .safeload import MAX_DEPTH, MAX_DOCUMENT, check_bounds, refuse_document

# SudokuPad's key table: the long key and its short form in a shared link.
KEYS = {"color": "c", "cages": "ca", "center": "ct", "borderColor": "c1",
        "backgroundColor": "c2", "cells": "ce", "cellSize": "cs", "arrows": "a",
        "overlays": "o", "underlays": "u", "width": "w", "height": "h", "value": "v",
        "videos": "vd", "lines": "l", "rounded": "r", "regions": "re", "fontSize": "fs",
        "thickness": "th", "headLength": "hl", "wayPoints": "wp", "title": "t", "text": "te",
        "duration": "d", "d": "d2"}
_LONG = {short: long for long, short in KEYS.items()}

_HOSTS = ("sudokupad.app", "sudokupad.svencodes.com", "crackingthecryptic.com")
_PREFIX = re.compile(r"(scl|ctc|fpuzzles|fpuz|scf)(?=[A-Za-z0-9+/=%{])")
_BARE = re.compile(r"(?:scl|ctc|fpuzzles|fpuz|scf)(?:[A-Za-z0-9+/=%]{16,}|\{.*)")
_QUERY = re.compile(r"[?&](?:puzzle|puzzleid)=([^&#\s]+)")
# A zipped puzzle pasted as text: an object whose first key is unquoted.
_ZIPPED = re.compile(r"\{\s*(?:id|ce|cells|metadata|re|ca|cs|settings)\s*:")
_HEX6 = re.compile(r"[0-9a-fA-F]{6}")
_JSON = json.JSONDecoder()
_KEY = re.compile(r"[A-Za-z0-9_$+\-]+")
_TOKEN = re.compile(r"[^,\]}\s]+")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


# ---------------------------------------------------------------- recognising input

def looks_like_sudokupad(text: str) -> bool:
    """Whether `text` (its first line that is not blank or a `#` comment) is a SudokuPad
    link, a bare SudokuPad payload, or a puzzle in SudokuPad's zipped notation."""
    first = next((s.strip() for s in text.splitlines()
                  if s.strip() and not s.lstrip().startswith("#")), "")
    if first.startswith(("http://", "https://")):
        host = first.split("/", 3)[2].split("?")[0].split(":")[0].lower() \
            if first.count("/") >= 2 else ""
        return any(host == h or host.endswith("." + h) for h in _HOSTS)
    return bool(_BARE.fullmatch(first) or _ZIPPED.match(first))


# ---------------------------------------------------------------- entry points

def load(text: str, source: str, other: Callable[..., list[Puzzle]]) -> list[Puzzle]:
    """The puzzles of SudokuPad text: links or payloads one a line (`#` comment lines and
    blank lines skipped; a line of another kind goes to `other`, the shared parser), or
    one puzzle in SudokuPad's zipped notation."""
    stripped = text.strip()
    if _ZIPPED.match(stripped):
        return [_read_text(stripped, source, "the puzzle")]
    out = []
    single = len(stripped.splitlines()) == 1
    for number, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        where = source if single else f"{source}:{number}"
        if looks_like_sudokupad(s):
            out.append(from_link(s, where))
        else:  # another kind of link or puzzle line among them: the shared parser's
            out.extend(other(s, source=where))
    if not out:
        raise ParseError("no SudokuPad link or payload found", source)
    return out


def from_link(link: str, source: str = "<string>") -> Puzzle:
    """The puzzle of one SudokuPad link or bare payload."""
    if len(link) > MAX_DOCUMENT:
        refuse_document(f"the SudokuPad link ({len(link)} characters)", source)
    payload = _payload(link, source)
    prefix = _PREFIX.match(payload)
    if not payload.strip("/"):
        raise ParseError(f"{link}: the link carries no puzzle", source)
    if prefix is None:
        raise ParseError(f"{link}: a short link holds only an id ({payload!r}); SudokuPad's "
                         f"server resolves it: open it and copy the full link "
                         f"(https://sudokupad.app/scl...)", source)
    kind, body = prefix.group(1), payload[prefix.end():]
    if kind == "scf":
        raise ParseError("SudokuPad's scf form (a classic grid and constraint codes) is not "
                         "read: open the link in SudokuPad and share it again as an scl link",
                         source)
    if kind.startswith("fpuz"):
        from . import fpuzzles
        return fpuzzles.from_fpuzzles(fpuzzles.unpack_link(_repair_slashes(body), source),
                                      source)
    return _read_text(_decompressed(body, source), source, "the link's puzzle data")


def from_sudokupad(data: dict, source: str = "<string>") -> Puzzle:
    """A puzzle from a SudokuPad or Sudoku Maker object (long keys, as `unzip` gives)."""
    from .puzzlefile import from_dict  # on demand: importing the package never needs it
    return sudokupad_elements.read(data, source, from_dict)


# ---------------------------------------------------------------- links and payloads

def _payload(link: str, source: str) -> str:
    """The puzzle part of a link (`?puzzle=`, `?puzzleid=` or the path), or a bare payload."""
    if not link.startswith(("http://", "https://")):
        return link
    from .iss import split_link  # every link read in formats is split there
    parts = split_link(link, source)
    found = _QUERY.search("?" + parts.query)
    if found:
        return unquote(found.group(1))
    # The path may hold '/' of the base64 alphabet: everything after the host is the data.
    path = link.split("/", 3)[3] if link.count("/") >= 3 else ""
    path = re.split(r"[?#]", path, maxsplit=1)[0]
    path = re.sub(r"^(?:sudoku/)", "", path)
    return unquote(path)


def _decompressed(body: str, source: str) -> str:
    """The text of an scl payload; as SudokuPad does, a payload that is an object's text
    already is taken as it is."""
    if body.lstrip().startswith("{"):
        return body
    text = decompress_from_base64(_repair_slashes(body))
    if not text or text.lstrip()[:1] not in ("{", "["):
        raise ParseError("the link's puzzle data is not SudokuPad's LZString base64 (scl)",
                         source)
    if len(text) > MAX_DOCUMENT:
        refuse_document(f"the link's puzzle ({len(text)} characters unpacked)", source)
    return text


def _repair_slashes(body: str, most: int = 200) -> str:
    """The payload with a `//` restored where a link's path lost one (some tools fold
    `//` into `/`); SudokuPad tries the same. The payload unchanged when it reads."""
    def reads(data: str) -> bool:
        text = decompress_from_base64(data) or ""
        return text.lstrip()[:1] == "{"
    if "/" not in body or reads(body):
        return body
    for tried, at in enumerate(m.start() for m in re.finditer(r"(?<!/)/(?!/)", body)):
        if tried >= most:
            break
        fixed = body[:at] + "/" + body[at:]
        if reads(fixed):
            return fixed
    return body


def _read_text(text: str, source: str, what: str) -> Puzzle:
    """The puzzle of an unpacked payload: JSON as it is, else SudokuPad's zipped form."""
    check_bounds(text, source)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        data = unzip(text, source, what)
    except ValueError as exc:  # a number past Python's int() limit
        raise ParseError(f"{what} is not JSON: {exc}", source) from None
    if not isinstance(data, dict):
        raise ParseError(f"{what} is not a puzzle object", source)
    if not sudokupad_elements.is_sudokupad(data):
        raise ParseError(f"{what} is not a SudokuPad puzzle (it has no rows of cells)", source)
    return from_sudokupad(data, source)


# ---------------------------------------------------------------- the zipped notation

def unzip(text: str, source: str = "<string>", what: str = "the puzzle") -> Any:
    """A value in SudokuPad's zipped notation, with its keys made long (`KEYS`)."""
    value = _Zipped(text, source, what).document()
    return _long_keys(value)


def _long_keys(value: Any) -> Any:
    if isinstance(value, list):
        return [_long_keys(v) for v in value]
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            long = _LONG[key] if key in _LONG else str(key)
            if long in out and long != key:
                raise ValueError(f"the keys {key!r} and {long!r} collide")
            out[long] = _long_keys(item)
        return out
    if isinstance(value, str) and _HEX6.fullmatch(value):
        return "#" + value  # SudokuPad reads any six-hex-digit string as a colour
    return value


class _Zipped:
    """A reader of the zipped notation: JSON with unquoted keys, single-quoted strings,
    empty array slots for `{}` and the short literals. Errors name the column."""

    def __init__(self, text: str, source: str, what: str):
        self.text, self.source, self.what, self.pos = text, source, what, 0

    def fail(self, message: str) -> NoReturn:
        raise ParseError(f"{self.what} is neither JSON nor SudokuPad's zipped form: {message} "
                         f"at character {self.pos + 1}", self.source)

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def document(self) -> Any:
        value = self.value(0, after_colon=False)
        if self.peek():
            self.fail(f"unexpected {self.text[self.pos]!r} after the puzzle")
        return value

    def value(self, depth: int, after_colon: bool) -> Any:
        if depth > MAX_DEPTH:
            self.fail(f"nested more than {MAX_DEPTH} levels deep")
        ch = self.peek()
        if ch == "{":
            return self.obj(depth + 1)
        if ch == "[":
            return self.array(depth + 1)
        if ch in "'\"":
            return self.string(ch)
        return self.literal(after_colon)

    def obj(self, depth: int) -> dict:
        self.pos += 1
        out: dict[str, Any] = {}
        if self.peek() == "}":
            self.pos += 1
            return out
        while True:
            ch = self.peek()
            if ch in "'\"":
                key = self.string(ch)
            else:
                found = _KEY.match(self.text, self.pos)
                if not found:
                    self.fail("expected a key")
                key = found.group()
                self.pos = found.end()
            if self.peek() != ":":
                self.fail(f"expected ':' after the key {key!r}")
            self.pos += 1
            out[key] = self.value(depth, after_colon=True)
            ch = self.peek()
            self.pos += 1
            if ch == "}":
                return out
            if ch != ",":
                self.pos -= 1
                self.fail("expected ',' or '}'")

    def array(self, depth: int) -> list:
        self.pos += 1
        out: list[Any] = []
        if self.peek() == "]":
            self.pos += 1
            return out
        while True:
            ch = self.peek()
            # an empty slot is an empty object: the zipper drops `{}` between commas
            out.append({} if ch in ",]" else self.value(depth, after_colon=False))
            ch = self.peek()
            self.pos += 1
            if ch == "]":
                return out
            if ch != ",":
                self.pos -= 1
                self.fail("expected ',' or ']'")

    def string(self, quote: str) -> str:
        if quote == '"':
            try:
                value, self.pos = _JSON.raw_decode(self.text, self.pos)
            except json.JSONDecodeError as exc:
                self.fail(exc.msg.lower())
            return value
        out: list[str] = []
        i = self.pos + 1
        while i < len(self.text):
            ch = self.text[i]
            if ch == "'":
                self.pos = i + 1
                return "".join(out)
            if ch == "\\" and i + 1 < len(self.text):
                nxt = self.text[i + 1]
                if nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", self.text[i + 2:i + 6]):
                    out.append(chr(int(self.text[i + 2:i + 6], 16)))
                    i += 6
                    continue
                out.append({"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}.get(nxt, nxt))
                i += 2
                continue
            out.append(ch)
            i += 1
        self.fail("a string is not closed")

    def literal(self, after_colon: bool) -> Any:
        found = _TOKEN.match(self.text, self.pos)
        if not found:
            self.fail("expected a value")
        token = found.group()
        self.pos = found.end()
        words = {"t": True, "true": True, "f": False, "false": False, "null": None,
                 "#0": "#000000", "#F": "#FFFFFF"}
        if token in words:
            return words[token]
        if after_colon and _HEX6.fullmatch(token):
            return "#" + token  # a colour: the zipper drops its '#' and quotes
        if token.startswith("#") and re.fullmatch(r"#[0-9a-fA-F]{3,8}", token):
            return token
        if _NUMBER.fullmatch(token):
            if len(token) > 100:
                self.fail(f"a number of {len(token)} characters")
            number = float(token)
            return int(number) if number.is_integer() and not re.search(r"[.eE]", token) \
                else number
        self.fail(f"unexpected {token[:20]!r}")


__all__ = ["KEYS", "from_link", "from_sudokupad", "load",
           "looks_like_sudokupad", "unzip"]
