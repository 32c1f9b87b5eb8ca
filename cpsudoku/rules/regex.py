"""Regular expressions over digits, compiled to the automata the `Regular` kind reads.

The digits along a line, read as a string, must match the pattern as a whole. The
subset is the one the Interactive Sudoku Solver's regex lines use: digits (and `A`..`Z`
for 10 and up), `.` (any digit), classes `[1-3579]` and `[^5]`, groups `( )`,
alternation `|`, and the quantifiers `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`; spaces are
ignored. Anything else (anchors, escapes, lazy quantifiers, back-references ...) is
refused naming the character and its column.

Characters stand for the grid's digits as shown (`0` on a 0-indexed grid, as ISS
reads them); `.` is any of them.

The pattern is parsed by recursive descent into a small tree, built into a Thompson
NFA (fragments joined by empty moves), then the empty moves are closed over so that
the `Automaton` has only moves on digits. Bounded repeats copy their fragment, so
they are capped at `MAX_REPEAT`; repeats inside repeats multiply the copies, so
repetition nests at most `MAX_NESTING` deep and a pattern may expand to at most
`MAX_STATES` states (closing over the empty moves costs about the square of those),
both checked on the tree before anything is built.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..errors import ModelError
from ..grid import deadline
from ..grid.automaton import MAX_GIVEN_STATES, MAX_GIVEN_TRANSITIONS, Automaton
from .alphabet import digit_range, shown

MAX_REPEAT = 64
MAX_LENGTH = 1000
MAX_NESTING = 3  # a repeat within a repeat within a repeat; no regex puzzle needs more
MAX_GROUPS = 32  # groups within groups (the parser recurses once per level)
MAX_STATES = MAX_GIVEN_STATES  # as many as an automaton given as data may have

# pattern trees: ("set", values) | ("cat", parts) | ("alt", parts) | ("repeat", part, m, n)
Node = tuple


def symbol_value(ch: str) -> int | None:
    """The value a pattern character stands for: 0-9, then A (or a) = 10 ... Z = 35."""
    if ch.isdigit() and ch.isascii():
        return int(ch)
    if ch.isascii() and ch.isalpha():
        return ord(ch.lower()) - ord("a") + 10
    return None


@dataclass
class _Parser:
    text: str
    digits: range
    what: str
    pos: int = 0
    depth: int = 0  # groups open

    def fail(self, message: str, at: int | None = None) -> ModelError:
        column = (self.pos if at is None else at) + 1
        return ModelError(f"{self.what}: pattern {self.text!r}: {message} at column {column}")

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def parse(self) -> Node:
        node = self.alternation()
        if self.pos < len(self.text):
            ch = self.peek()
            raise self.fail("unmatched ')'" if ch == ")" else f"unexpected {ch!r}")
        return node

    def alternation(self) -> Node:
        parts = [self.sequence()]
        while self.peek() == "|":
            self.pos += 1
            parts.append(self.sequence())
        return parts[0] if len(parts) == 1 else ("alt", tuple(parts))

    def sequence(self) -> Node:
        parts = []
        while self.peek() and self.peek() not in "|)":
            parts.append(self.quantified())
        return ("cat", tuple(parts))

    def quantified(self) -> Node:
        node = self.atom()
        while self.peek() and self.peek() in "*+?{":
            at, ch = self.pos, self.peek()
            self.pos += 1
            if ch == "*":
                node = ("repeat", node, 0, None)
            elif ch == "+":
                node = ("repeat", node, 1, None)
            elif ch == "?":
                node = ("repeat", node, 0, 1)
            else:
                least, most = self.bounds(at)
                node = ("repeat", node, least, most)
            if self.peek() in ("?", "+") and self.peek():
                raise self.fail(f"lazy or possessive quantifier {ch + self.peek()!r} is not "
                                f"supported")
        return node

    def bounds(self, at: int) -> tuple[int, int | None]:
        close = self.text.find("}", self.pos)
        body = self.text[self.pos:close] if close >= 0 else ""
        parts = body.split(",")
        if close < 0 or len(parts) > 2 or not parts[0].isdigit() or (
                len(parts) == 2 and parts[1] and not parts[1].isdigit()):
            raise self.fail("a repeat is written {n}, {n,} or {n,m}", at)
        least = int(parts[0])
        most = least if len(parts) == 1 else (int(parts[1]) if parts[1] else None)
        if most is not None and most < least or max(least, most or 0) > MAX_REPEAT:
            raise self.fail(f"repeat {{{body}}} must have n <= m <= {MAX_REPEAT}", at)
        self.pos = close + 1
        return least, most

    def atom(self) -> Node:
        at, ch = self.pos, self.peek()
        if ch == "(":
            self.depth += 1
            if self.depth > MAX_GROUPS:
                raise self.fail(f"groups nested more than {MAX_GROUPS} deep")
            self.pos += 1
            if self.peek() == "?":
                raise self.fail("group flags '(?...)' are not supported")
            inner = self.alternation()
            if self.peek() != ")":
                raise self.fail("missing ')' for the '(' here", at)
            self.pos += 1
            self.depth -= 1
            return inner
        if ch == "[":
            return self.char_class()
        self.pos += 1
        if ch == ".":
            return ("set", frozenset(self.digits))
        if ch in "*+?{":
            raise self.fail(f"{ch!r} has nothing to repeat", at)
        return ("set", frozenset({self.value(ch, at)}))

    def value(self, ch: str, at: int) -> int:
        v = symbol_value(ch)
        if v is None:
            raise self.fail(f"{ch!r} is not supported (digits, '.', '[...]', '( )', '|', "
                            f"'*', '+', '?', '{{m,n}}')", at)
        if v not in self.digits:
            raise self.fail(f"{ch!r} ({v}) is outside the digits {shown(self.digits)}", at)
        return v

    def char_class(self) -> Node:
        start = self.pos
        self.pos += 1
        negate = self.peek() == "^"
        if negate:
            self.pos += 1
        values: set[int] = set()
        while self.peek() != "]":
            if not self.peek():
                raise self.fail("missing ']' for the '[' here", start)
            at = self.pos
            low = self.value(self.peek(), at)
            self.pos += 1
            if self.peek() == "-" and self.pos + 1 < len(self.text) and self.text[
                    self.pos + 1] != "]":
                self.pos += 1
                high = self.value(self.peek(), self.pos)
                if high < low:
                    raise self.fail("a range runs from low to high", at)
                self.pos += 1
                values.update(range(low, high + 1))
            else:
                values.add(low)
        self.pos += 1
        if negate:
            values = set(self.digits) - values
        return ("set", frozenset(values))


def parse(pattern: str, digits: int | range, what: str = "pattern") -> Node:
    """The pattern's tree over `digits` (a range, or n for 1..n)."""
    if not isinstance(pattern, str):
        raise ModelError(f"{what}: a pattern must be text, not {pattern!r}")
    if len(pattern) > MAX_LENGTH:
        raise ModelError(f"{what}: pattern longer than {MAX_LENGTH} characters")
    text = "".join(pattern.split())
    tree = _Parser(text, digit_range(digits), what).parse()
    nesting = _nesting(tree)
    if nesting > MAX_NESTING:
        raise ModelError(f"{what}: pattern {text!r}: repetition nested {nesting} deep, more "
                         f"than the {MAX_NESTING} a pattern may nest")
    states = expanded_states(tree)
    if states > MAX_STATES:
        raise ModelError(f"{what}: pattern {text!r} expands to {states} states, more than "
                         f"the {MAX_STATES} a pattern may expand to (each bounded repeat "
                         f"copies what it repeats)")
    return tree


def _nesting(node: Node) -> int:
    """How deep repeats nest in the tree (0: none)."""
    if node[0] == "set":
        return 0
    if node[0] == "repeat":
        return 1 + _nesting(node[1])
    return max((_nesting(part) for part in node[1]), default=0)


def expanded_states(node: Node) -> int:
    """The states `_Thompson.build` makes for the tree: two per node, and a repeat's
    part once per copy (the least number of times, then each optional copy, or one
    more for a loop)."""
    kind = node[0]
    if kind == "set":
        return 2
    if kind == "repeat":
        _, part, least, most = node
        copies = least + (1 if most is None else most - least)
        return 2 + copies * expanded_states(part)
    return 2 + sum(expanded_states(part) for part in node[1])


class _Thompson:
    """Fragments (start, end) of states joined by empty moves."""

    def __init__(self):
        self.empty: list[list[int]] = []
        self.moves: list[list[tuple[int, int]]] = []

    def state(self) -> int:
        self.empty.append([])
        self.moves.append([])
        return len(self.empty) - 1

    def build(self, node: Node) -> tuple[int, int]:
        kind = node[0]
        start, end = self.state(), self.state()
        if kind == "set":
            for v in sorted(node[1]):
                self.moves[start].append((v, end))
        elif kind == "cat":
            at = start
            for part in node[1]:
                s, e = self.build(part)
                self.empty[at].append(s)
                at = e
            self.empty[at].append(end)
        elif kind == "alt":
            for part in node[1]:
                s, e = self.build(part)
                self.empty[start].append(s)
                self.empty[e].append(end)
        else:
            _, part, least, most = node
            at = start
            for _ in range(least):
                s, e = self.build(part)
                self.empty[at].append(s)
                at = e
            if most is None:  # a loop: any further number of times
                s, e = self.build(part)
                self.empty[at].append(s)
                self.empty[e].append(s)
                self.empty[e].append(end)
            else:
                for _ in range(most - least):  # each optional copy may end the repeat
                    s, e = self.build(part)
                    self.empty[at].append(s)
                    self.empty[at].append(end)
                    at = e
            self.empty[at].append(end)
        return start, end

    def closure(self, state: int) -> frozenset[int]:
        seen, stack = {state}, [state]
        while stack:
            for t in self.empty[stack.pop()]:
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        return frozenset(seen)


@cache
def compile_pattern(pattern: str, digits: int | range, what: str = "pattern") -> Automaton:
    """The automaton that accepts exactly the digit strings matching `pattern` (over
    `digits`, a range, or n for 1..n)."""
    digits = digit_range(digits)
    nfa = _Thompson()
    start, final = nfa.build(parse(pattern, digits, what))
    closures = []
    for s in range(len(nfa.empty)):
        deadline.check()
        closures.append(nfa.closure(s))

    def step(state: int, v: int):
        return [t for s in closures[state] for (w, t) in nfa.moves[s] if w == v]

    # number the states reachable by digit moves, each closed over its empty moves
    number = {start: 0}
    queue = [start]
    transitions = []
    for state in queue:
        deadline.check()
        for v in digits:
            for t in sorted(set(step(state, v))):
                if t not in number:
                    number[t] = len(number)
                    queue.append(t)
                transitions.append((number[state], v, number[t]))
        if len(transitions) > MAX_GIVEN_TRANSITIONS:  # many states, each reaching most
            raise ModelError(f"{what}: pattern {pattern!r} makes an automaton of more than "
                             f"{MAX_GIVEN_TRANSITIONS} transitions, the most an automaton "
                             f"may have")
    accepting = frozenset(number[s] for s in number if final in closures[s])
    return Automaton(0, accepting, tuple(transitions))
