"""A progress line on stderr: puzzles done, puzzles a second, time left."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

_BLOCK = 1 << 20


class Progress:
    """Redrawn at most five times a second, so that drawing never costs throughput."""

    def __init__(self, total: int | None, *, done: int = 0, stream=None,
                 enabled: bool = True):
        self.total, self.done, self.enabled = total, done, enabled
        self.stream = stream or sys.stderr
        self.began = time.monotonic()
        self.first = done
        self.drawn = 0.0

    def step(self, count: int = 1) -> None:
        self.done += count
        if self.enabled and time.monotonic() - self.drawn >= 0.2:
            self.draw()

    def draw(self) -> None:
        self.drawn = now = time.monotonic()
        rate = (self.done - self.first) / max(now - self.began, 1e-9)
        text = f"{self.done:,}"
        if self.total:
            text += f"/~{self.total:,}" if self.total > self.done else ""
        text += f" puzzles  {rate:,.0f}/s"
        if self.total and rate > 0 and self.total > self.done:
            left = int((self.total - self.done) / rate)
            text += f"  ETA {left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}"
        self.stream.write(f"\r{text:<60}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.draw()
            self.stream.write("\n")
            self.stream.flush()


def wanted(flag: bool | None, stream=None) -> bool:
    """--progress (True) or --no-progress (False); neither: when stderr is a terminal."""
    if flag is not None:
        return flag
    stream = stream or sys.stderr
    return hasattr(stream, "isatty") and stream.isatty()


def estimate_total(args) -> int | None:
    """Lines in the input files, read in blocks (an upper bound on the puzzles: comments
    count too); None when some input cannot be measured (stdin, .gz, inline)."""
    total = 0
    for arg in args:
        path = Path(str(arg))
        if str(arg) == "-" or path.suffix == ".gz" or not os.path.isfile(path):
            return None
        try:
            with open(path, "rb") as handle:
                last = b"\n"
                while block := handle.read(_BLOCK):
                    total += block.count(b"\n")
                    last = block[-1:]
                total += last != b"\n"
        except OSError:
            return None
    return total or None



