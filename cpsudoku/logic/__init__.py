"""Human-style solving: explain, hint and rate on the Sudoku Explainer scale."""

from .api import Explanation, Hint, Rating, explain, hint, rate
from .levels import LEVELS, level_of
from .solver import Unsolvable
from .step import Step

__all__ = ["LEVELS", "Explanation", "Hint", "Rating", "Step", "Unsolvable", "explain", "hint",
           "level_of", "rate"]
