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
  value v equals the flow on the transitions that read v there;
- regions found while solving (`Regions`, a chaos construction): the labels
  are one more binary per cell and label, see `_Program.regions`.

Auxiliary variables (a chaos construction's region labels) get columns as cells
do, and are reported after the cells. Counting adds a no-good cut per solution
found (its open cells' and labels' columns sum to at most their number minus
one) and solves again: two partitions of the same digits are two solutions. HiGHS's own `time_limit`
option gets what is left of the request's budget, but some of its root work
sees neither that limit nor an interrupt (seconds on a 25x25): HiGHS runs in a
child process (see `solver_process`), killed at the deadline or on Ctrl-C.
"""

from __future__ import annotations

import time
from functools import cache
from typing import ClassVar

from ..engine.clock import OutOfTime, check_clock
from ..grid.constraints import (
    AllDifferent,
    Allowed,
    Less,
    RegionRuns,
    Regions,
    Regular,
    Sum,
    one_step_nearer,
    orthogonal_neighbours,
    orthogonal_pairs,
)
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
                                                         "regular", "regions"})
    auxiliary: ClassVar[bool] = True

    def search(self, model: Model, request: Request) -> Outcome:
        if any(not dom for dom in model.all_domains):
            return nothing_to_search()
        deadline = request.deadline
        try:
            program = _Program(model, deadline)
        except OutOfTime:
            return out_of_time()
        if program.unsat:
            return nothing_to_search()
        open_cells = [c for c, dom in enumerate(program.domains) if len(dom) > 1]
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


# Regions up to N x N = 7 x 7 are chosen among the connected sets of N cells (13,616 on
# 7x7; 8x8 has 64,678); larger ones are connected by distances (see `_Program.regions`).
PIECES_UP_TO = 7


class _Program:
    """Columns and rows of the integer program; `col[(cell, value)]` is a binary (cells,
    then auxiliary variables: `domains` holds both)."""

    def __init__(self, model: Model, deadline: float | None = None):
        self.domains = model.all_domains
        self.col: dict[tuple[int, int], int] = {}
        for cell, dom in enumerate(self.domains):
            for value in sorted(dom):
                self.col[(cell, value)] = len(self.col)
        self.ncols = len(self.col)
        self.rows: list[tuple[float, float, dict[int, float]]] = []  # (lower, upper, coeffs)
        self.unsat = False
        for cell, dom in enumerate(self.domains):
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
            elif isinstance(con, RegionRuns):
                self.region_runs(con)
            elif isinstance(con, Regular):
                self.regular(con)
            elif isinstance(con, Regions):
                self.regions(con, model.values)
            else:  # pragma: no cover - lower_for decomposes every other kind
                raise TypeError(f"unexpected constraint kind {con.kind!r}")

    def new_cols(self, count: int) -> list[int]:
        """`count` new binary columns."""
        self.ncols += count
        return list(range(self.ncols - count, self.ncols))

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

    # --- regions found while solving -------------------------------------------------
    # Every helper column below is a function of the digits and the labels (a product,
    # a prefix, the piece a region is, a distance by levels), so one partition has one
    # point: the no-good cuts name cells and labels only, and none could be doubled.

    def regions(self, con: Regions, values: int) -> None:
        """N connected regions of N cells, holding different digits, canonically
        labelled. Up to PIECES_UP_TO, the regions are chosen among every connected set
        of N cells (a set partition: its relaxation is tight, HiGHS's presolve alone
        often settles a 6x6); above, connectivity is a distance by levels."""
        n = con.width
        digits, labels = con.cells[:n * n], con.cells[n * n:]
        label = [[self.column(cell, k) for k in range(1, n + 1)] for cell in labels]
        for k in range(n):
            self.row(n, n, {of_cell[k]: 1.0 for of_cell in label})
        seen = self.canonical(label)
        same = self.same_region(label, n)
        if n <= PIECES_UP_TO:
            chosen = self.partition(self.possible_pieces(digits, n, values), same, n)
            if values == n:
                self.piece_contents(digits, chosen, n)
                return
        self.region_contents(digits, label, values)
        if n > PIECES_UP_TO:
            self.connected(self.roots(label, seen), same, n)

    def column(self, cell: int, value: int) -> int:
        """The binary of a candidate; out of the domain, a new column fixed at 0."""
        col = self.col.get((cell, value))
        if col is None:
            col = self.new_cols(1)[0]
            self.row(0, 0, {col: 1.0})
        return col

    def region_contents(self, digits, label: list[list[int]], values: int) -> None:
        """pair[i][k, v]: cell i has label k and digit v, the product of two one-hot
        choices, stated as its marginals (summed over labels: the digit's column,
        over digits: the label's). Each (label, digit) pair in one cell at most, in
        exactly one when a region's N cells hold all N digits."""
        n = len(label[0])
        by_pair: dict[tuple[int, int], dict[int, float]] = {}
        for i, cell in enumerate(digits):
            present = sorted(self.domains[cell])
            pair = dict(zip(((k, v) for k in range(n) for v in present),
                            self.new_cols(n * len(present))))
            for v in present:
                self.row(0, 0, {self.col[(cell, v)]: 1.0,
                                **{pair[k, v]: -1.0 for k in range(n)}})
            for k in range(n):
                self.row(0, 0, {label[i][k]: 1.0, **{pair[k, v]: -1.0 for v in present}})
            for key, col in pair.items():
                by_pair.setdefault(key, {})[col] = 1.0
        for k in range(n):
            for v in range(1, values + 1):
                self.row(1 if values == n else None, 1, by_pair.get((k, v), {}))

    def canonical(self, label: list[list[int]]) -> list[list[int]]:
        """Labels in the order of their regions' first cells: the first cell opens
        region 1, and a cell takes label k + 1 only once label k was seen before it.
        Returns per cell seen[k], "label k + 1 among the cells up to this one" (the or
        of a prefix: at least each part, at most their sum)."""
        n = len(label[0])
        self.row(1, 1, {label[0][0]: 1.0})
        seen = [label[0]]
        for here in label[1:]:
            before, now = seen[-1], self.new_cols(n)
            for k, (was, x, after) in enumerate(zip(before, here, now)):
                if k:
                    self.row(None, 0, {x: 1.0, before[k - 1]: -1.0})
                self.row(0, None, {after: 1.0, was: -1.0})
                self.row(0, None, {after: 1.0, x: -1.0})
                self.row(None, 0, {after: 1.0, was: -1.0, x: -1.0})
            seen.append(now)
        return seen

    def same_region(self, label: list[list[int]], n: int) -> dict[tuple[int, int], int]:
        """A binary per pair of orthogonal neighbours (both ways): same label."""
        same: dict[tuple[int, int], int] = {}
        for i, j in orthogonal_pairs(n):
            s = same[i, j] = same[j, i] = self.new_cols(1)[0]
            for a, b in zip(label[i], label[j]):
                self.row(None, 1, {a: 1.0, b: 1.0, s: -1.0})  # both k: same
                self.row(None, 1, {s: 1.0, a: 1.0, b: -1.0})  # k on one side only: not
                self.row(None, 1, {s: 1.0, b: 1.0, a: -1.0})
        return same

    # Regions as pieces: every connected set of N cells, one binary each, each cell in one
    # chosen piece; two neighbours share a region exactly when a chosen piece holds both.
    # The labels then split the grid into those pieces (N cells a label, each within
    # one piece). Pieces: 2,816 on 6x6, 13,616 on 7x7, 64,678 on 8x8.

    def possible_pieces(self, digits, n: int, values: int) -> list[tuple[int, ...]]:
        """The connected sets of N cells whose cells can hold different digits (all N
        of them when V = N): not two cells with one digit each, the same."""
        kept = []
        for piece in connected_pieces(n):
            doms = [self.domains[digits[i]] for i in piece]
            fixed = [next(iter(d)) for d in doms if len(d) == 1]
            if len(fixed) != len(set(fixed)):
                continue
            if values == n and len(frozenset().union(*doms)) < n:
                continue
            kept.append(piece)
        return kept

    def partition(self, pieces: list[tuple[int, ...]], same: dict[tuple[int, int], int],
                  n: int) -> list[tuple[int, tuple[int, ...]]]:
        """Each cell in one chosen piece, and same[i, j] the sum of the chosen pieces
        holding both; returns (column, piece) per piece."""
        chosen = list(zip(self.new_cols(len(pieces)), pieces))
        cover: list[dict[int, float]] = [{} for _ in range(n * n)]
        both: dict[tuple[int, int], dict[int, float]] = {pair: {} for pair in orthogonal_pairs(n)}
        for col, piece in chosen:
            inside = set(piece)
            for i in piece:
                cover[i][col] = 1.0
                for j in orthogonal_neighbours(i, n):
                    if j > i and j in inside:
                        both[i, j][col] = -1.0
        for coeffs in cover:
            self.row(1, 1, coeffs)
        for (i, j), coeffs in both.items():
            self.row(0, 0, {same[i, j]: 1.0, **coeffs})
        return chosen

    def piece_contents(self, digits, chosen: list[tuple[int, tuple[int, ...]]],
                       n: int) -> None:
        """A chosen piece holds every digit (V = N): a tighter relaxation than the
        (label, digit) pairs, which it replaces."""
        for col, piece in chosen:
            for v in range(1, n + 1):
                self.row(0, None, {col: -1.0, **{self.col[(digits[i], v)]: 1.0
                                                  for i in piece if v in self.domains[digits[i]]}})

    # Regions by distance, above PIECES_UP_TO (pieces would number millions).

    def roots(self, label: list[list[int]], seen: list[list[int]]) -> list[int]:
        """Each cell's "first of its region" column: the labels seen first at it, the
        sum over k of seen at it less seen before it."""
        roots = [label[0][0]]
        for before, now in zip(seen, seen[1:]):
            root = self.new_cols(1)[0]
            self.row(0, 0, {root: 1.0, **{c: -1.0 for c in now}, **{c: 1.0 for c in before}})
            roots.append(root)
        return roots

    def both(self, a: int, b: int) -> int:
        """A new binary equal to a * b."""
        g = self.new_cols(1)[0]
        self.row(None, 0, {g: 1.0, a: -1.0})
        self.row(None, 0, {g: 1.0, b: -1.0})
        self.row(None, 1, {a: 1.0, b: 1.0, g: -1.0})
        return g

    def connected(self, roots: list[int], same: dict[tuple[int, int], int], n: int) -> None:
        """Every cell within N - 1 steps of its region's root, inside the region: by
        levels, near[t][i] is "distance to the root at most t" (0: the root itself),
        near[t + 1][i] = root or a same-region neighbour near[t] (the or of binaries:
        at least each, at most their sum); the last level must hold everywhere."""
        near = [roots]
        for t in range(1, n):
            reach = one_step_nearer(roots, same, near[-1], n, self.both)
            if t == n - 1:
                for ways in reach:
                    self.row(1, None, {w: 1.0 for w in ways})
                continue
            level = self.new_cols(n * n)
            for g, ways, below in zip(level, reach, near[-1]):
                self.row(None, 0, {g: 1.0, **{w: -1.0 for w in ways}})
                for w in ways:
                    self.row(None, 0, {w: 1.0, g: -1.0})
                self.row(None, 0, {below: 1.0, g: -1.0})  # the levels only grow
            near.append(level)

    def region_runs(self, con: RegionRuns) -> None:
        """A chaos arrow or count, read as the sums it states rather than through its
        automaton (whose layers carry the start's label: thousands of columns a clue):
        along each arm, run[t] = run[t - 1] and "cell t shares the start's label";
        the digit plus the offset is 1 plus the runs; a near arm has a run."""
        digit, start, rest = con.cells[0], con.cells[1], con.cells[2:]
        n = con.size
        own = [self.column(start, k) for k in range(1, n + 1)]
        shares: dict[int, int] = {}  # arm cell -> "shares the start's label"
        total = self.weighted((digit,), (1,))
        firsts = []
        at = 0
        for length in con.arms:
            run = None
            for cell in rest[at:at + length]:
                if cell not in shares:
                    shares[cell] = self.same_label(own, cell, n)
                if run is None:
                    run = shares[cell]
                    firsts.append(run)
                else:
                    run = self.both(run, shares[cell])
                total[run] = total.get(run, 0.0) - 1.0
            at += length
        self.row(1 - con.offset, 1 - con.offset, total)
        if con.near:
            self.row(1, None, {firsts[a]: 1.0 for a in con.near})

    def same_label(self, own: list[int], cell: int, n: int) -> int:
        """A new binary: `cell` has the label whose columns are `own`."""
        g = self.new_cols(1)[0]
        self.row(0, 0, {g: 1.0, **{self.both(a, self.column(cell, k)): -1.0
                                   for k, a in enumerate(own, 1)}})
        return g

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


@cache
def connected_pieces(n: int) -> tuple[tuple[int, ...], ...]:
    """Every orthogonally connected set of n cells of the n x n grid, each once: grown
    from its first cell, a cell once passed over never tried again in that branch."""
    found: list[tuple[int, ...]] = []

    def grow(piece: list[int], untried: list[int], met: set[int], least: int) -> None:
        while untried:
            cell = untried.pop()
            now = piece + [cell]
            if len(now) == n:
                found.append(tuple(sorted(now)))
                continue
            fresh = [j for j in orthogonal_neighbours(cell, n) if j > least and j not in met]
            grow(now, untried + fresh, met | set(fresh), least)

    for first in range(n * n):
        grow([], [first], {first}, first)
    return tuple(found)
