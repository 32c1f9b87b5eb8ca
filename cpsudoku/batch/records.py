"""What a batch worker hands back for one item, and what a batch task must offer."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import ExitCode

INTERNAL_ERROR = ExitCode.INTERNAL  # the CLI's exit status for a bug; a worker that died too
INVALID = "invalid"  # status of a puzzle that could not be read
ERROR = "error"  # status of an item whose worker died or raised


@dataclass(frozen=True, slots=True)
class Record:
    """One item's output: the text written for it (one line in jsonl and csv), its
    status, and a message for stderr when the item failed."""

    index: int
    text: str
    status: str
    message: str | None = None
    code: int = 0  # the exit status this item asks for (0: nothing wrong)
    data: Any = None  # what a command that sums up the whole batch keeps (compare's rows)

    def __reduce__(self):
        # Every record crosses a process boundary: a plain tuple pickles several times
        # faster than the slots dataclass default, which calls fields() per object.
        return Record, (self.index, self.text, self.status, self.message, self.code,
                        self.data)

    # What the batch loop reads of any record, one item's or many's (`Records`).
    @property
    def count(self) -> int:
        return 1

    @property
    def statuses(self) -> tuple[str, ...]:
        return (self.status,)

    @property
    def codes(self) -> tuple[int, ...]:
        return (self.code,)

    @property
    def messages(self) -> tuple[str, ...]:
        return (self.message,) if self.message else ()


@dataclass(frozen=True, slots=True)
class Records:
    """The records of `count` consecutive items at once (a block of the classic lane):
    their text, one line a record or more, their statuses, exit codes and messages."""

    index: int
    text: str
    count: int
    statuses: frozenset[str]
    codes: frozenset[int]
    messages: tuple[str, ...]

    message = None  # no single message: the batch goes on past these records

    def __reduce__(self):
        return Records, (self.index, self.text, self.count, self.statuses, self.codes,
                         self.messages)


class Task(Protocol):
    """A command's work, run in a worker; must pickle (a top-level class)."""

    def __call__(self, chunk: list[tuple[int, Any]]) -> list[Record]: ...

    def failed(self, index: int, item: Any, message: str) -> Record: ...


def csv_text(row: Sequence) -> str:
    """One CSV line (no newline); newlines inside a field cannot occur in a line-based
    file that is resumed line by line, so they become spaces."""
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(
        [str(v).replace("\n", " ").replace("\r", " ") if v is not None else "" for v in row])
    return out.getvalue()
