"""Puzzle generation: unique, minimal, symmetric puzzles, classic and variant.

    >>> from cpsudoku import generate
    >>> made = generate(seed=7, symmetry="rot180")
    >>> made.clues == sum(1 for v in made.puzzle.givens if v)
    True
"""

from .bands import BANDS, RatingUnavailable
from .core import Generated, GenerationTimeout, generate, generate_many
from .symmetry import SYMMETRIES

__all__ = ["BANDS", "SYMMETRIES", "Generated", "GenerationTimeout", "RatingUnavailable",
           "generate", "generate_many"]
