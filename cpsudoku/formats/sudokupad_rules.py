"""What a SudokuPad drawing means: colour families, the conventions of line colours and
shapes, and what a puzzle's rules text says about them.

SudokuPad draws rules without naming them. A line's colour and shape carry a convention
(green: German whispers, purple: renban, blue: region-sum lines, grey: palindromes; a
bulb at one end: a thermometer; circles at both ends: a between line); the rules text
decides where it names a rule beside a colour ("Two cells adjacent along a red line ...
one even digit and one odd digit") or where the convention is silent. A drawing that
could mean several rules with nothing to decide between them is refused by the reader,
which lists the readings `line_readings` gives.
"""

from __future__ import annotations

import colorsys
import re

# Colour words of each family, as a rules text says them.
COLOUR_WORDS: dict[str, tuple[str, ...]] = {
    "green": ("green", "lime"),
    "purple": ("purple", "violet", "magenta", "pink", "lilac", "lavender"),
    "blue": ("blue", "cyan", "teal", "turquoise", "aqua"),
    "grey": ("grey", "gray", "silver"),
    "red": ("red", "crimson", "scarlet"),
    "orange": ("orange", "amber"),
    "yellow": ("yellow", "gold"),
    "brown": ("brown",),
    "black": ("black",),
    "white": ("white",),
}

# Line rules by the phrases a rules text names them with (lower case). Where one phrase
# holds another (a Dutch whisper is also a whisper), the longer match wins.
LINE_PHRASES: dict[str, str] = {
    "whispers": r"whisper|differ(?:ence)? (?:by |of )?at least (?:5|five)"
                r"|at least (?:5|five) apart",
    "dutch_whispers": r"dutch whisper|differ(?:ence)? (?:by |of )?at least (?:4|four)"
                      r"|at least (?:4|four) apart",
    "renban": r"renban|(?:set|run|sequence|string) of (?:non-?repeating |distinct |unique )?"
              r"consecutive|consecutive (?:digits|numbers),? in any order",
    "region_sum_lines": r"region[- ]sum|box[- ]sum|(?:same|equal) sums? (?:in|within|for|on) "
                        r"(?:each|every) (?:box|region|segment)",
    "palindromes": r"palindrom|reads? the same (?:in both directions|forwards and backwards"
                   r"|backwards)",
    "between_lines": r"between[- ]lines?|strictly between",
    "lockout_lines": r"lockout",
    "double_arrows": r"double[- ]arrow",
    "entropic_lines": r"entropic|low \(1-3\)",
    "modular_lines": r"modular|modulo|mod(?:ulus)? 3|remainders?",
    "parity_lines": r"parity line|alternat\w* (?:between |in )?(?:odd and even|even and odd"
                    r"|parity)|one even (?:digit )?and one odd|one odd (?:digit )?and one even",
    "zipper_lines": r"zipper|equidistant from the (?:cent(?:er|re)|middle)",
    "sum_lines": r"\b(?:10|ten)[- ]lines?|sum[- ]lines?",
    "slow_thermometers": r"slow[- ]thermo|increase or stay the same|never decrease"
                         r"|non-?decreasing",
    "thermometers": r"thermo|increase from (?:the )?bulb",
}

# The rules each shape of line can draw, and the one it draws when nothing else says.
SHAPE_RULES: dict[str, tuple[str, ...]] = {
    "bulb": ("thermometers", "slow_thermometers"),
    "ends": ("between_lines", "lockout_lines", "double_arrows"),
    "plain": ("whispers", "dutch_whispers", "renban", "region_sum_lines", "palindromes",
              "entropic_lines", "modular_lines", "parity_lines", "zipper_lines", "sum_lines"),
}
SHAPE_DEFAULT = {"bulb": "thermometers", "ends": "between_lines"}
COLOUR_DEFAULT = {"green": "whispers", "purple": "renban", "blue": "region_sum_lines",
                  "grey": "palindromes"}
SHAPE_WORDS = {"bulb": "a line from a bulb", "ends": "a line with circles at both ends",
               "plain": "a line"}

# Outside clues without arrows: which rule their numbers give.
OUTSIDE_PHRASES: dict[str, str] = {
    "sandwiches": r"sandwich|between (?:the )?1 and (?:the )?9",
    "x_sums": r"x[- ]?sums?|first x (?:cells|digits)",
    "skyscrapers": r"skyscraper|buildings? (?:visible|seen)",
    "numbered_rooms": r"numbered room",
}

_SENTENCE = re.compile(r"[^.;!?\n]+")


def colour_family(colour) -> str:
    """The family of a SudokuPad colour ('#rgb', '#rrggbb', with alpha or without, or
    'rgb(...)'/'rgba(...)'): 'none' when absent or transparent, else a COLOUR_WORDS key."""
    rgba = _rgba(colour)
    if rgba is None:
        return "none"
    r, g, b, a = rgba
    if a < 0.1:
        return "none"
    hue, sat, val = colorsys.rgb_to_hsv(r, g, b)
    if val < 0.2:
        return "black"
    if sat < 0.15 or (val < 0.35 and sat < 0.3):
        return "white" if val > 0.92 else "grey"
    deg = hue * 360
    if deg < 15 or deg >= 345:
        return "red"
    if deg < 45:
        return "orange" if val > 0.6 else "brown"
    if deg < 70:
        return "yellow"
    if deg < 170:
        return "green"
    if deg < 255:
        return "blue"
    return "purple"


def _rgba(colour) -> tuple[float, float, float, float] | None:
    if not isinstance(colour, str):
        return None
    text = colour.strip().lower()
    found = re.fullmatch(r"#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})", text)
    if found:
        digits = found.group(1)
        if len(digits) <= 4:
            digits = "".join(ch * 2 for ch in digits)
        parts = [int(digits[i:i + 2], 16) / 255 for i in range(0, len(digits), 2)]
        return parts[0], parts[1], parts[2], parts[3] if len(parts) == 4 else 1.0
    found = re.fullmatch(r"rgba?\(([^)]*)\)", text)
    if found:
        try:
            values = [float(v) for v in found.group(1).replace("/", ",").split(",") if v.strip()]
        except ValueError:
            return None
        if len(values) in (3, 4):
            alpha = values[3] if len(values) == 4 else 1.0
            return values[0] / 255, values[1] / 255, values[2] / 255, alpha
    named = {"white": (1, 1, 1), "black": (0, 0, 0), "red": (1, 0, 0), "green": (0, 0.5, 0),
             "blue": (0, 0, 1), "grey": (0.5, 0.5, 0.5), "gray": (0.5, 0.5, 0.5),
             "orange": (1, 0.65, 0), "yellow": (1, 1, 0), "purple": (0.5, 0, 0.5)}
    if text in named:
        return (*named[text], 1.0)
    return None


class RulesText:
    """A puzzle's rules, read for the rules they name and the colours they name them by."""

    def __init__(self, text: str):
        self.text = re.sub(r"[‘’`´]", "'", text or "").lower()
        self.sentences = [s.group().strip() for s in _SENTENCE.finditer(self.text)]
        self.by_colour: dict[str, set[str]] = {}  # line rules each colour's lines are named
        self.colour_lines: set[str] = set()  # families a sentence speaks of as lines
        for sentence in self.sentences:
            if not re.search(r"\blines?\b", sentence):
                continue
            colours = [(m.start(), family) for family, words in COLOUR_WORDS.items()
                       for m in re.finditer(r"\b(?:" + "|".join(words) + r")\b", sentence)]
            if not colours:
                continue
            self.colour_lines.update(family for _, family in colours)
            for rule, start in _matches(sentence, LINE_PHRASES):
                before = [c for c in colours if c[0] <= start]
                family = max(before)[1] if before else min(colours)[1]
                self.by_colour.setdefault(family, set()).add(rule)
        self.named = {rule for rule, _ in _matches(self.text, LINE_PHRASES)}

    @property
    def empty(self) -> bool:
        return not self.text.strip()

    def says(self, pattern: str) -> bool:
        return re.search(pattern, self.text) is not None

    def line_readings(self, family: str, shape: str) -> tuple[str | None, list[str]]:
        """The rule a line of this colour family and shape draws (None when nothing
        decides), and the readings to name when it is refused."""
        allowed = SHAPE_RULES[shape]
        by_colour = sorted(self.by_colour.get(family, set()) & set(allowed))
        if len(by_colour) == 1:
            return by_colour[0], by_colour
        if by_colour:
            return None, by_colour
        default = COLOUR_DEFAULT.get(family) if shape == "plain" else SHAPE_DEFAULT[shape]
        named = sorted(self.named & set(allowed))
        if family in self.colour_lines:
            # the text speaks of these lines but names no rule cpsudoku reads
            return None, named or list(allowed)
        claimed = {rule for other, rules in self.by_colour.items() if other != family
                   for rule in rules}
        free = [rule for rule in named if rule not in claimed]
        if default is not None and (not free or default in named):
            return default, [default]
        # A shape's usual rule gives way to the one rule the text names for that shape;
        # a colour's convention contradicted by the text decides nothing.
        if (default is None or shape != "plain") and len(free) == 1:
            return free[0], free
        readings = sorted({default, *free}) if default else free
        return None, readings or list(allowed)

    def outside_readings(self) -> list[str]:
        """The outside-clue rules the text names."""
        return sorted({rule for rule, _ in _matches(self.text, OUTSIDE_PHRASES)})

    def all_given(self, thing: str) -> bool:
        """Whether the text says every `thing` (a regex: dots, X and V) is given: the
        negative constraint."""
        for sentence in self.sentences:
            if not re.search(thing, sentence) or re.search(r"\bnot all\b", sentence):
                continue
            if re.search(r"\ball (?:the )?possible\b|\ball\b.*\b(?:are|is) (?:given|shown"
                         r"|marked|drawn)", sentence):
                return True
        return False


def _matches(text: str, phrases: dict[str, str]) -> list[tuple[str, int]]:
    """(rule, start) of every phrase in `text`, a match inside a longer one of another
    rule left out."""
    found = [(rule, m.start(), m.end()) for rule, pattern in phrases.items()
             for m in re.finditer(pattern, text)]
    return [(rule, start) for rule, start, end in found
            if not any(o != rule and s <= start and end <= e and (e - s) > (end - start)
                       for o, s, e in found)]
