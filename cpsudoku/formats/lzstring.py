"""LZString's compressToBase64 and decompressFromBase64, the encoding of
f-puzzles' `?load=` links.

A faithful port of the reference algorithm (lz-string by Pieroxy, MIT), so
that links can be read and written without an extra dependency.
"""

from __future__ import annotations

from urllib.parse import unquote

_KEYS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
_INDEX = {ch: i for i, ch in enumerate(_KEYS)}


class _Bits:
    """Reads the input as a stream of bits, `reset` bits per input symbol."""

    def __init__(self, values: list[int], reset: int):
        self.values, self.reset = values, reset
        self.val = values[0] if values else 0
        self.position, self.index = reset, 1

    def read(self, count: int) -> int:
        bits, power = 0, 1
        for _ in range(count):
            bit = self.val & self.position
            self.position >>= 1
            if self.position == 0:
                self.position = self.reset
                self.val = self.values[self.index] if self.index < len(self.values) else 0
                self.index += 1
            if bit:
                bits |= power
            power <<= 1
        return bits


def _decompress(values: list[int], reset: int) -> str | None:
    dictionary: list[str] = ["", "", ""]  # codes 0-2 are markers, not entries
    bits = _Bits(values, reset)
    enlarge_in, num_bits = 4, 3
    first = bits.read(2)
    if first == 2:
        return ""
    c = chr(bits.read(8 if first == 0 else 16))
    dictionary.append(c)
    w, result = c, [c]
    while True:
        if bits.index > len(values):
            return ""
        code = bits.read(num_bits)
        if code in (0, 1):
            dictionary.append(chr(bits.read(8 if code == 0 else 16)))
            code = len(dictionary) - 1
            enlarge_in -= 1
        elif code == 2:
            return "".join(result)
        if enlarge_in == 0:
            enlarge_in = 1 << num_bits
            num_bits += 1
        if code < len(dictionary):
            entry = dictionary[code]
        elif code == len(dictionary):
            entry = w + w[0]
        else:
            return None
        result.append(entry)
        dictionary.append(w + entry[0])
        enlarge_in -= 1
        w = entry
        if enlarge_in == 0:
            enlarge_in = 1 << num_bits
            num_bits += 1


def decompress_from_base64(text: str) -> str | None:
    """The text packed by LZString.compressToBase64, or None if it is not such data.

    Accepts what a link carries: URL escapes (%2B) and '+' turned into spaces.
    """
    text = unquote(text.strip()).replace(" ", "+")
    if not text:
        return ""
    if any(ch not in _INDEX for ch in text):
        return None
    try:
        return _decompress([_INDEX[ch] for ch in text], 32)
    except (IndexError, ValueError):
        return None


class _Writer:
    """Collects bits, least significant first per value, `width` bits per output symbol."""

    def __init__(self, width: int):
        self.width = width
        self.out: list[int] = []
        self.value = self.position = 0

    def write(self, value: int, count: int) -> None:
        for _ in range(count):
            self.value = (self.value << 1) | (value & 1)
            value >>= 1
            if self.position == self.width - 1:
                self.out.append(self.value)
                self.value = self.position = 0
            else:
                self.position += 1

    def flush(self) -> list[int]:
        while True:
            self.value <<= 1
            if self.position == self.width - 1:
                self.out.append(self.value)
                return self.out
            self.position += 1


def _compress(text: str, width: int) -> list[int]:
    codes: dict[str, int] = {}
    fresh: set[str] = set()  # single characters not yet written out literally
    bits = _Writer(width)
    w, enlarge_in, size, num_bits = "", 2, 3, 2

    def emit(w: str) -> None:
        nonlocal enlarge_in, num_bits
        if w in fresh:
            wide = ord(w[0]) >= 256
            bits.write(1 if wide else 0, num_bits)
            bits.write(ord(w[0]), 16 if wide else 8)
            enlarge_in -= 1
            if enlarge_in == 0:
                enlarge_in, num_bits = 1 << num_bits, num_bits + 1
            fresh.discard(w)
        else:
            bits.write(codes[w], num_bits)
        enlarge_in -= 1
        if enlarge_in == 0:
            enlarge_in, num_bits = 1 << num_bits, num_bits + 1

    for c in text:
        if c not in codes:
            codes[c] = size
            size += 1
            fresh.add(c)
        if w + c in codes:
            w += c
        else:
            emit(w)
            codes[w + c] = size
            size += 1
            w = c
    if w:
        emit(w)
    bits.write(2, num_bits)  # end of stream
    return bits.flush()


def compress_to_base64(text: str) -> str:
    """LZString.compressToBase64: the payload of an f-puzzles `?load=` link."""
    # JavaScript strings are UTF-16: characters beyond U+FFFF count as two units.
    units = text.encode("utf-16-le", "surrogatepass")
    text = "".join(chr(units[i] | units[i + 1] << 8) for i in range(0, len(units), 2))
    out = "".join(_KEYS[v] for v in _compress(text, 6))
    return out + "=" * (-len(out) % 4)
