"""The page's new-puzzle menu (GET /api/generate/options): only the options measured to
make a puzzle well within the page's time limit.

`python -m cpsudoku.bench.menu` measures every candidate (several seeds each) and prints
the table `OFFERED` holds; docs/play.md keeps the measured figures.
"""

from __future__ import annotations

from .schemas import GENERATE_TIME_LIMIT

SIZES = (4, 6, 9, 16)
VARIANTS = ("classic", "diagonal", "anti-knight", "anti-king", "windoku", "non-consecutive",
            "jigsaw", "killer")
DIFFICULTIES = ("easy", "medium", "hard", "fiendish", "diabolical")
SYMMETRIES = ("none", "rot180", "rot90", "mirror", "flip", "diagonal", "antidiagonal",
              "dihedral")
RATED_SIZES = (9,)  # the rating scale is Sudoku Explainer's, made for 9x9

# (size, variant) -> difficulty ("" for any) -> the symmetries offered with it.
# Measured by python -m cpsudoku.bench.menu --seeds 3 --limit 6 (docs/play.md).
OFFERED: dict[tuple[int, str], dict[str, tuple[str, ...]]] = {}


def candidates() -> list[tuple[int, str, str]]:
    """Every (size, variant, difficulty) the menu could offer, for the benchmark."""
    return [(size, variant, difficulty) for size in SIZES for variant in VARIANTS
            for difficulty in ("",) + (DIFFICULTIES if size in RATED_SIZES else ())]


def menu() -> dict:
    """The choices, as the page reads them: for each size and variant offered, the
    difficulties, and for each difficulty the symmetries."""
    return {
        "time_limit": GENERATE_TIME_LIMIT,
        "sizes": [s for s in SIZES if any(size == s for size, _ in OFFERED)],
        "choices": [{"size": size, "variant": variant,
                     "difficulties": [{"difficulty": difficulty, "symmetries": list(symmetries)}
                                      for difficulty, symmetries in by_difficulty.items()]}
                    for (size, variant), by_difficulty in OFFERED.items()],
    }


def offered(size: int, variant: str, difficulty: str | None, symmetry: str) -> bool:
    return symmetry in OFFERED.get((size, variant), {}).get(difficulty or "", ())
