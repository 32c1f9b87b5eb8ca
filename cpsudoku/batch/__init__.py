"""Batches at data-set scale: lazy input, chunks to worker processes or a Dask cluster,
results written in input order as they arrive, resumable output.

A command plugs in with a `Task`: a picklable object whose `__call__` turns a chunk of
`(index, item)` pairs into `Record`s in a worker, and whose `failed` says what to write
for an item whose worker died. `run` does the rest.
"""

from .records import INTERNAL_ERROR, Record, Records, Task
from .run import BatchOptions, run
from .tasks import PuzzleTask, SolveTask

__all__ = ["INTERNAL_ERROR", "BatchOptions", "PuzzleTask", "Record", "Records", "SolveTask", "Task",
           "run"]
