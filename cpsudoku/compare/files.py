"""A comparison's files: the CSV of rows written as puzzles finish (and read back to
resume), and the JSON report."""

from __future__ import annotations

import csv
import json
import signal
import threading
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

from ..errors import CpsudokuError
from ..result import Status
from .report import Report, Row

CSV_FIELDS = ["index", "source", "backend", "presolve", "status", "time_s", "nodes", "solution"]


class RowFiles:
    """The per-puzzle rows in CSV and/or JSON, written and flushed as each puzzle
    finishes, so that a run stopped by any signal, even SIGKILL, leaves every row it
    finished on disk. The JSON file holds "settings", then "rows" (one row a line);
    `close` adds "summary", "disagreements", "timeouts" and "interrupted" and ends
    the object. A killed run's JSON lacks that end: its rows are still one per line."""

    def __init__(self, report_settings: dict, csv_path=None, json_path=None, *,
                 kept: Sequence[Row] = (), resume: bool = False):
        """resume: the CSV file holds `kept` (`kept_rows` cut it back to them): rows are
        added after them; the JSON file is written anew, starting with them."""
        self._csv_file = self._json_file = None
        self._rows = 0
        try:
            if csv_path is not None:
                self._csv_file = open(csv_path, "a" if resume else "w", newline="",
                                      encoding="utf-8")
                self._csv = csv.DictWriter(self._csv_file, fieldnames=CSV_FIELDS,
                                           extrasaction="ignore")
                if not self._csv_file.tell():
                    self._csv.writeheader()
                self._csv_file.flush()
            if json_path is not None:
                self._json_file = open(json_path, "w", encoding="utf-8")
                self._json_file.write('{\n  "settings": ' + json.dumps(report_settings)
                                      + ',\n  "rows": [')
                self._write_json(kept)
        except OSError as exc:
            self.close(None)
            raise CpsudokuError(f"cannot write {exc.filename}: {exc.strerror}") from None

    def add(self, rows: list[Row]) -> None:
        with signals_held():  # a signal mid-write would leave the two files disagreeing
            self._write(rows)

    def _write(self, rows: Sequence[Row]) -> None:
        if self._csv_file is not None:
            for row in rows:
                self._csv.writerow(row.as_dict())
            self._csv_file.flush()
        self._write_json(rows)

    def _write_json(self, rows: Sequence[Row]) -> None:
        if self._json_file is not None:
            for row in rows:
                self._json_file.write(("\n    " if self._rows == 0 else ",\n    ")
                                      + json.dumps(row.as_dict()))
                self._rows += 1
            self._json_file.flush()

    def close(self, report: Report | None) -> None:
        """End the files; with the finished `report`, the JSON gets its summary."""
        if self._csv_file is not None:
            self._csv_file.close()
            self._csv_file = None
        if self._json_file is not None:
            tail = "\n  ]" if self._rows else "]"
            if report is not None:
                rest = as_dict(report)
                for key in ("summary", "disagreements", "timeouts", "interrupted"):
                    tail += f',\n  "{key}": ' + json.dumps(rest[key])
            self._json_file.write(tail + "\n}\n")
            self._json_file.close()
            self._json_file = None


def kept_rows(path, runs: Sequence[str]) -> list[Row]:
    """The rows of the whole puzzles in the CSV file `path` written by a compare of
    `runs`, after cutting the file back to the last of them (a torn line, or a puzzle
    not every run of which was written, is dropped). Read a line at a time."""
    kept: list[Row] = []
    group: list[Row] = []
    end = 0  # the offset just after the last whole puzzle
    try:
        with open(path, "r+b") as handle:
            for number, raw in enumerate(iter(handle.readline, b""), 1):
                if not raw.endswith(b"\n"):
                    break  # torn: it was being written when the run stopped
                fields = next(csv.reader([raw.decode("utf-8", "replace")]), [])
                if number == 1:
                    if fields != CSV_FIELDS:
                        raise CpsudokuError(f"cannot resume {path}: it is not the CSV "
                                            f"file of a compare (its first line is not "
                                            f"{','.join(CSV_FIELDS)})")
                    end = handle.tell()
                    continue
                row = _read_row(path, number, fields)
                expected = runs[len(group)]
                if row.backend != expected or (group and row.index != group[0].index) \
                        or (not group and kept and row.index <= kept[-1].index):
                    raise CpsudokuError(f"cannot resume {path}: its line {number} is not "
                                        f"the row of {expected} expected there (resume "
                                        f"with the same backends and options)")
                group.append(row)
                if len(group) == len(runs):
                    kept.extend(group)
                    group = []
                    end = handle.tell()
            handle.truncate(end)
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise CpsudokuError(f"cannot resume {path}: {exc.strerror}") from None
    return kept


def _read_row(path, number: int, fields: list[str]) -> Row:
    try:
        values = dict(zip(CSV_FIELDS, fields, strict=True))
        return Row(int(values["index"]), values["source"], values["backend"],
                   Status(values["status"]).value, float(values["time_s"]),
                   int(values["nodes"]) if values["nodes"] else None, values["solution"],
                   values["presolve"] == "True")
    except ValueError:
        raise CpsudokuError(f"cannot resume {path}: its line {number} is not a row of a "
                            f"compare") from None


@contextmanager
def signals_held():
    """Ctrl-C and SIGTERM wait until the block ends (POSIX, main thread only)."""
    block = getattr(signal, "pthread_sigmask", None)
    if block is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = block(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, previous)


def settings_of(report: Report) -> dict:
    return {"backends": report.runs, "time_limit": report.time_limit,
            "max_solutions": report.max_solutions, "presolve": report.presolve}


def write_csv(report: Report, path) -> None:
    files = RowFiles(settings_of(report), csv_path=path)
    files.add(report.rows)
    files.close(report)


def as_dict(report: Report) -> dict:
    return {
        "settings": settings_of(report),
        "summary": [asdict(s) for s in report.summaries],
        "disagreements": [asdict(d) for d in report.disagreements],
        "timeouts": [{"index": i, "backend": run} for i, run in report.timeouts],
        "interrupted": report.interrupted,
        "rows": [r.as_dict() for r in report.rows],
    }


def write_json(report: Report, path) -> None:
    Path(path).write_text(json.dumps(as_dict(report), indent=2) + "\n")
