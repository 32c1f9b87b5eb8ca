"""The Interactive Sudoku Solver's binary encodings of relations and automata.

- A pair relation's key (Pair, PairX; Binary and BinaryX are the older spelling with
  `-` and `_` swapped) lists one bit per value pair (a, b), a = 1..N then b = 1..N,
  six bits to a URL-safe base64 character, least significant bit first, trailing
  zero characters left out.
- An automaton (NFA) is a bit stream (most significant bit first) in URL-safe base64:
  a header (format, state bits, symbol count, start and accepting state counts, which
  start states accept, and for the plain format the width of a transition count),
  then per state either its transitions as (symbol, target) pairs ("plain") or a mask
  of the symbols it moves on and one target each ("packed"). States are numbered
  start states first, then the other accepting states, then the rest.

Both are read into plain data (value pairs; states and transitions) and written back
from it; malformed input raises ValueError, which the ISS reader turns into a refusal
naming the item.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Sequence

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_PLAIN, _PACKED = 0, 1


# ---------------------------------------------------------------- pair relations

def pairs_from_key(key: str, n: int, legacy: bool = False) -> list[tuple[int, int]]:
    """The value pairs (a, b) a relation key allows on 1..n."""
    if legacy:  # Binary / BinaryX: the older alphabet, '-' and '_' swapped
        key = key.translate(str.maketrans("-_", "_-"))
    bad = next((ch for ch in key if ch not in B64), None)
    if bad is not None:
        raise ValueError(f"{bad!r} is not a base64 character of a relation key")
    words = [B64.index(ch) for ch in key]
    out = []
    for k in range(n * n):
        if k // 6 < len(words) and words[k // 6] >> (k % 6) & 1:
            out.append((k // n + 1, k % n + 1))
    return out


def key_from_pairs(pairs: Iterable[tuple[int, ...]], n: int) -> str:
    allowed = set(pairs)
    words = [0] * ((n * n + 5) // 6)
    for k in range(n * n):
        if (k // n + 1, k % n + 1) in allowed:
            words[k // 6] |= 1 << (k % 6)
    while words and not words[-1]:
        words.pop()
    return "".join(B64[w] for w in words)


# ---------------------------------------------------------------- automata

def _bits(n: int) -> int:
    return n.bit_length()


class _Reader:
    """Bits, most significant first, read off one big integer (shifts, not a loop a
    bit: an NFA of a few thousand transitions is read in a millisecond)."""

    def __init__(self, data: bytes):
        self.bits, self.at, self.total = int.from_bytes(data, "big"), 0, len(data) * 8

    def left(self) -> int:
        return self.total - self.at

    def read(self, count: int) -> int:
        self.at += count
        if self.at > self.total:
            raise ValueError("the automaton's bit stream ends too soon")
        return self.bits >> (self.total - self.at) & ((1 << count) - 1)


class _Writer:
    def __init__(self):
        self.bits: list[int] = []

    def write(self, value: int, count: int) -> None:
        self.bits.extend(value >> i & 1 for i in range(count - 1, -1, -1))

    def encoded(self) -> str:
        bits = self.bits + [0] * (-len(self.bits) % 8)
        data = bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))
        return base64.urlsafe_b64encode(data).decode().rstrip("=")


Machine = tuple[list[int], list[int], list[tuple[int, int, int]]]  # starts, accepting, moves


def automaton_from_code(code: str) -> Machine:
    """(start states, accepting states, transitions (state, digit, next)) of an ISS NFA."""
    try:
        data = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("the automaton is not URL-safe base64") from None
    if not data:
        raise ValueError("the automaton is empty")
    r = _Reader(data)
    fmt = r.read(2)
    if fmt not in (_PLAIN, _PACKED):
        raise ValueError(f"unknown automaton format {fmt}")
    state_bits = r.read(4) + 1
    symbols = r.read(4) + 1
    starts, accepts = r.read(state_bits), r.read(state_bits)
    start_accepts = r.read(starts)
    moves: list[tuple[int, int, int]] = []
    state = 0
    if fmt == _PLAIN:
        count_bits = r.read(4)
        symbol_bits = _bits(symbols - 1)
        while count_bits and r.left() >= count_bits:
            for _ in range(r.read(count_bits)):
                symbol = r.read(symbol_bits)
                moves.append((state, symbol + 1, r.read(state_bits)))
            state += 1
    else:
        while r.left() >= symbols:
            mask = r.read(symbols)
            for v in range(1, symbols + 1):
                if mask >> (v - 1) & 1:
                    moves.append((state, v, r.read(state_bits)))
            state += 1
    accepting = [i for i in range(starts) if start_accepts >> i & 1]
    accepting += [starts + i for i in range(accepts)]
    return list(range(starts)), accepting, moves


def code_from_automaton(starts: Sequence[int], accepting: Sequence[int],
                        moves: Sequence[tuple[int, int, int]]) -> str:
    """An ISS NFA (plain format) for the automaton: states renumbered as ISS wants them."""
    states = sorted({*starts, *accepting, *(s for m in moves for s in (m[0], m[2]))})
    order = list(dict.fromkeys([*starts, *(s for s in states if s in accepting),
                                *states]))
    number = {s: i for i, s in enumerate(order)}
    symbols = max([1, *(v for _, v, _ in moves)])
    if symbols > 16 or len(order) > 1 << 16:
        raise ValueError("too many digits or states for ISS's automaton encoding")
    state_bits = max(1, _bits(len(order) - 1))
    by_state: list[list[tuple[int, int]]] = [[] for _ in order]
    for s, v, t in sorted(set(moves)):
        by_state[number[s]].append((v - 1, number[t]))
    count_bits = _bits(max(len(m) for m in by_state))
    w = _Writer()
    start_accepts = sum(1 << i for i, s in enumerate(starts) if s in accepting)
    w.write(_PLAIN, 2)
    w.write(state_bits - 1, 4)
    w.write(symbols - 1, 4)
    w.write(len(starts), state_bits)
    w.write(len([s for s in accepting if s not in starts]), state_bits)
    w.write(start_accepts, len(starts))
    w.write(count_bits, 4)
    for outs in by_state:
        w.write(len(outs), count_bits)
        for symbol, target in outs:
            w.write(symbol, _bits(symbols - 1))
            w.write(target, state_bits)
    return w.encoded()
