"""The batch task of `compare`: each puzzle run on every chosen backend in one worker,
judged there, and handed back as that puzzle's rows, disagreements and timeouts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .records import Record
from .tasks import PuzzleTask

COMPARED = "compared"  # the status of a puzzle every run answered

# (backend class, grid size) pairs this process has warmed up: one-time costs (loading
# OR-Tools, compiling the native propagation for a geometry) are paid once per worker,
# untimed, rather than billed to the first puzzle it times.
_WARM: set[tuple[type, int]] = set()


@dataclass(frozen=True)
class CompareTask(PuzzleTask):
    """`compare`: `record.data` is a `cpsudoku.compare.Compared`."""

    backends: tuple[str, ...] = ("native",)
    time_limit: float | None = None
    max_solutions: int = 2
    presolve: bool = False

    fmt: str = "line"  # only the message of a failed puzzle is shown; no text is written
    columns: ClassVar[tuple[str, ...]] = ("index", "source", "status", "message")

    def prepare(self) -> None:
        """An unknown or missing backend fails before any work."""
        from .. import backends as registry
        for name in self.backends:
            registry.get(name)
        super().prepare()

    def record(self, index: int, puzzle) -> Record:
        from ..compare import compare_puzzle, run_names
        self._warm_up(puzzle)
        compared = compare_puzzle(index + 1, puzzle, run_names(self.backends, self.presolve),
                                  time_limit=self.time_limit,
                                  max_solutions=self.max_solutions)
        return Record(index, "", COMPARED, data=compared)

    def _warm_up(self, puzzle) -> None:
        from .. import backends as registry
        from ..api import solve
        for name in self.backends:
            key = (type(registry.get(name)), puzzle.size)
            if key not in _WARM:
                solve(puzzle, name, time_limit=1.0)  # briefly: a hard puzzle is not waited for
                _WARM.add(key)
