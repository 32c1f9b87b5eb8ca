"""The ASGI application: the JSON API over the Python API, and the static page.

Every route parses with the one shared parser, solves with `cpsudoku.solve`,
checks with `cpsudoku.check` and answers with `Result.as_dict`: the server adds
no puzzle logic of its own. Solver work runs in worker threads, a few at a
time, so the event loop keeps serving the page while puzzles are solved.
"""

from __future__ import annotations

import os
from importlib import import_module
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..errors import BackendError, CpsudokuError, ModelError, ParseError, UsageError
from ..puzzle import Puzzle
from .drawing import describe
from .limits import BodyLimit
from .schemas import CheckIn, GenerateIn, GridIn, PuzzleIn, SolveIn

STATIC = Path(__file__).parent / "static"
MAX_BODY = 1_000_000  # bytes; the largest puzzle file the API accepts is far smaller

# Each error class the CLI turns into an exit code becomes one HTTP status here.
HTTP_STATUS: dict[type[CpsudokuError], int] = {
    UsageError: 400,
    BackendError: 400,
    ParseError: 422,
    ModelError: 422,
    CpsudokuError: 422,
}


class Unavailable(Exception):
    """A feature whose package is not installed: 501 with one line."""


def optional(module: str):
    """cpsudoku.logic or cpsudoku.generator, or Unavailable naming it."""
    try:
        return import_module(f"cpsudoku.{module}")
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if missing == f"cpsudoku.{module}" or missing.startswith(f"cpsudoku.{module}."):
            raise Unavailable(f"cpsudoku.{module} is not installed in this build") from None
        raise


def feature_available(module: str) -> bool:
    try:
        optional(module)
    except Unavailable:
        return False
    return True


def _error(status: int, message: str, exit_code: int | None = None) -> JSONResponse:
    body: dict[str, Any] = {"error": message}
    if exit_code is not None:
        body["exit_code"] = exit_code
    return JSONResponse(body, status_code=status)


def _status_of(exc: CpsudokuError) -> int:
    for cls in type(exc).__mro__:
        if cls in HTTP_STATUS:
            return HTTP_STATUS[cls]
    return 422


def _validation_line(exc: RequestValidationError) -> str:
    first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    return f"{where}: {first.get('msg')}" if where else str(first.get("msg"))


# Solver work: at most this many at once, so queued requests do not starve the page.
_WORKERS = anyio.CapacityLimiter(max(2, os.cpu_count() or 2))


async def _off_loop(fn, *args, **kw):
    return await anyio.to_thread.run_sync(lambda: fn(*args, **kw), limiter=_WORKERS)


def load(body: PuzzleIn) -> Puzzle:
    """The one puzzle in a request, through the shared parser (and --rules' rule lookup)."""
    from ..parse import parse_one
    puzzle = parse_one(body.puzzle, size=body.size, box=body.box, source="puzzle")
    if body.rules:
        from ..rules import by_names
        puzzle = puzzle.with_rules(by_names(body.rules))
    return puzzle


def values_of(body: GridIn, puzzle: Puzzle) -> tuple[int, ...]:
    """The player's grid: N*N values in 0..N that keep every given."""
    if body.grid is None:
        return puzzle.givens
    n = puzzle.size
    grid = tuple(body.grid)
    if len(grid) != n * n:
        raise UsageError(f"grid has {len(grid)} values, expected {n * n} for a {n}x{n} puzzle")
    name = puzzle.geometry.cell_name
    for cell, (given, value) in enumerate(zip(puzzle.givens, grid)):
        if not 0 <= value <= n:
            raise UsageError(f"grid value {value} at {name(cell)} is outside 0..{n}")
        if given and value != given:
            raise UsageError(f"grid changes the given {given} at {name(cell)}")
    return grid


def create_app() -> FastAPI:
    app = FastAPI(title="cpsudoku", version=__version__,
                  description="Play, check, hint, rate, generate and solve Sudoku and its "
                              "variants. The same Python API as the cpsudoku command line.")
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY)

    @app.exception_handler(CpsudokuError)
    async def _user_error(request: Request, exc: CpsudokuError):
        return _error(_status_of(exc), str(exc), exc.exit_code)

    @app.exception_handler(RequestValidationError)
    async def _bad_body(request: Request, exc: RequestValidationError):
        return _error(422, _validation_line(exc), UsageError.exit_code)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(Unavailable)
    async def _unavailable(request: Request, exc: Unavailable):
        return _error(501, str(exc))

    @app.get("/", include_in_schema=False)
    async def index():
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/backends", summary="Every backend: name, available, version")
    async def list_backends():
        from .. import backends as registry
        out = []
        for name in registry.names():
            backend = registry.load(name)
            out.append({"name": name, "available": backend.is_available(),
                        "version": backend.version(), "description": backend.description})
        return out

    @app.get("/api/features", summary="Which optional features this build has")
    async def features():
        return {"hint": feature_available("logic"), "rate": feature_available("logic"),
                "generate": feature_available("generator")}

    @app.post("/api/parse", summary="Parse a puzzle: what the page draws")
    async def parse_puzzle(body: PuzzleIn):
        return describe(await _off_loop(load, body))

    @app.post("/api/solve", summary="Solve: the object of one `solve --format jsonl` line")
    async def solve_puzzle(body: SolveIn):
        from ..api import solve

        def run():
            return solve(load(body), body.backend, max_solutions=body.max_solutions,
                         time_limit=body.time_limit, presolve=body.presolve).as_dict()
        return await _off_loop(run)

    @app.post("/api/check", summary="Conflicts in a grid; with solution=true the wrong entries")
    async def check_grid(body: CheckIn):
        return await _off_loop(check, body)

    @app.post("/api/hint", summary="The next human step (501 without cpsudoku.logic)")
    async def hint(body: GridIn):
        logic = optional("logic")

        def run():
            puzzle = load(body)
            state = values_of(body, puzzle) if body.grid is not None else None
            found = logic.hint(puzzle, state=state)
            step = found.step.as_dict() if found.step is not None else None
            return {"step": step, "wrong": list(found.wrong)}
        return await _off_loop(run)

    @app.post("/api/rate", summary="Difficulty rating (501 without cpsudoku.logic)")
    async def rate(body: PuzzleIn):
        logic = optional("logic")
        return await _off_loop(lambda: logic.rate(load(body)).as_dict())

    @app.post("/api/generate", summary="A new puzzle (501 without cpsudoku.generator)")
    async def generate(body: GenerateIn):
        generator = optional("generator")
        return await _off_loop(make_puzzle, generator, body)

    return app


def check(body: CheckIn) -> dict:
    """Conflicts among the entries (the independent checker), completion, and on request
    the entries that differ from the puzzle's solution."""
    from ..check import conflicts, is_solution
    puzzle = load(body)
    grid = values_of(body, puzzle)
    name = puzzle.geometry.cell_name
    found = conflicts(puzzle, grid)
    complete = all(grid)
    out: dict[str, Any] = {
        "conflicts": [{"cells": [name(c) for c in con.cells], "message": con.message}
                      for con in found],
        "complete": complete,
        "solved": complete and is_solution(puzzle, grid),
    }
    if body.candidates:
        from .candidates import candidates
        out["candidates"] = candidates(puzzle, grid)
    if body.solution:
        from ..api import solve
        result = solve(puzzle, max_solutions=2, time_limit=10)
        out["status"] = result.status.value
        if result.solution is not None and result.status.value == "unique":
            out["wrong"] = [name(c) for c, (v, s) in enumerate(zip(grid, result.solution))
                            if v and v != s]
    return out


def make_puzzle(generator, body: GenerateIn) -> dict:
    """Generate with the generator's own options; the page receives it as /api/parse does."""
    from ..geometry import parse_box
    from ..rules import by_names
    variant = body.variant.strip().lower()
    kinds = {"killer": {"killer": True}, "jigsaw": {"jigsaw": True}, "classic": {}}
    rules = () if variant in kinds else tuple(by_names(variant))
    made = generator.generate(size=body.size, box=parse_box(body.box) if body.box else None,
                              symmetry=body.symmetry, difficulty=body.difficulty,
                              rules=rules, seed=body.seed, time_limit=body.time_limit,
                              **kinds.get(variant, {}))
    out = describe(made.puzzle)
    out["seed"] = made.seed
    rating = made.rating
    out["rating"] = rating.as_dict() if hasattr(rating, "as_dict") else rating
    return out
