"""The JSON bodies the API accepts: pydantic models, so bad fields are a 422 naming the
field and OpenAPI describes every request."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

# Bounds that keep one request cheap: a 25x25 puzzle file with every element fits.
MAX_TEXT = 200_000
MAX_CELLS = 625
DEFAULT_TIME_LIMIT = 10.0
RATE_TIME_LIMIT = 30.0
GENERATE_TIME_LIMIT = 20.0
MAX_TIME_LIMIT = 60.0
MAX_REQUEST_ID = 100
BOX_PATTERN = r"^[0-9]+x[0-9]+$"


def limit_field(default: float) -> Any:
    """The request's time limit: every request that may run long has one."""
    return Field(default, gt=0, le=MAX_TIME_LIMIT,
                 description="Seconds, counted from the request's arrival; past it the "
                             "answer is a timeout (status `timeout` for a solve, else a 422 "
                             "with exit_code 4).")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")
    request_id: str | None = Field(None, max_length=MAX_REQUEST_ID,
                                   description="Any text of the client's, echoed in the "
                                               "answer (and in an error) as `request_id`, so "
                                               "that an answer can be matched to its request.")


class ErrorOut(BaseModel):
    """Every error answer: one line, the CLI's exit code for the same error."""

    error: str = Field(..., description="What is wrong, and where (one line).")
    exit_code: int | None = Field(None, description="The exit code of the command line for "
                                                    "the same error (4: time limit).")
    request_id: str | None = None
    puzzle_digest: str | None = None


class PuzzleIn(_Body):
    puzzle: str = Field(..., max_length=MAX_TEXT,
                        description="A puzzle in any notation the parser reads: a grid, a "
                                    "puzzle file (TOML/JSON), an f-puzzles file or link.")
    size: int | None = Field(None, ge=1, le=25, description="Grid size N, when not implied.")
    box: str | None = Field(None, max_length=10, pattern=BOX_PATTERN,
                            description="Box shape RxC, e.g. 2x3.")
    rules: str | None = Field(None, max_length=500,
                              description="Global rules to add, e.g. diagonal,anti-knight.")


class SolveIn(PuzzleIn):
    backend: str = Field("native", max_length=50)
    max_solutions: int = Field(1, ge=1, le=1000,
                               description="Stop after this many; 2 tells unique from multiple.")
    time_limit: float = limit_field(DEFAULT_TIME_LIMIT)
    presolve: bool = False


class GridIn(PuzzleIn):
    grid: list[int] | None = Field(None, max_length=MAX_CELLS,
                                   description="The player's values, row by row, 0 blank "
                                               "(default: the givens).")


class CheckIn(GridIn):
    solution: bool = Field(False, description="Also solve the puzzle and name the entries "
                                              "that differ from its solution.")
    candidates: bool = Field(False, description="Also list each empty cell's candidates.")
    time_limit: float = limit_field(DEFAULT_TIME_LIMIT)


class HintIn(GridIn):
    time_limit: float = limit_field(DEFAULT_TIME_LIMIT)


class RateIn(PuzzleIn):
    time_limit: float = limit_field(RATE_TIME_LIMIT)


class GenerateIn(_Body):
    size: int = Field(9, ge=4, le=16)
    box: str | None = Field(None, max_length=10, pattern=BOX_PATTERN)
    symmetry: str = Field("none", max_length=30)
    difficulty: str | None = Field(None, max_length=30)
    variant: str = Field("classic", max_length=200,
                         description="classic, killer, jigsaw, or global rule names "
                                     "(e.g. diagonal,anti-knight).")
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    time_limit: float = limit_field(GENERATE_TIME_LIMIT)
