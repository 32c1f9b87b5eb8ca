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

# (size, variant) -> difficulty ("" for any) -> the symmetries offered with it (SYMMETRIES:
# every one).
# Measured by python -m cpsudoku.bench.menu --seeds 3 --limit 6 (docs/play.md): every
# seed made a puzzle within 6 s, under the page's 20 s.
OFFERED: dict[tuple[int, str], dict[str, tuple[str, ...]]] = {
    (4, 'classic'): {
        '': SYMMETRIES,
    },
    (4, 'diagonal'): {
        '': SYMMETRIES,
    },
    (4, 'anti-knight'): {
        '': SYMMETRIES,
    },
    (4, 'windoku'): {
        '': SYMMETRIES,
    },
    (4, 'jigsaw'): {
        '': SYMMETRIES,
    },
    (4, 'killer'): {
        '': SYMMETRIES,
    },
    (6, 'classic'): {
        '': SYMMETRIES,
    },
    (6, 'diagonal'): {
        '': SYMMETRIES,
    },
    (6, 'anti-knight'): {
        '': SYMMETRIES,
    },
    (6, 'anti-king'): {
        '': SYMMETRIES,
    },
    (6, 'non-consecutive'): {
        '': SYMMETRIES,
    },
    (6, 'jigsaw'): {
        '': SYMMETRIES,
    },
    (6, 'killer'): {
        '': SYMMETRIES,
    },
    (9, 'classic'): {
        '': SYMMETRIES,
        'easy': SYMMETRIES,
        'medium': SYMMETRIES,
        'hard': SYMMETRIES,
        'fiendish': SYMMETRIES,
        'diabolical': SYMMETRIES,
    },
    (9, 'diagonal'): {
        '': SYMMETRIES,
        'easy': SYMMETRIES,
        'medium': SYMMETRIES,
        'diabolical': ('none', 'antidiagonal'),
    },
    (9, 'anti-knight'): {
        '': SYMMETRIES,
        'easy': ('none', 'rot180', 'rot90', 'flip', 'diagonal', 'antidiagonal', 'dihedral'),
        'medium': ('none', 'rot90', 'dihedral'),
    },
    (9, 'anti-king'): {
        '': SYMMETRIES,
    },
    (9, 'windoku'): {
        '': SYMMETRIES,
    },
    (9, 'jigsaw'): {
        '': SYMMETRIES,
    },
    (9, 'killer'): {
        '': SYMMETRIES,
    },
    (16, 'classic'): {
        '': SYMMETRIES,
    },
    (16, 'diagonal'): {
        '': ('none', 'rot180', 'mirror', 'diagonal', 'antidiagonal', 'dihedral'),
    },
    (16, 'anti-king'): {
        '': ('none', 'rot180', 'rot90', 'mirror', 'flip', 'diagonal', 'antidiagonal'),
    },
}


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
