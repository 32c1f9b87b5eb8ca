"""The orchestrator: chunks out, records back in input order, memory bounded."""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass

from ..errors import CpsudokuError, TimeLimitError, UsageError
from ..grid import deadline
from .pool import Executor, Pool, Serial, cores
from .records import Record, Task

FIRST_CHUNK = 4  # items; chunks then grow to the executor's target duration
MAX_CHUNK = 2000
WINDOW = 3  # chunks in flight or finished-but-unwritten, per slot: bounds memory


@dataclass(frozen=True)
class BatchOptions:
    jobs: int = 1  # worker processes; 0 = every core; 1 = in this process
    dask: str | None = None  # a scheduler address, or local:N
    chunk: int | None = None  # items a chunk; None adapts to the executor's target time

    def executor(self, task: Task) -> Executor:
        if self.jobs < 0:
            raise UsageError(f"--jobs must be 0 (every core) or more, not {self.jobs}")
        if self.dask:
            from .cluster import DaskCluster
            return DaskCluster(task, self.dask)
        jobs = self.jobs or cores()
        return Serial(task) if jobs == 1 else Pool(task, jobs)


def run(items: Iterable, task: Task, options: BatchOptions = BatchOptions(), *,
        start: int = 0, skip: bool = True) -> Generator[Record, None, None]:
    """Each item's record, in input order, as soon as it and all before it are done.

    The first `start` items are skipped (they are done already: resume); with
    `skip=False` the caller has read them and `items` begins at item `start`. An item whose
    worker died or raised gets `task.failed(...)`; the batch goes on. Closing the
    iterator early (Ctrl-C, an exception) stops every worker at once."""
    numbered = enumerate(itertools.islice(items, start if skip else 0, None), start)
    executor = options.executor(task)
    finished = False
    try:
        yield from _ordered(numbered, task, executor, options.chunk)
        finished = True
    finally:
        executor.close(abort=not finished)


def _pull(numbered: Iterator, size: int, time_limit: float | None) -> list:
    """The next `size` items of the input. A source that is no list of lines (TOML,
    JSON, multi-line grids) is read whole here, as its first item is asked for: the
    time limit bounds that reading for each puzzle the source holds, as it bounds each
    puzzle's own work in its worker."""
    with deadline.limit(time_limit, "reading the input", each_puzzle=True) as limit:
        try:
            return list(itertools.islice(numbered, size))
        except CpsudokuError as exc:
            if limit is not None and limit.hit is not None:
                # the reader reports what stopped it as unreadable input: it was the time
                raise TimeLimitError(str(exc), limit.hit.stage) from None
            raise


def _ordered(numbered: Iterator, task: Task, executor: Executor,
             fixed: int | None) -> Iterator[Record]:
    retry: deque[tuple[int, list]] = deque()  # items of failed chunks, one by one
    sent: dict[int, list] = {}  # chunks running, by first index
    ready: dict[int, list[Record]] = {}  # chunks done ahead of the next one to write
    size = fixed or (1 if executor.target_s == 0 else FIRST_CHUNK)
    window = WINDOW * executor.slots
    next_index: int | None = None
    exhausted = False
    alone = False  # a retried item is in flight
    while True:
        # Retries go first (they hold the next item to write), each alone on the workers:
        # a worker that dies beside other work cannot say which item killed it. New chunks
        # only while the window has room.
        while len(sent) < executor.slots and not alone:
            if retry:
                if sent:
                    break
                first, chunk = retry.popleft()
                alone = True
            elif not exhausted and len(sent) + len(ready) < window:
                chunk = _pull(numbered, size, getattr(task, "time_limit", None))
                if not chunk:
                    exhausted = True
                    break
                first = chunk[0][0]
                if next_index is None:
                    next_index = first
            else:
                break
            sent[first] = chunk
            executor.submit(first, chunk)
        if not sent:
            assert not ready, "records left unwritten"
            return
        first, records, seconds, error = executor.collect()
        alone = False
        chunk = sent.pop(first)
        if records is None:
            if len(chunk) > 1:  # which item killed it? run each alone to find out
                retry.extendleft(reversed([(i, [(i, item)]) for i, item in chunk]))
                continue
            index, item = chunk[0]
            records = [task.failed(index, item, error or "its worker failed")]
        elif len(records) != len(chunk):
            raise RuntimeError(f"a batch task returned {len(records)} records for "
                               f"{len(chunk)} items")
        elif not fixed and executor.target_s and len(chunk) > 1:
            rate = len(chunk) / max(seconds, 1e-6)
            size = max(1, min(MAX_CHUNK, int(rate * executor.target_s)))
        ready[first] = records
        while next_index in ready:
            done = ready.pop(next_index)
            next_index += len(done)
            yield from done
