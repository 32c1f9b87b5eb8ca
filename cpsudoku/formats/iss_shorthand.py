"""The one-line shorthands the Interactive Sudoku Solver reads besides constraint strings.

- Killer: 81 characters, one per cell in reading order. A cage's sum stands in one of
  its cells (`0`-`9`, `A`-`Z` for 10-35, `a`-`j` for 36-45); every other cell holds an
  arrow to a neighbour in the same cage (`<` `>` `^` `v`, and the diagonals `` ` ``
  up-left, `'` up-right, `,` down-left, `.` down-right), followed until a sum.
- Jigsaw: the givens (one character a cell, as a plain grid: digits, or for grids
  above 9x9 `A`=1 ... `P`=16 with `0` blank), then the region layout (one label a
  cell, N labels each N times); whitespace between them is ignored.
- SudoCue's killer (`3x3::k:` or, with both diagonals, `3x3:d:k:`, then 81 numbers
  each followed by `:`): each number is a cage's sum times 256 plus the cage's id; a sum
  of 0 leaves the cell out of every cage.
- Pencil marks: N*N*N characters, N for each cell in reading order, holding a digit
  where the cell may take it and `.` where not (a cell with one digit is a given).

Each becomes a puzzle-file dict, loaded like every other puzzle; a bad character is
named with its column.
"""

from __future__ import annotations

import re

from ..errors import ParseError

_ARROWS = {"<": (0, -1), ">": (0, 1), "^": (-1, 0), "v": (1, 0),
           "`": (-1, -1), "'": (-1, 1), ",": (1, -1), ".": (1, 1)}
_KILLER_HINT = re.compile(r"[<>^v]")
_KILLER_CHARS = re.compile(r"[0-9A-Za-j<>^v`',.]+")
_SUDOCUE = re.compile(r"3x3:d?:k:")
_PENCILMARKS = re.compile(r"[1-9.]+")


def _first(text: str) -> str:
    return next((s for s in text.splitlines() if s.strip() and not s.lstrip().startswith("#")),
                "")


def _squeezed(text: str) -> str:
    """The first meaningful line, whitespace removed (ISS ignores it)."""
    return re.sub(r"\s+", "", _first(text))


def kind(text: str) -> str | None:
    """'killer', 'jigsaw', 'sudocue', 'pencilmarks' or None: which shorthand `text` is,
    from its first line."""
    line = _squeezed(text)
    if "~" in line:
        return None
    if _SUDOCUE.match(line):
        return "sudocue"
    n = round(len(line) ** (1 / 3))
    if 4 <= n <= 9 and n ** 3 == len(line) and _PENCILMARKS.fullmatch(line):
        return "pencilmarks"
    # a killer may open with `.` (an arrow down-right); a constraint string then holds
    # letters no killer has
    if len(line) == 81 and _KILLER_HINT.search(line) and (
            not line.startswith(".") or _KILLER_CHARS.fullmatch(line)):
        return "killer"
    half = len(line) // 2
    n = round(half ** 0.5)
    # at most one space (between givens and layout): rows of numbers are not jigsaws
    spaced = len(_first(text).split()) > 2
    if (not spaced and len(line) % 2 == 0 and n * n == half and n >= 4
            and _is_layout(line[half:], n)):
        return "jigsaw"
    return None


def _is_layout(labels: str, n: int) -> bool:
    counts: dict[str, int] = {}
    for ch in labels:
        counts[ch] = counts.get(ch, 0) + 1
    return len(counts) == n and all(k == n for k in counts.values())


def to_dict(text: str, source: str = "<string>", line: int | None = None) -> dict:
    """The puzzle-file dict of a killer or jigsaw shorthand."""
    squeezed = _squeezed(text)
    found = kind(text)
    if found == "killer":
        return _killer(squeezed, source, line)
    if found == "jigsaw":
        return _jigsaw(squeezed, source, line)
    if found == "sudocue":
        return _sudocue(squeezed, source, line)
    if found == "pencilmarks":
        return _pencilmarks(squeezed)
    raise ParseError("not an ISS killer or jigsaw shorthand", source, line, 1)


def _sum_of(ch: str) -> int | None:
    if ch.isdigit():
        return int(ch)
    if "A" <= ch <= "Z":
        return ord(ch) - ord("A") + 10
    if "a" <= ch <= "j":
        return ord(ch) - ord("a") + 36
    return None


def _killer(chars: str, source: str, line: int | None) -> dict:
    n = 9

    def fail(message: str, at: int) -> ParseError:
        return ParseError(f"ISS killer shorthand: {message}", source, line, at + 1)

    target: list[int] = []
    for at, ch in enumerate(chars):
        if ch in _ARROWS:
            dr, dc = _ARROWS[ch]
            r, c = divmod(at, n)
            if not (0 <= r + dr < n and 0 <= c + dc < n):
                raise fail(f"the arrow {ch!r} at r{r + 1}c{c + 1} points outside the grid", at)
            target.append((r + dr) * n + c + dc)
        elif _sum_of(ch) is not None:
            target.append(at)
        else:
            raise fail(f"{ch!r} is neither a cage sum (0-9, A-Z, a-j) nor an arrow "
                       f"(< > ^ v ` ' , .)", at)
    cages: dict[int, list[str]] = {}
    for at in range(n * n):
        cell, steps = at, 0
        while target[cell] != cell:
            cell, steps = target[cell], steps + 1
            if steps > n * n:
                raise fail(f"the arrows from r{at // n + 1}c{at % n + 1} go round in a loop "
                           f"and never reach a sum", at)
        cages.setdefault(cell, []).append(f"r{at // n + 1}c{at % n + 1}")
    out = []
    for root, cells in sorted(cages.items()):
        total = _sum_of(chars[root])
        # ISS: a sum of 0 shows no sum (the cage's digits still differ)
        out.append({"sum": total, "cells": cells} if total else {"cells": cells})
    return {"size": n, "cages": out}


def _sudocue(text: str, source: str, line: int | None) -> dict:
    n = 9
    head, numbers = text[:text.index(":k:") + 3], text[text.index(":k:") + 3:].split(":")
    if numbers[-1] == "":
        numbers.pop()  # a closing `:`
    if len(numbers) != n * n:
        raise ParseError(f"SudoCue killer: {len(numbers)} cells, expected {n * n}",
                         source, line, len(head) + 1)
    cages: dict[int, tuple[int, list[str]]] = {}
    at = len(head)
    for i, number in enumerate(numbers):
        if not number.isdigit():
            raise ParseError(f"SudoCue killer: cell {i + 1} is {number!r}, not a number",
                             source, line, at + 1)
        total, cage = divmod(int(number), 256)
        at += len(number) + 1
        if total == 0:
            continue  # in no cage
        known = cages.setdefault(cage, (total, []))
        if known[0] != total:
            raise ParseError(f"SudoCue killer: cage {cage} has the sums {known[0]} and "
                             f"{total}", source, line, at - len(number))
        known[1].append(f"r{i // n + 1}c{i % n + 1}")
    data: dict = {"size": n, "cages": [{"sum": total, "cells": cells}
                                        for total, cells in cages.values()]}
    if head.startswith("3x3:d:"):
        data["rules"] = ["diagonal"]
    return data


def _pencilmarks(text: str) -> dict:
    n = round(len(text) ** (1 / 3))
    grid = [[0] * n for _ in range(n)]
    candidates = []
    for cell in range(n * n):
        values = sorted({int(ch) for ch in text[cell * n:(cell + 1) * n] if ch != "."})
        row, col = divmod(cell, n)
        if len(values) == 1:
            grid[row][col] = values[0]
        elif len(values) < n:  # none left: the loader says the puzzle has no solution
            candidates.append({"cell": f"r{row + 1}c{col + 1}", "values": values})
    data: dict = {"size": n, "grid": grid}
    if candidates:
        data["given_candidates"] = candidates
    return data


def _jigsaw(chars: str, source: str, line: int | None) -> dict:
    half = len(chars) // 2
    n = round(half ** 0.5)
    givens, layout = chars[:half], chars[half:]
    grid = [[0] * n for _ in range(n)]
    for at, ch in enumerate(givens):
        value = _given(ch, n)
        if value is None:
            continue  # ISS: every other character is a blank
        grid[at // n][at % n] = value
    return {"size": n, "grid": grid,
            "regions": [layout[row * n:(row + 1) * n] for row in range(n)]}


def _given(ch: str, n: int) -> int | None:
    if n < 10:
        value = int(ch) if ch.isdigit() else 0
    else:
        value = ord(ch) - ord("A") + 1 if "A" <= ch <= "Z" else 0
    return value if 1 <= value <= n else None
