"""Human-style solving: explain, hint and rate on the Sudoku Explainer scale."""

from .api import LEVELS, Explanation, Hint, Rating, explain, hint, level_of, rate
from .solver import Unsolvable
from .step import Step

__all__ = ["LEVELS", "Explanation", "Hint", "Rating", "Step", "Unsolvable", "explain", "hint",
           "level_of", "rate"]
