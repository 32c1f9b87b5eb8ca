"""The one difficulty vocabulary: Sudoku Explainer's five bands of its ER scale. `rate`
names a rating with them, `generate --difficulty` asks for one, the play page shows them."""

from __future__ import annotations

# name -> (lowest, highest) ER, easiest first: SE's own generator presets. ER moves in
# steps of 0.1, so the bands leave no rating out; diabolical runs to the scale's top.
LEVELS: dict[str, tuple[float, float]] = {
    "easy": (1.0, 1.2),
    "medium": (1.3, 1.5),
    "hard": (1.6, 2.5),
    "fiendish": (2.6, 6.0),
    "diabolical": (6.1, 12.0),
}


# The level of a puzzle the logical solver cannot finish: it has no ER, so it is in no
# band (and `generate --difficulty` never gives it).
BEYOND = "beyond the scale"


def level_of(er: float) -> str:
    """The band a rating falls in (a grid with nothing to deduce, ER 0, is easy)."""
    return next((name for name, (_, top) in LEVELS.items() if er < top + 0.05), "diabolical")
