"""What the page needs to draw a puzzle, built from the Puzzle and its rule objects only.

The page never re-derives geometry or rules: it receives the grid size, the region
of every cell, the givens, and each variant element as the puzzle file writes it
(`ElementRule.data()`, cells as "r1c1" names), plus the cell groups of global rules
(diagonals are drawn as lines, windows and other groups are shaded).

Line rules (whispers, renban, ...) are also sent as styled lines, each with its
kind, colour, width and end markers in the conventions setters know from
SudokuPad: whispers green, renban purple, region-sum blue, palindromes grey,
between lines with a circle at each end, lockout lines with diamonds.
"""

from __future__ import annotations

from ..grid.puzzle import Puzzle
from ..grid.symbols import line
from ..rules.element import ElementRule
from ..rules.linerules import LineRule
from ..rules.patterns import PatternRule


def describe(puzzle: Puzzle) -> dict:
    """The puzzle as the page draws it, and the text that reloads it (for the address)."""
    geometry = puzzle.geometry
    rules: list[dict] = []
    elements: dict[str, object] = {}
    lines: list[list[str]] = []
    shaded: list[list[str]] = []
    styled: list[dict] = []
    for rule in puzzle.rules:
        describe_rule = getattr(rule, "describe", None)
        text = describe_rule() if callable(describe_rule) else rule.name
        rules.append({"name": rule.name, "description": text})
        if isinstance(rule, ElementRule):
            for key, value in rule.data().items():
                elements.setdefault(key, value)
        if isinstance(rule, LineRule):
            styled.extend(styled_lines(rule))
        elif isinstance(rule, PatternRule):
            for pattern in rule.patterns:
                if pattern.kind == "offsets" or pattern.kind == "box_positions":
                    continue  # a relation between many pairs: named, not drawn
                target = lines if pattern.kind == "lines" else shaded
                target.extend([geometry.cell_name(c) for c in cells]
                              for cells, _ in pattern.groups(geometry, rule.name))
    return {
        "size": geometry.size,
        "box": list(geometry.box) if geometry.box else None,
        "regions": list(geometry.region_of),
        "houses": geometry.houses,  # False: a raw grid, whose cells have no peers
        "givens": list(puzzle.givens),
        "line": line(puzzle.givens),
        "name": puzzle.name,
        "rules": rules,
        "elements": elements,
        "lines": lines,
        "shaded": shaded,
        "styled_lines": styled,
        "text": puzzle_text(puzzle),
    }


# kind -> (colour, width as a fraction of a cell, end markers, dashed)
LINE_STYLES: dict[str, tuple[str, float, str | None, bool]] = {
    "whispers": ("#67f067", 0.25, None, False),
    "dutch_whispers": ("#ff9b00", 0.25, None, False),
    "renban": ("#f067f0", 0.35, None, False),
    "palindromes": ("#c0c0c0", 0.3, None, False),
    "region_sum_lines": ("#2ecbff", 0.25, None, False),
    "between_lines": ("#c0c0ff", 0.15, "circle", False),
    "lockout_lines": ("#a0a0ff", 0.15, "diamond", False),
    "entropic_lines": ("#ffa050", 0.25, None, False),
    "modular_lines": ("#40c0a0", 0.25, None, False),
    "parity_lines": ("#ff6060", 0.25, None, False),
    "zipper_lines": ("#b4b4ff", 0.25, "middle", False),
    "sum_lines": ("#64c864", 0.2, None, True),
    "slow_thermometers": ("#c8c8c8", 0.3, "bulb", True),
    "double_arrows": ("#a0a0a0", 0.1, "circle", False),
}


def styled_lines(rule: LineRule) -> list[dict]:
    """One drawing per line: its kind, cells, colour, width (a fraction of a cell),
    end markers (circle, diamond, bulb, middle, or none), dashed, and its parameter."""
    colour, width, ends, dashed = LINE_STYLES[rule.key]
    out = []
    for drawn, cells in zip(rule.elements, rule.data()[rule.key]):
        names = cells["cells"] if isinstance(cells, dict) else cells
        if drawn.loop:  # drawn closed: back to its first cell
            names = [*names, names[0]]
        out.append({"kind": rule.key, "cells": names, "colour": colour, "width": width,
                    "ends": ends, "dashed": dashed, "value": drawn.value, "loop": drawn.loop})
    return out


def puzzle_text(puzzle: Puzzle) -> str:
    """The shortest text the parser reads back as this puzzle: the one-line grid for a
    classic boxed puzzle, else the puzzle file."""
    from ..formats.puzzlefile import dumps
    from ..grid.geometry import infer_box
    plain = not puzzle.rules and puzzle.geometry.box is not None
    if plain and puzzle.geometry.box == infer_box(puzzle.size):
        return line(puzzle.givens)
    return dumps(puzzle)
