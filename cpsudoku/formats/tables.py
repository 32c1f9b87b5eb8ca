"""Lists of grids in tables: CSV with a header naming the puzzle column, and JSON
arrays of grids or of one-line strings."""

from __future__ import annotations

import csv
import json
import re
from dataclasses import replace

from ..errors import ParseError
from ..grid.puzzle import Puzzle
from ..grid.symbols import MAX_SIZE
from .grids import VALUE, Builder, GridReader, blank_of, count_problem
from .safeload import check_bounds

# --- CSV with a header -------------------------------------------------------------

_PUZZLE_COLUMNS = ("puzzle", "puzzles", "quizzes", "quiz")
_SOLUTION_COLUMNS = ("solution", "solutions")
_CSV_NAME = re.compile(r'\s*"?\s*[A-Za-z_][\w .-]*"?\s*')


def csv_header(line: str) -> list[str] | None:
    """The column names of a CSV header line that names a puzzle or solution column
    (`puzzle,solution,...` as the Kaggle data sets have it), else None. A header of one
    column is one of those names alone (so that `solution` by itself is refused as a
    CSV without a puzzle, not read as a line of text)."""
    names = line.split(",")
    if len(names) == 1 and names[0].strip().strip('"').strip().lower() not in {
            *_PUZZLE_COLUMNS, *_SOLUTION_COLUMNS}:
        return None
    if not all(_CSV_NAME.fullmatch(n) for n in names):
        return None
    names = [n.strip().strip('"').strip() for n in names]
    known = {n.lower() for n in names} & {*_PUZZLE_COLUMNS, *_SOLUTION_COLUMNS}
    return names if known else None


class CsvReader(Builder):
    """One puzzle a row from the puzzle column; the solution column, if any, goes into
    `meta["solution"]` (a data set's known solution) or, in a solve record's rows (a
    `status` column beside it), into `meta["solutions"]` as a JSON record's solutions
    do, so that `check` checks the answer; the other columns go into `meta`. Errors
    name the line and the column (and the column's name)."""

    def read(self, text: str) -> list[Puzzle]:
        lines = text.splitlines()
        start = next(i for i, s in enumerate(lines) if s.strip() and not s.lstrip().startswith("#"))
        names = csv_header(lines[start].lstrip("\ufeff"))
        assert names is not None  # _kind saw this header
        lower = [n.lower() for n in names]
        puzzle_col = next((lower.index(c) for c in _PUZZLE_COLUMNS if c in lower), None)
        if puzzle_col is None and {"backend", "solution"} <= set(lower):
            raise ParseError("compare's rows (--csv: backend, status, solution) carry no "
                             "puzzle: pipe the puzzles themselves", self.source, start + 1)
        if puzzle_col is None:
            raise ParseError(f"CSV header has no puzzle column (one of "
                             f"{', '.join(_PUZZLE_COLUMNS)}); columns: {', '.join(names)}",
                             self.source, start + 1)
        solution_col = next((lower.index(c) for c in _SOLUTION_COLUMNS if c in lower), None)
        # solve's rows: `solutions` counts them and `solution` holds the first
        answers = "status" in lower
        variant_col = lower.index("variant") if "variant" in lower else None
        known = {puzzle_col, solution_col, variant_col} | {
            i for i, n in enumerate(lower) if n in _SOLUTION_COLUMNS}
        for lineno, fields in zip(range(start + 2, len(lines) + 1),
                                  csv.reader(lines[start + 1:])):
            if not fields or (len(fields) == 1 and not fields[0].strip()):
                continue
            if fields[0].lstrip().startswith("#"):
                continue
            raw = lines[lineno - 1]
            if len(fields) != len(names):
                raise ParseError(f"{len(fields)} fields, expected {len(names)} "
                                 f"({', '.join(names)})", self.source, lineno)
            meta = {name: value for i, (name, value) in enumerate(zip(names, fields))
                    if i not in known}
            if not fields[puzzle_col].strip():
                said = meta.get("message") or meta.get("status")
                raise ParseError(f"column {names[puzzle_col]!r} is empty" + (
                    f": a record of a puzzle with no answer ({said}) carries no puzzle; "
                    f"pipe the puzzle itself" if said else ""), self.source, lineno)
            solution_text = fields[solution_col].strip() if solution_col is not None else ""
            if variant_col is not None and fields[variant_col].strip():
                # the solution is read in the puzzle's own digits (0 may be one)
                self.puzzles.append(self._variant(fields[puzzle_col], fields[variant_col],
                                                  solution_text, answers, lineno, meta))
                continue
            puzzle = self._field(fields, puzzle_col, names, lineno, raw, meta)
            if solution_col is not None and solution_text:
                solution = self._field(fields, solution_col, names, lineno, raw)
                if solution.size != puzzle.size:
                    raise ParseError(f"column {names[solution_col]!r}: a {solution.size}x"
                                     f"{solution.size} solution for a {puzzle.size}x"
                                     f"{puzzle.size} puzzle", self.source, lineno,
                                     _field_column(raw, fields, solution_col))
                if answers:
                    puzzle.meta["solutions"] = (solution.givens,)
                else:
                    puzzle.meta["solution"] = solution.givens
            self.puzzles.append(puzzle)
        return self.puzzles

    def _variant(self, grid: str, keys: str, solution: str, answers: bool, lineno: int,
                 meta: dict) -> Puzzle:
        """A row's variant puzzle: its `variant` column holds the puzzle file's keys as a
        JSON object (as cpsudoku's CSV output writes them), its `puzzle` the givens; read
        as the JSON record the same row would be in jsonl."""
        from .puzzlefile import read_object  # on demand: classic tables never need it
        where = f"{self.source}:{lineno}"
        try:
            form = json.loads(keys)
        except ValueError as exc:
            raise ParseError(f"column 'variant': not a JSON object ({exc})", self.source,
                             lineno) from None
        if not isinstance(form, dict):
            raise ParseError("column 'variant': not a JSON object", self.source, lineno)
        record = {**form, "puzzle": grid.strip()}
        if solution and answers:
            record.update(status=meta.get("status", ""), solutions=[solution])
        elif solution:
            record["solution"] = solution
        puzzle = read_object(record, where)[0]
        return replace(puzzle, source=where, meta={**puzzle.meta, **meta})

    def _field(self, fields, col: int, names, lineno: int, raw: str, meta=None) -> Puzzle:
        """The one grid in a field (with `meta`), errors placed in the file."""
        where = _field_column(raw, fields, col)
        reader, text = GridReader(self.size, self.box, self.source), fields[col].strip()
        fast = reader.fast(text) if len(text) > MAX_SIZE else None
        try:
            if fast is not None:  # the common case: one plain line
                reader.meta = meta or {}
                reader.emit(*fast, lineno, blank_of(text), checked=True, chars=text)
                return reader.puzzles[0]
            found = reader.read(text)
            if len(found) != 1:
                raise ParseError(f"{len(found)} grids in one field, expected one", self.source)
        except ParseError as exc:
            column = where + (exc.column or 1) - 1 if where and exc.column else where
            raise ParseError(f"column {names[col]!r}: {exc.message}", self.source, lineno,
                             column) from None
        return replace(found[0], source=f"{self.source}:{lineno}", meta=meta or {})


def _field_column(raw: str, fields: list[str], col: int) -> int | None:
    """The 1-based column where field `col` starts (None when quoting hides it)."""
    if '"' in raw:
        return None
    start = sum(len(f) + 1 for f in fields[:col])
    return start + len(fields[col]) - len(fields[col].lstrip()) + 1


# --- JSON ------------------------------------------------------------------------

class JsonReader(Builder):
    """A 2-D array of numbers, an array of such grids or of grid strings, or one array
    per line. Arrays of objects are puzzle files: `read` returns None for them."""

    def read(self, text: str) -> list[Puzzle] | None:
        # `#` comment lines are allowed around JSON too; blanked to keep line numbers.
        text = "\n".join("" if s.lstrip().startswith("#") else s for s in text.splitlines())
        check_bounds(text, self.source)
        try:
            docs = [(json.loads(text), 1)]
        except json.JSONDecodeError as exc:
            if exc.msg != "Extra data":
                raise ParseError(f"invalid JSON: {exc.msg}", self.source,
                                 exc.lineno, exc.colno) from None
            docs = self._lines(text)
        if any(isinstance(doc, list) and any(isinstance(x, dict) for x in doc)
               for doc, _ in docs):
            return None
        for doc, line in docs:
            self._document(doc, line)
        return self.puzzles

    def _lines(self, text):
        docs = []
        for line, s in enumerate(text.splitlines(), 1):
            if s.strip() and not s.lstrip().startswith("#"):
                try:
                    docs.append((json.loads(s), line))
                except json.JSONDecodeError as exc:
                    raise ParseError(f"invalid JSON: {exc.msg}", self.source, line,
                                     exc.colno) from None
        return docs

    def _document(self, doc, line: int) -> None:
        if isinstance(doc, list) and doc and not _is_grid(doc):
            for i, item in enumerate(doc, 1):
                if isinstance(item, str):
                    self.puzzles.extend(
                        GridReader(self.size, self.box, f"{self.source}[{i}]").read(item))
                else:
                    self._grid(item, line, f"item {i}: ")
        else:
            self._grid(doc, line, "")

    def _grid(self, grid, line: int, where: str) -> None:
        if not _is_grid(grid):
            raise ParseError(f"{where}expected a grid: a list of rows of numbers (0 blank)",
                             self.source, line)
        flat = not isinstance(grid[0], list)
        rows = [grid] if flat else grid
        values, zero_blank = [], False
        for r, row in enumerate(rows, 1):
            for c, cell in enumerate(row, 1):
                v = _json_cell(cell)
                if v is None:
                    raise ParseError(f"{where}row {r}, column {c}: {json.dumps(cell)} is not "
                                     f"a cell value; expected a number 0-{MAX_SIZE} or a symbol",
                                     self.source, line)
                zero_blank |= cell == 0 or cell == "0"
                values.append(v)
        if flat:
            n = self.full(len(values))
            if n is None:
                raise ParseError(where + count_problem(len(values), self.size),
                                 self.source, line)
        else:
            n = len(rows)
            for r, row in enumerate(rows, 1):
                if len(row) != n:
                    raise ParseError(f"{where}row {r} has {len(row)} values, expected {n}",
                                     self.source, line)
            if self.size is not None and n != self.size:
                raise ParseError(f"{where}{n}x{n} grid, expected {self.size}x{self.size}",
                                 self.source, line)
        self.emit(values, n, line, "0" if zero_blank else ".")


def _is_cell(x) -> bool:
    return x is None or (isinstance(x, (int, str)) and not isinstance(x, bool)
                         and (isinstance(x, int) or len(x) <= 2))


def _is_grid(x) -> bool:
    """A flat list of cells, or a list of rows of cells."""
    if not isinstance(x, list) or not x:
        return False
    if all(isinstance(row, list) for row in x):
        return all(_is_cell(c) for row in x for c in row)
    return all(_is_cell(c) for c in x)


def _json_cell(cell) -> int | None:
    if cell is None:
        return None  # a blank is 0 or ".": null may be a value lost on the way
    if isinstance(cell, int):
        return cell if 0 <= cell <= MAX_SIZE else None
    if len(cell) == 1:
        return VALUE.get(cell)
    return int(cell) if cell.isdigit() else None
