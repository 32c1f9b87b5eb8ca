"""The classic lane of `solve` and `count`: files of classic 9x9 puzzle lines go to the
kernel in blocks of raw bytes (`backends.classic_lane`), many puzzles a call, and come
back as the text of their records; Python only opens the files and reports.

The items of a lane batch are `Block`s (a stretch of a file's lines) and `Single`s (an
entry of a source the lane does not read: an inline grid, a multi-line or JSON file).
A line the kernel leaves to the ordinary path, and every Single, is solved by the
command's own `SolveTask`, so its record is the one the ordinary path writes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, fields
from typing import Any

from ..formats.sources import Entry, entry_of, lines_first
from .records import Record, Records, csv_text
from .tasks import SolveTask

BLOCK = 1 << 15  # bytes of a block: a few hundred puzzles, a few milliseconds of work
_BOM = b"\xef\xbb\xbf"
# Lines whose blanks only Unicode's rules tell (str.strip strips \x1c-\x1f and
# non-ASCII spaces): such a block's puzzles are counted by the shared reader.
_UNUSUAL = re.compile(rb"[\x1c-\x1f\x80-\xff]")


@dataclass(frozen=True, slots=True)
class Block:
    """`count` puzzle lines of `source` from line number `line`, records from `index`."""

    source: str
    line: int
    index: int
    count: int
    data: bytes

    def __reduce__(self):
        return Block, (self.source, self.line, self.index, self.count, self.data)


@dataclass(frozen=True, slots=True)
class Single:
    """An entry the lane does not read, and its record's index."""

    index: int
    entry: Any

    def __reduce__(self):
        return Single, (self.index, self.entry)


def applies(task: SolveTask) -> bool:
    """Whether the lane can write `task`'s records: the native backend on classic 9x9
    grids, no variant rules, a line format, nothing the kernel's records do not hold
    (a time limit, a trace, statistics lines, options)."""
    from ..backends import classic_lane
    return (task.fmt in ("line", "jsonl", "csv") and task.backend == "native"
            and task.size in (None, 9) and task.box in (None, (3, 3)) and not task.rules
            and task.time_limit is None and not (task.trace or task.stats or task.presolve
                                                  or task.options)
            and classic_lane.available())


def lane_items(puzzles: list[str], others: Callable[[str], Iterable],
               size: int | None = None) -> Callable[[int], Iterator]:
    """items(done): the lane's items after the first `done` records; `others(arg)`: the
    entries of an argument the lane does not read (its files are checked by then)."""
    def items(done: int) -> Iterator:
        index = 0
        for arg in puzzles:
            if lines_first(arg, size):
                for item in _blocks(arg, index):
                    if isinstance(item, Single):
                        index = item.index + 1
                        if index > done:
                            yield item
                        continue
                    index = item.index + item.count
                    if index > done:
                        yield _after(item, done) if item.index < done else item
                continue
            for entry in others(arg):
                if index >= done:
                    yield Single(index, entry)
                index += 1
    return items


def _blocks(path: str, index: int) -> Iterator[Block | Single]:
    line, rest = 1, b""
    with open(path, "rb") as handle:
        while True:
            chunk = handle.read(BLOCK)
            data = rest + chunk
            if line == 1 and data.startswith(_BOM):
                data = data[len(_BOM):]
            cut = data.rfind(b"\n") + 1 if chunk else len(data)
            data, rest = data[:cut], data[cut:]
            if data:
                for item in _split(data, path, line, index):
                    index += item.count if isinstance(item, Block) else 1
                    yield item
                line += data.count(b"\n")
            if not chunk:
                return


def _split(data: bytes, source: str, line: int, index: int) -> Iterator[Block | Single]:
    """A stretch of lines as Blocks of the lines the kernel may read (81 symbols, blank
    lines, comments) and Singles of the others, which the ordinary path reads (a big
    grid among classic ones takes its time: the records before it are written first)."""
    lines = data.split(b"\n")
    if data.endswith(b"\n"):
        lines.pop()
    unusual = _UNUSUAL.search(data) is not None
    texts = [raw.strip() for raw in lines]
    if not unusual and all(len(text) == 81 for text in texts):
        yield Block(source, line, index, len(lines), data)
        return
    start = begin = pos = count = 0  # the run of kernel lines: first line, offset, puzzles
    for k, (raw, text) in enumerate(zip(lines, texts)):
        puzzle = (entry_of(raw, line + k, source) is not None if unusual
                  else bool(text) and text[:1] != b"#")
        pos += len(raw) + 1
        if not puzzle or (not unusual and len(text) == 81):
            count += puzzle
            continue
        if count:
            yield Block(source, line + start, index, count, data[begin:pos - len(raw) - 1])
            index += count
        yield Single(index, entry_of(raw, line + k, source))
        index += 1
        start, begin, count = k + 1, pos, 0
    if count:
        yield Block(source, line + start, index, count, data[begin:])


def _after(block: Block, done: int) -> Block:
    """The part of a block after its first `done - block.index` puzzles (resuming)."""
    skip, pos, line = done - block.index, 0, block.line
    for raw in block.data.split(b"\n"):
        if skip == 0:
            break
        if entry_of(raw, line, block.source) is not None:
            skip -= 1
        pos += len(raw) + 1
        line += 1
    return Block(block.source, line, done, block.count - (done - block.index),
                 block.data[pos:])


@dataclass(frozen=True)
class LaneTask(SolveTask):
    """A `SolveTask` whose Blocks are written by the kernel."""

    @classmethod
    def of(cls, task: SolveTask) -> LaneTask:
        return cls(**{f.name: getattr(task, f.name) for f in fields(task)})

    def __call__(self, chunk: list[tuple[int, Any]]) -> list[Record | Records]:  # type: ignore[override]
        extra = self.extra_rules()
        return [self._block(item) if isinstance(item, Block)
                else self._one(item.index, item.entry, extra) for _, item in chunk]

    def _block(self, block: Block) -> Records:
        from ..backends.classic_lane import solve_text
        if self.fmt == "csv" and csv_text([block.source]) != block.source:
            return self._ordinary(block)  # a file name csv quotes: the writer's to write
        data = block.data
        texts: list[str] = []
        statuses: set[str] = set()
        codes: set[int] = set()
        messages: list[str] = []
        pos, line, index = 0, block.line, block.index
        while pos < len(data):
            step = solve_text(data, pos, line, index, fmt=self.fmt,
                              count=self.command == "count",
                              max_solutions=self.max_solutions, source=block.source)
            texts.append(step.text)
            statuses |= step.seen
            pos, line, index = step.pos, step.line, step.index
            if not step.refused:
                continue
            end = data.find(b"\n", pos)
            end = len(data) if end < 0 else end
            entry = entry_of(data[pos:end], line, block.source)
            if entry is not None:  # the ordinary path's record
                record = self._one(index, entry, [])
                if record.text:
                    texts.append(record.text + "\n")
                statuses.add(record.status)
                codes.add(record.code)
                if record.message:
                    messages.append(record.message)
                index += 1
            pos, line = end + 1, line + 1
        return Records(block.index, "".join(texts), index - block.index,
                       frozenset(statuses), frozenset(codes), tuple(messages))

    def _ordinary(self, block: Block) -> Records:
        return _together(block.index, [self._one(number, entry, []) for number, entry in
                                       enumerate(_entries(block), block.index)])

    def failed(self, index: int, item, message: str) -> Record | Records:  # type: ignore[override]
        if isinstance(item, Single):
            return super().failed(item.index, item.entry, message)
        return _together(item.index, [super(LaneTask, self).failed(number, entry, message)
                                      for number, entry in enumerate(_entries(item),
                                                                     item.index)])


def _together(index: int, records: list[Record]) -> Records:
    return Records(index, "".join(r.text + "\n" for r in records if r.text), len(records),
                   frozenset(r.status for r in records), frozenset(r.code for r in records),
                   tuple(r.message for r in records if r.message))


def _entries(block: Block) -> Iterator[Entry]:
    for k, raw in enumerate(block.data.split(b"\n")):
        entry = entry_of(raw, block.line + k, block.source)
        if entry is not None:
            yield entry
