"""The ASGI application: the JSON API over the Python API, and the static page.

Routes only validate the body and hand it to a job (`jobs.py`): every job parses
with the one shared parser, solves with `cpsudoku.solve`, checks with
`cpsudoku.grid.check` and answers with `Result.as_dict`. Jobs that may run long run in
worker processes within the request's time limit, cheap ones in threads (`workers.py`):
the event loop only serves. Every answer to a POST, errors included, carries the
client's `request_id` and the digest of the puzzle text it answers.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .._version import __version__
from ..errors import CpsudokuError, UsageError
from .jobs import Unavailable, optional
from .limits import BodyLimit
from .menu import menu
from .schemas import CheckIn, ErrorOut, GenerateIn, HintIn, PuzzleIn, RateIn, SolveIn
from .workers import JobError, Workers, http_status

STATIC = Path(__file__).parent / "static"
MAX_BODY = 1_000_000  # bytes; the largest puzzle file the API accepts is far smaller


def feature_available(module: str) -> bool:
    try:
        optional(module)
    except Unavailable:
        return False
    return True


# The error answers the OpenAPI description names for every POST route.
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "An option that makes no sense: an unknown "
                                            "backend, a grid that changes a given."},
    413: {"model": ErrorOut, "description": "A body larger than 1 MB."},
    422: {"model": ErrorOut, "description": "A body or puzzle that cannot be read, a puzzle "
                                            "refused (several solutions), or the time limit "
                                            "passed (exit_code 4)."},
    501: {"model": ErrorOut, "description": "A feature whose package is not installed."},
    503: {"model": ErrorOut, "description": "Its worker process died (killed, out of "
                                            "memory); it has been replaced: try again."},
}


def _error(status: int, message: str, exit_code: int | None = None,
           tags: dict[str, str] | None = None,
           headers: Mapping[str, str] | None = None) -> JSONResponse:
    body: dict[str, Any] = {"error": message}
    if exit_code is not None:
        body["exit_code"] = exit_code
    body.update(tags or {})
    return JSONResponse(body, status_code=status, headers=headers)


def tags(body) -> dict[str, str]:
    """What matches an answer to its request: the client's id, the puzzle's digest (the
    SHA-256 of the puzzle text as sent, in hexadecimal)."""
    out = {}
    if body.request_id is not None:
        out["request_id"] = body.request_id
    puzzle = getattr(body, "puzzle", None)
    if puzzle is not None:
        out["puzzle_digest"] = hashlib.sha256(puzzle.encode()).hexdigest()
    return out


async def until_gone(request: Request) -> None:
    """Return when the client closes the connection (the body has been read already)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def _validation_line(exc: RequestValidationError) -> str:
    first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    return f"{where}: {first.get('msg')}" if where else str(first.get("msg"))


def create_app(workers: Workers | None = None) -> FastAPI:
    work = workers or Workers()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        import anyio
        await anyio.to_thread.run_sync(work.start)
        yield
        work.close()

    app = FastAPI(title="cpsudoku", version=__version__, lifespan=lifespan,
                  description="Play, check, hint, rate, generate and solve Sudoku and its "
                              "variants. The same Python API as the cpsudoku command line.")
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY)

    @app.exception_handler(JobError)
    async def _job_error(request: Request, exc: JobError):
        return _error(exc.status, exc.message, exc.exit_code)

    @app.exception_handler(CpsudokuError)
    async def _user_error(request: Request, exc: CpsudokuError):
        return _error(http_status(exc), str(exc), exc.exit_code)

    @app.exception_handler(RequestValidationError)
    async def _bad_body(request: Request, exc: RequestValidationError):
        return _error(422, _validation_line(exc), UsageError.exit_code)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        # The headers keep a 405's Allow.
        return _error(exc.status_code, str(exc.detail), headers=exc.headers)

    async def answer(request: Request, name: str, body, time_limit: float | None = None):
        """The job's answer with the request's tags; in a worker process when it has a
        time limit, stopped when its client leaves."""
        try:
            if time_limit is None:
                out = await work.light(name, body)
            else:
                out = await work.process(name, body, time_limit, lambda: until_gone(request))
        except JobError as exc:
            return _error(exc.status, exc.message, exc.exit_code, tags(body))
        return {**out, **tags(body)}

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

    @app.get("/api/generate/options", summary="The new-puzzle menu: what can be made in time")
    async def generate_options():
        return menu()

    @app.post("/api/parse", summary="Parse a puzzle: what the page draws", responses=ERRORS)
    async def parse_puzzle(body: PuzzleIn, request: Request):
        return await answer(request, "parse", body)

    @app.post("/api/solve", summary="Solve: the object of one `solve --format jsonl` line",
              responses=ERRORS)
    async def solve_puzzle(body: SolveIn, request: Request):
        return await answer(request, "solve", body, body.time_limit)

    @app.post("/api/check", summary="Conflicts in a grid; with solution=true the wrong entries",
              responses=ERRORS)
    async def check_grid(body: CheckIn, request: Request):
        return await answer(request, "check", body, body.time_limit if body.solution else None)

    @app.post("/api/hint", summary="The next human step, or status stuck when no technique "
                                   "applies (501 without cpsudoku.logic)",
              responses=ERRORS)
    async def hint(body: HintIn, request: Request):
        optional("logic")
        return await answer(request, "hint", body, body.time_limit)

    @app.post("/api/rate", summary="Difficulty rating; er null when beyond the scale "
                                   "(501 without cpsudoku.logic)",
              responses=ERRORS)
    async def rate(body: RateIn, request: Request):
        optional("logic")
        return await answer(request, "rate", body, body.time_limit)

    @app.post("/api/generate", summary="A new puzzle (501 without cpsudoku.generator)",
              responses=ERRORS)
    async def generate(body: GenerateIn, request: Request):
        optional("generator")
        return await answer(request, "generate", body, body.time_limit)

    @app.exception_handler(Unavailable)
    async def _unavailable(request: Request, exc: Unavailable):
        return _error(501, str(exc))

    return app
