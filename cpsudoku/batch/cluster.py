"""Chunks on a Dask distributed cluster: an existing one (`tcp://host:8786`) or a local
one started for the batch (`local:N`)."""

from __future__ import annotations

import logging
import pickle
from typing import Any

from ..errors import BackendError, UsageError
from .pool import Done, run_chunk
from .records import Task

INSTALL = "--dask needs Dask distributed: pip install 'cpsudoku[dask]'"

# A cluster started for one batch has no dashboard, so the workers' sampling profiler and
# the processes' monitors serve no one; at Dask's default rates they took about a fifth
# of the CPU a batch of quick puzzles needs on two cores.
# A chunk whose worker dies is run again item by item by the batch layer, so Dask's own
# retries of it would only kill more workers.
LOCAL_CONFIG = {
    "distributed.scheduler.allowed-failures": 0,
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "2s",
}


def _import():
    try:
        import distributed
    except ImportError:
        raise BackendError(INSTALL) from None
    return distributed


class DaskCluster:
    """Two chunks in flight per worker thread, so that no worker waits for the next."""

    target_s = 1.0  # a task costs about a millisecond of scheduling: keep chunks long

    def __init__(self, task: Task, address: str):
        distributed = _import()
        import dask
        self.task = task
        self.cluster: Any = None
        try:
            if address.startswith("local:"):
                workers = _local_workers(address)
                with dask.config.set(LOCAL_CONFIG):  # the worker processes inherit it
                    self.cluster = distributed.LocalCluster(
                        n_workers=workers, threads_per_worker=1, processes=True,
                        dashboard_address=None, silence_logs=logging.ERROR)
                    self.client = distributed.Client(self.cluster)
            else:
                self.client = distributed.Client(address, timeout=10)
        except (OSError, TimeoutError) as exc:
            self._shutdown()
            raise BackendError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        threads = sum(self.client.nthreads().values()) or 1
        self.slots = 2 * threads
        self.done = distributed.as_completed()
        self.starts: dict[str, int] = {}
        self._killed = distributed.KilledWorker

    def submit(self, start: int, chunk: list) -> None:
        # Dask walks a task's arguments looking for futures, and its scheduler unpickles
        # them: a chunk of thousands of items goes as one opaque bytes object instead.
        packed = pickle.dumps(chunk, protocol=pickle.HIGHEST_PROTOCOL)
        future = self.client.submit(run_packed, self.task, packed, pure=False)
        self.starts[future.key] = start
        self.done.add(future)

    def collect(self) -> Done:
        future = next(self.done)
        start = self.starts.pop(future.key)
        try:
            records, seconds, error = future.result()
        except self._killed:
            return start, None, 0.0, "its Dask worker died"
        except Exception as exc:  # the cluster lost the task: the item is reported failed
            return start, None, 0.0, f"Dask: {type(exc).__name__}: {exc}"
        return start, records, seconds, error

    def close(self, abort: bool = False) -> None:
        for future in list(self.done.futures):
            future.cancel()
        self._shutdown()

    def _shutdown(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self.cluster is not None:
            self.cluster.close()


def run_packed(task: Task, packed: bytes):
    """`run_chunk` on a chunk sent pickled (in a Dask worker)."""
    return run_chunk(task, pickle.loads(packed))


def _local_workers(address: str) -> int:
    count = address.partition(":")[2]
    if not count.isdigit() or not 1 <= int(count) <= 256:
        raise UsageError(f"--dask {address}: expected local:N with N a number of workers "
                         f"from 1 to 256")
    return int(count)
