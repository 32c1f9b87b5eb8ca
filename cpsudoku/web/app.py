"""The ASGI application: the JSON API over the Python API, and the static page.

Routes only validate the body and hand it to a job (`jobs.py`): every job parses
with the one shared parser, solves with `cpsudoku.solve`, checks with
`cpsudoku.grid.check` and answers with `Result.as_dict`. Heavy jobs run in worker
processes, light ones in threads (`workers.py`): the event loop only serves.
"""

from __future__ import annotations

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
from .schemas import CheckIn, GenerateIn, GridIn, PuzzleIn, SolveIn
from .workers import JobError, Workers, http_status

STATIC = Path(__file__).parent / "static"
MAX_BODY = 1_000_000  # bytes; the largest puzzle file the API accepts is far smaller


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


def _validation_line(exc: RequestValidationError) -> str:
    first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    return f"{where}: {first.get('msg')}" if where else str(first.get("msg"))


def create_app(workers: Workers | None = None) -> FastAPI:
    work = workers or Workers()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        import anyio
        await anyio.to_thread.run_sync(work.warm)
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
        return _error(exc.status_code, str(exc.detail))

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
        return await work.light("parse", body)

    @app.post("/api/solve", summary="Solve: the object of one `solve --format jsonl` line")
    async def solve_puzzle(body: SolveIn):
        return await work.heavy("solve", body)

    @app.post("/api/check", summary="Conflicts in a grid; with solution=true the wrong entries")
    async def check_grid(body: CheckIn):
        return await (work.heavy if body.solution else work.light)("check", body)

    @app.post("/api/hint", summary="The next human step (501 without cpsudoku.logic)")
    async def hint(body: GridIn):
        optional("logic")
        return await work.heavy("hint", body)

    @app.post("/api/rate", summary="Difficulty rating (501 without cpsudoku.logic)")
    async def rate(body: PuzzleIn):
        optional("logic")
        return await work.heavy("rate", body)

    @app.post("/api/generate", summary="A new puzzle (501 without cpsudoku.generator)")
    async def generate(body: GenerateIn):
        optional("generator")
        return await work.heavy("generate", body)

    @app.exception_handler(Unavailable)
    async def _unavailable(request: Request, exc: Unavailable):
        return _error(501, str(exc))

    return app
