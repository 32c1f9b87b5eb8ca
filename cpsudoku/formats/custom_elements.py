"""The puzzle-file keys of rules written as data (see `cpsudoku.rules.custom`):

    relations = [{cells = ["r1c1", "r1c2"], expression = "abs(a - b) >= 5"},
                 {cells = ["r2c1", "r2c2", "r2c3"], pairs = [[1, 2], [2, 1]], mode = "all"}]
    regex_lines = [{cells = ["r1c1", "r1c2", "r1c3"], pattern = "1[2-4]+"}]
    automata = [{cells = [...], start = 0, accepting = [1],
                 transitions = [[0, 1, 1], [1, 2, 0]]}]

This module reads the shapes (lists, numbers, text) and names the element of a
malformed one; the rules check what the values mean on the grid."""

from __future__ import annotations

from ..errors import ModelError
from ..grid.automaton import MAX_GIVEN_TRANSITIONS, given_size_problem
from ..rules.custom import Automata, AutomatonLine, RegexLine, RegexLines, Relation, Relations
from .fields import cell_list, listed, whole

KEYS = ("relations", "regex_lines", "automata")


def rules(data: dict, size: int) -> list:
    """The custom rules whose keys `data` holds."""
    out: list = []
    if "relations" in data:
        out.append(Relations(tuple(_relation(i, item, size) for i, item
                              in enumerate(listed(data["relations"], "relations"), 1))))
    if "regex_lines" in data:
        out.append(RegexLines(tuple(_regex_line(i, item, size) for i, item
                               in enumerate(listed(data["regex_lines"], "regex_lines"), 1))))
    if "automata" in data:
        read: dict[int, tuple] = {}  # one list of transitions shared by many lines: read once
        out.append(Automata(tuple(_automaton(i, item, size, read) for i, item
                             in enumerate(listed(data["automata"], "automata"), 1))))
    return out


def _table(item, what: str, known: tuple[str, ...]) -> dict:
    if not isinstance(item, dict):
        raise ModelError(f"{what} must be a table with {', '.join(known)}, not {item!r}")
    unknown = sorted(set(item) - set(known))
    if unknown:
        raise ModelError(f"{what}: unknown key {unknown[0]!r}; known: {', '.join(known)}")
    return item


def _text(value, what: str) -> str:
    if not isinstance(value, str):
        raise ModelError(f"{what} must be text, not {value!r}")
    return value


def _relation(i: int, item, size: int) -> Relation:
    what = f"relation {i}"
    item = _table(item, what, ("cells", "expression", "pairs", "mode", "name"))
    pairs = None
    if "pairs" in item:
        pairs = []
        for j, pair in enumerate(listed(item["pairs"], f"{what} pairs"), 1):
            if not isinstance(pair, list) or len(pair) != 2:
                raise ModelError(f"{what}: pair {j} must be two values [a, b], not {pair!r}")
            pairs.append((whole(pair[0], f"{what} pair {j}"), whole(pair[1], f"{what} pair {j}")))
    expression = item.get("expression")
    return Relation(cell_list(item.get("cells", []), size, what),
                    None if expression is None else _text(expression, f"{what} expression"),
                    None if pairs is None else tuple(pairs),
                    _text(item.get("mode", "line"), f"{what} mode"),
                    _text(item.get("name", ""), f"{what} name"))


def _regex_line(i: int, item, size: int) -> RegexLine:
    what = f"regex line {i}"
    item = _table(item, what, ("cells", "pattern"))
    if "pattern" not in item:
        raise ModelError(f"{what}: give its pattern")
    return RegexLine(cell_list(item.get("cells", []), size, what),
                     _text(item["pattern"], f"{what} pattern"))


def _automaton(i: int, item, size: int, read: dict[int, tuple]) -> AutomatonLine:
    what = f"automaton {i}"
    item = _table(item, what, ("cells", "start", "accepting", "transitions", "name"))
    start = item.get("start", 0)
    starts = listed(start, f"{what} start") if isinstance(start, list) else [start]
    given = item.get("transitions", [])
    # ISS's Replicate copies one automaton over many cells (Stepped Thermos: 54 lines
    # of 864 transitions, 70 ms of reading each time)
    transitions = read.get(id(given))
    if transitions is None:
        transitions = read[id(given)] = _transitions(given, what)
    return AutomatonLine(cell_list(item.get("cells", []), size, what),
                         tuple(whole(s, f"{what} start") for s in starts),
                         tuple(whole(s, f"{what} accepting state")
                               for s in listed(item.get("accepting", []), f"{what} accepting")),
                         transitions, _text(item.get("name", ""), f"{what} name"))


def _transitions(given, what: str) -> tuple[tuple[int, int, int], ...]:
    if isinstance(given, list) and len(given) > MAX_GIVEN_TRANSITIONS:  # refused unread
        raise ModelError(f"{what}: {given_size_problem(0, len(given))}")
    if isinstance(given, list) and all(  # the common case, checked in one sweep
            type(t) is list and len(t) == 3 and type(t[0]) is int and type(t[1]) is int
            and type(t[2]) is int for t in given):
        return tuple(map(tuple, given))
    out = []
    for j, t in enumerate(listed(given, f"{what} transitions"), 1):
        if not isinstance(t, list) or len(t) != 3:
            raise ModelError(f"{what}: transition {j} must be [state, digit, next state], "
                             f"not {t!r}")
        s, v, nxt = (whole(x, f"{what} transition {j}") for x in t)
        out.append((s, v, nxt))
    return tuple(out)
