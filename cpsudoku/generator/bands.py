"""Difficulty bands on Sudoku Explainer's scale, checked with `cpsudoku.logic.rate`."""

from __future__ import annotations

from collections.abc import Callable

from .. import validate
from ..errors import BackendError, UsageError
from ..logic.levels import LEVELS

BANDS = LEVELS  # the names `rate` gives its ratings


class RatingUnavailable(BackendError):
    """A difficulty was asked for but this installation has no rater."""


def band(difficulty: str | None, rating: str | tuple[float, float] | None
         ) -> tuple[float, float] | None:
    """The ER range asked for: a named difficulty or `LO-HI` (or None for any)."""
    if difficulty is not None and rating is not None:
        raise UsageError("give either a difficulty or a rating range, not both")
    if difficulty is not None:
        key = difficulty.lower()
        if key not in BANDS:
            raise UsageError(f"unknown difficulty {difficulty!r}"
                             f"{validate.did_you_mean(key, list(BANDS))} "
                             f"(choose from: {', '.join(BANDS)})")
        return BANDS[key]
    if rating is None:
        return None
    if isinstance(rating, str):
        lo_text, sep, hi_text = rating.partition("-")
        try:
            lo, hi = float(lo_text), float(hi_text if sep else lo_text)
        except ValueError:
            raise UsageError(f"rating {rating!r} is not a range LO-HI such as 2.6-6.0") from None
    else:
        lo, hi = rating
    if not 1.0 <= lo <= hi <= 12.0:
        raise UsageError(f"rating range {lo}-{hi} must satisfy 1.0 <= LO <= HI <= 12.0 "
                         f"(Sudoku Explainer's scale)")
    return lo, hi


def rater() -> Callable:
    """`cpsudoku.logic.rate`, or one clear error when this installation has none."""
    try:
        from ..logic import rate
    except ImportError:
        raise RatingUnavailable("ratings are unavailable in this installation "
                                "(cpsudoku.logic is missing): --difficulty and --rating "
                                "need the rater") from None
    return rate
