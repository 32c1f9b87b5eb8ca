"""The mip backend: the model as a 0/1 integer program, solved by HiGHS through highspy.

The same Booleans as `sat` ("cell c holds v", one binary column each), no
objective (any feasible point is an answer):

- each cell: its columns sum to 1;
- an all-different group: per value, the columns of that value sum to at most
  1, or to exactly 1 when the group has as many cells as values;
- a sum: sum(w * v * x[c, v]) == total, the linear constraint itself;
- a < b: sum(v * x[a, v]) - sum(v * x[b, v]) <= -1;
- a table: one binary per tuple, these sum to 1, and each cell's column of
  value v equals the sum of the tuples holding v there;
- a regular constraint: a unit flow through the layered graph of its
  automaton (one binary per transition on some accepted word), leaving the
  start once, conserved at every state in between, and each cell's column of
  value v equals the flow on the transitions that read v there.

Counting adds a no-good cut per solution found (its open cells' columns sum to
at most their number minus one) and solves again. HiGHS's own `time_limit`
option gets what is left of the request's budget, but some of its root work
sees neither that limit nor an interrupt (seconds on a 25x25): HiGHS runs in a
child process (see `solver_process`), killed at the deadline or on Ctrl-C.
"""

from __future__ import annotations

import time
from typing import ClassVar

from ..engine.clock import OutOfTime, check_clock
from ..grid.constraints import AllDifferent, Allowed, Less, Regular, Sum
from ..model import Model
from ..result import Outcome
from .base import Backend, Request, nothing_to_search, out_of_time
from .solver_process import search_in_child


class MipBackend(Backend):
    name: ClassVar[str] = "mip"
    description: ClassVar[str] = ("highspy: 0/1 integer program (one binary per cell and value), "
                                  "HiGHS branch and bound")
    distribution: ClassVar[str | None] = "highspy"
    extra: ClassVar[str | None] = "mip"
    module: ClassVar[str | None] = "highspy"
    native_kinds: ClassVar[frozenset[str]] = frozenset({"alldifferent", "sum", "less", "allowed",
                                                         "regular"})

    def search(self, model: Model, request: Request) -> Outcome:
        if any(not dom for dom in model.domains):
            return nothing_to_search()
        deadline = request.deadline
        try:
            program = _Program(model, deadline)
        except OutOfTime:
            return out_of_time()
        if program.unsat:
            return nothing_to_search()
        open_cells = [c for c, dom in enumerate(model.domains) if len(dom) > 1]
        solutions, end = search_in_child(PRELOAD, f"{__name__}:solve_in_child",
                                         (program, request.max_solutions, open_cells, deadline),
                                         deadline)
        if end is None:  # killed at the deadline
            end = {"exhausted": False, "timed_out": True, "nodes": 0, "iterations": 0}
        return Outcome(solutions, exhausted=end["exhausted"], timed_out=end["timed_out"],
                       stats={"nodes": end["nodes"], "simplex_iterations": end["iterations"],
                              "columns": program.ncols, "rows": len(program.rows)})


PRELOAD = ("highspy", __name__)  # imported by the child once, before its first puzzle


def solve_in_child(payload, send) -> dict:
    """HiGHS on the program, in the solver's child process: each solution is sent as
    found (a no-good cut added before solving again); returns how it ended."""
    import highspy

    program, max_solutions, open_cells, deadline = payload
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    program.load(h, highspy)
    found = 0
    exhausted = timed_out = False
    nodes = iterations = 0
    status_enum = highspy.HighsModelStatus
    while found < max_solutions:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            h.setOptionValue("time_limit", left)
        h.run()
        info = h.getInfo()
        nodes += max(info.mip_node_count, 0)
        iterations += max(info.simplex_iteration_count, 0)
        status = h.getModelStatus()
        if status == status_enum.kInfeasible:
            exhausted = True
            break
        if status != status_enum.kOptimal:  # HiGHS's own time limit
            timed_out = True
            break
        grid = program.decode(h.getSolution().col_value)
        send(grid)
        found += 1
        if not open_cells:
            exhausted = True
            break
        cut = [program.col[(c, grid[c])] for c in open_cells]
        h.addRow(-highspy.kHighsInf, len(cut) - 1, len(cut), cut, [1.0] * len(cut))
    return {"exhausted": exhausted, "timed_out": timed_out, "nodes": nodes,
            "iterations": iterations}


class _Program:
    """Columns and rows of the integer program; `col[(cell, value)]` is a binary."""

    def __init__(self, model: Model, deadline: float | None = None):
        self.domains = model.domains
        self.col: dict[tuple[int, int], int] = {}
        for cell, dom in enumerate(model.domains):
            for value in sorted(dom):
                self.col[(cell, value)] = len(self.col)
        self.ncols = len(self.col)
        self.rows: list[tuple[float, float, dict[int, float]]] = []  # (lower, upper, coeffs)
        self.unsat = False
        for cell, dom in enumerate(model.domains):
            self.row(1, 1, {self.col[(cell, v)]: 1 for v in dom})
        for con in model.constraints:
            check_clock(deadline)
            if isinstance(con, AllDifferent):
                self.all_different(con.cells)
            elif isinstance(con, Sum):
                self.row(con.total, con.total, self.weighted(con.cells, con.weights()))
            elif isinstance(con, Less):
                for a, b in zip(con.cells, con.cells[1:]):
                    coeffs = self.weighted((a, b), (1, -1))
                    self.row(None, -1, coeffs)
            elif isinstance(con, Allowed):
                self.table(con)
            elif isinstance(con, Regular):
                self.regular(con)
            else:  # pragma: no cover - lower_for decomposes every other kind
                raise TypeError(f"unexpected constraint kind {con.kind!r}")

    def row(self, lower, upper, coeffs: dict[int, float]) -> None:
        coeffs = {c: w for c, w in coeffs.items() if w}
        if not coeffs:  # 0 between lower and upper: always or never
            if (lower is not None and lower > 0) or (upper is not None and upper < 0):
                self.unsat = True
            return
        self.rows.append((lower, upper, coeffs))

    def weighted(self, cells, weights) -> dict[int, float]:
        """sum(w * value of cell) as coefficients on the value columns (cells may repeat)."""
        coeffs: dict[int, float] = {}
        for cell, w in zip(cells, weights):
            for v in self.domains[cell]:
                col = self.col[(cell, v)]
                coeffs[col] = coeffs.get(col, 0) + w * v
        return coeffs

    def all_different(self, cells) -> None:
        if len(set(cells)) != len(cells):
            self.unsat = True  # a cell cannot differ from itself
            return
        values = frozenset().union(*(self.domains[c] for c in cells))
        exact = len(values) == len(cells)
        for v in values:
            coeffs = {self.col[(c, v)]: 1.0 for c in cells if v in self.domains[c]}
            self.row(1 if exact else None, 1, coeffs)

    def table(self, con: Allowed) -> None:
        rows = [t for t in con.tuples
                if all(v in self.domains[c] for c, v in zip(con.cells, t))]
        picks = list(range(self.ncols, self.ncols + len(rows)))
        self.ncols += len(rows)
        self.row(1, 1, {p: 1 for p in picks})
        # x[cell, v] equals the tuples that put v at position j (each position of a cell).
        for j, cell in enumerate(con.cells):
            for v in self.domains[cell]:
                coeffs = {self.col[(cell, v)]: 1.0}
                for p, t in zip(picks, rows):
                    if t[j] == v:
                        coeffs[p] = -1.0
                self.row(0, 0, coeffs)

    def regular(self, con: Regular) -> None:
        layers = con.automaton.paths([self.domains[c] for c in con.cells])
        flows = []  # per position: (state, value, next state, column)
        for edges in layers:
            flows.append([(s, v, t, self.ncols + k) for k, (s, v, t) in enumerate(edges)])
            self.ncols += len(edges)
        if not flows:
            return
        self.row(1, 1, {col: 1 for _, _, _, col in flows[0]})  # one way out of the start
        for before, after in zip(flows, flows[1:]):
            for state in {t for _, _, t, _ in before}:
                coeffs = {col: 1.0 for _, _, t, col in before if t == state}
                coeffs.update({col: -1.0 for s, _, _, col in after if s == state})
                self.row(0, 0, coeffs)
        for cell, arcs in zip(con.cells, flows):
            for v in self.domains[cell]:
                coeffs = {self.col[(cell, v)]: 1.0}
                coeffs.update({col: -1.0 for _, u, _, col in arcs if u == v})
                self.row(0, 0, coeffs)

    def load(self, h, highspy) -> None:
        inf = highspy.kHighsInf
        n = self.ncols
        h.addVars(n, [0.0] * n, [1.0] * n)
        h.changeColsIntegrality(n, list(range(n)), [highspy.HighsVarType.kInteger] * n)
        # All rows in one call (compressed rows): one addRow per row costs seconds on 25x25.
        lows: list[float] = []
        highs: list[float] = []
        starts: list[int] = []
        index: list[int] = []
        value: list[float] = []
        for lower, upper, coeffs in self.rows:
            lows.append(-inf if lower is None else float(lower))
            highs.append(inf if upper is None else float(upper))
            starts.append(len(index))
            index.extend(coeffs)
            value.extend(float(w) for w in coeffs.values())
        h.addRows(len(lows), lows, highs, len(index), starts, index, value)

    def decode(self, values) -> tuple[int, ...]:
        grid = [0] * len(self.domains)
        for (cell, value), col in self.col.items():
            if values[col] > 0.5:
                grid[cell] = value
        return tuple(grid)
