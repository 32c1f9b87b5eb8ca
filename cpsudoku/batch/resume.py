"""Resuming into an output file: keep its whole records, drop a torn last line."""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import CpsudokuError, UsageError

RESUMABLE = ("jsonl", "csv")  # one record a line: a line count is a record count
_BLOCK = 1 << 20


def records_done(path: Path, fmt: str, header: str | None = None,
                 resumable: tuple[str, ...] = RESUMABLE) -> int:
    """How many records `path` holds, after cutting it back to its last whole line.
    Reads it in blocks: memory stays flat however large the output. `header`: the
    first line, which must be this run's; `resumable`: the command's formats of one
    record a line."""
    if fmt not in resumable:
        raise UsageError(f"--resume needs a format with one record a line "
                         f"({', '.join(resumable)}), not {fmt}")
    if not path.exists():
        return 0
    try:
        with open(path, "r+b") as handle:
            lines, last_end = _count_lines(handle)
            handle.truncate(last_end)  # a torn last line was being written when it stopped
            first = _line_at(handle, 0) if lines else b""
            last = _last_line(handle, last_end) if lines else b""
    except OSError as exc:
        raise CpsudokuError(f"cannot resume {path}: {exc.strerror}") from None
    if header is not None:
        if lines and first.decode("utf-8", "replace") != header:
            raise CpsudokuError(f"cannot resume {path}: its header is not this command's "
                                f"({header})")
        return max(0, lines - 1)
    if lines and fmt == "jsonl":
        try:
            index = json.loads(last).get("index")
        except (ValueError, AttributeError):
            index = None
        if index != lines - 1:
            raise CpsudokuError(f"cannot resume {path}: its line {lines} is not record "
                                f"{lines - 1} of this command's output")
    return lines


def _count_lines(handle) -> tuple[int, int]:
    """(whole lines, offset just after the last newline)."""
    lines = end = offset = 0
    while block := handle.read(_BLOCK):
        count = block.count(b"\n")
        if count:
            lines += count
            end = offset + block.rindex(b"\n") + 1
        offset += len(block)
    return lines, end


def _line_at(handle, offset: int) -> bytes:
    handle.seek(offset)
    return handle.readline().rstrip(b"\r\n")


def _last_line(handle, end: int) -> bytes:
    start = max(0, end - _BLOCK)
    handle.seek(start)
    tail = handle.read(end - start).rstrip(b"\n")
    return tail[tail.rfind(b"\n") + 1:]
