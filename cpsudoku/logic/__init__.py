"""Human-style solving: explain, hint and rate on the Sudoku Explainer scale."""

from .api import Explanation, Hint, Rating, explain, hint, rate
from .levels import LEVELS, level_of
from .solver import NotUnique, RatingTimeout, Unsolvable
from .step import Step

__all__ = ["LEVELS", "Explanation", "Hint", "NotUnique", "Rating", "RatingTimeout", "Step",
           "Unsolvable", "explain", "hint", "level_of", "rate"]
