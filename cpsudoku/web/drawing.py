"""What the page needs to draw a puzzle, built from the Puzzle and its rule objects only.

The page never re-derives geometry or rules: it receives the grid size, the region
of every cell, the givens, and each variant element as the puzzle file writes it
(`ElementRule.data()`, cells as "r1c1" names), plus the cell groups of global rules
(diagonals are drawn as lines, windows and other groups are shaded).
"""

from __future__ import annotations

from ..grid.puzzle import Puzzle
from ..grid.symbols import line
from ..rules.element import ElementRule
from ..rules.patterns import PatternRule


def describe(puzzle: Puzzle) -> dict:
    """The puzzle as the page draws it, and the text that reloads it (for the address)."""
    geometry = puzzle.geometry
    rules: list[dict] = []
    elements: dict[str, object] = {}
    lines: list[list[str]] = []
    shaded: list[list[str]] = []
    for rule in puzzle.rules:
        describe_rule = getattr(rule, "describe", None)
        text = describe_rule() if callable(describe_rule) else rule.name
        rules.append({"name": rule.name, "description": text})
        if isinstance(rule, ElementRule):
            for key, value in rule.data().items():
                elements.setdefault(key, value)
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
        "givens": list(puzzle.givens),
        "line": line(puzzle.givens),
        "name": puzzle.name,
        "rules": rules,
        "elements": elements,
        "lines": lines,
        "shaded": shaded,
        "text": puzzle_text(puzzle),
    }


def puzzle_text(puzzle: Puzzle) -> str:
    """The shortest text the parser reads back as this puzzle: the one-line grid for a
    classic boxed puzzle, else the puzzle file."""
    from ..formats.puzzlefile import dumps
    from ..grid.geometry import infer_box
    plain = not puzzle.rules and puzzle.geometry.box is not None
    if plain and puzzle.geometry.box == infer_box(puzzle.size):
        return line(puzzle.givens)
    return dumps(puzzle)
