"""Worker processes that end with their parent: a parent killed outright (SIGKILL)
cannot end them itself, and a child holding its siblings' pipe ends gets no EOF from
it. Used by the solver's child process (solver_process) and by the batch pool's workers."""

from __future__ import annotations

import os
import signal
import threading
import time

ORPHAN_CHECK_S = 0.5  # how often a child looks whether its parent has gone


def exit_with(parent: int, at_once: bool = False) -> None:
    """End this process (os._exit(0)) once `parent` is no longer its parent: a daemon
    thread looks every ORPHAN_CHECK_S. With `at_once`, Linux also kills it with the
    parent (PR_SET_PDEATHSIG), only for a child started by a thread that lives as long
    as the parent: the signal fires when that *thread* ends."""
    if at_once:
        try:
            import ctypes
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # gone already (before prctl took effect)
        os._exit(0)
    threading.Thread(target=_watch, args=(parent,), daemon=True,
                     name="cpsudoku-orphan-watch").start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK_S)
    os._exit(0)
