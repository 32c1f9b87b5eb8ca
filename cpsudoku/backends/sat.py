"""The sat backend: the model as CNF, solved by a CDCL SAT solver through python-sat.

One Boolean per cell and candidate value ("cell c holds v"):

- each cell holds exactly one of its values;
- an all-different group holds each value at most once, and at least once when
  it has as many cells as values (a row, a box: the clause that makes hidden
  singles a unit propagation);
- a sum (any coefficients) is a layered decision diagram: one Boolean per
  reachable partial sum after each term, kept only where the rest can still
  reach the total; "partial sum a, and the next cell holds v" implies
  "partial sum a + w*v", and an implied partial sum that cannot reach the
  total is forbidden. Sound and complete with no at-most-one on the layers:
  the partial sums of the actual values are forced true, the rest are free;
- a < b: "a holds v" implies b holds a value above v, and the converse;
- a table: one Boolean per tuple, one of them true, a tuple implies its values,
  and each value implies some tuple holding it (the support clauses);
- a regular constraint: the layered graph of its automaton, one Boolean per
  state that lies on an accepted word at each position (the start given):
  "in state s, and the cell holds v" implies one of the next states, a value
  that leads nowhere from s is forbidden there, and a state implies one of
  the values that leave it. The run of the actual values is forced, and it
  can only end in an accepting state;
- regions found while solving (`Regions`, a chaos construction): the labels
  are one more Boolean per cell and label, see `Cnf.regions`.

Auxiliary variables (a chaos construction's region labels) are encoded as
cells are, one Boolean per value, and reported after the cells. Counting adds a
blocking clause per solution found (not all of these open cells and labels
again): two partitions of the same digits are two solutions.

The solver searches in the calling thread (python-sat crashes on a signal in
another); a watcher thread interrupts it (`interrupt`, `solve_limited`) at the
deadline or on Ctrl-C, see `stopping.call_watched`.
CaDiCaL, which python-sat cannot interrupt, searches in a child process
killed at the deadline instead (`solver_process`).
"""

from __future__ import annotations

import itertools
import time
from typing import ClassVar

from ..engine.clock import OutOfTime, check_clock
from ..errors import BackendError
from ..grid.constraints import (
    AllDifferent,
    Allowed,
    Less,
    Regions,
    Regular,
    Sum,
    one_step_nearer,
    orthogonal_pairs,
)
from ..model import Model
from ..result import Outcome
from .base import Backend, Request, nothing_to_search, out_of_time
from .solver_process import search_in_child
from .stopping import call_watched, load_library

# The solvers of python-sat that can be interrupted: they search in this process.
SOLVERS = ("glucose4", "glucose42", "glucose3", "maplechrono", "maplecm", "maplesat",
           "minisat22")
# Those that cannot (python-sat offers no interrupt for CaDiCaL): they search in a
# child process killed at the deadline (see `solver_process`).
IN_CHILD = ("cadical195",)
# "auto": Glucose 4 in this process below 25x25 (on gecode_16x16 it is as fast as
# CaDiCaL, and needs no child process); CaDiCaL from 25x25 up. Measured on the
# 18 minimal 25x25 puzzles (20 s each): Glucose 4 solved 13, CaDiCaL with its
# default settings 14, CaDiCaL with the settings below all 18.
DEFAULT_SOLVER = "auto"
SMALL_SOLVER, LARGE_SOLVER, LARGE_FROM_SIZE = "glucose4", "cadical195", 25
# CaDiCaL's own configuration for satisfiable instances (its `--sat`): stay in
# stable mode (few restarts, target phases), eliminate and subsume less.
CADICAL_SAT = {"stabilizeonly": 1, "elimreleff": 10, "subsumereleff": 60}
# Literals up to which "at most one" is pairwise (n(n-1)/2 binary clauses); above,
# a sequential counter (3n clauses, the same unit propagation): on 25x25 grids
# pairwise clauses number 750,000 and take longer to build than to solve.
PAIRWISE_UP_TO = 10


ADD_CHUNK = 4096  # clauses handed to the solver between two looks at the clock


class SatBackend(Backend):
    name: ClassVar[str] = "sat"
    description: ClassVar[str] = ("python-sat: CNF (one Boolean per cell and value), "
                                  "CDCL solver (Glucose 4 below 25x25, CaDiCaL from 25x25)")
    distribution: ClassVar[str | None] = "python-sat"
    extra: ClassVar[str | None] = "sat"
    module: ClassVar[str | None] = "pysat"
    native_kinds: ClassVar[frozenset[str]] = frozenset({"alldifferent", "sum", "less", "allowed",
                                                         "regular", "regions"})
    option_names: ClassVar[frozenset[str]] = frozenset({"solver"})
    auxiliary: ClassVar[bool] = True

    def check_request(self, request: Request) -> None:
        super().check_request(request)
        solver_of(request, 9)

    def search(self, model: Model, request: Request) -> Outcome:
        if any(not dom for dom in model.all_domains):
            return nothing_to_search()
        deadline = request.deadline
        solvers = load_library("pysat.solvers", deadline)
        if solvers is None:
            return out_of_time()
        try:
            cnf = Cnf(model, deadline)
        except OutOfTime:
            return out_of_time()
        if cnf.unsat:
            return nothing_to_search()
        open_cells = [c for c, dom in enumerate(cnf.domains) if len(dom) > 1]
        name = solver_of(request, model.size)
        if name in IN_CHILD:
            return search_apart(cnf, name, request, open_cells)
        solutions: list[tuple[int, ...]] = []
        exhausted = timed_out = False
        with solvers.Solver(name=name) as solver:
            # python-sat adds clauses one Python call at a time: look at the clock meanwhile.
            for start in range(0, len(cnf.clauses), ADD_CHUNK):
                if deadline is not None and time.monotonic() > deadline:
                    return out_of_time()
                for clause in cnf.clauses[start:start + ADD_CHUNK]:
                    solver.add_clause(clause)
            while len(solutions) < request.max_solutions:
                if deadline is not None and time.monotonic() >= deadline:
                    timed_out = True
                    break
                answer = call_watched(lambda: solver.solve_limited(expect_interrupt=True),
                                      solver.interrupt, deadline)
                if answer is None:  # interrupted: only the deadline does that here
                    timed_out = True
                    break
                solver.clear_interrupt()
                if not answer:
                    exhausted = True
                    break
                grid = cnf.decode(solver.get_model())
                solutions.append(grid)
                if not open_cells:
                    exhausted = True
                    break
                solver.add_clause([-cnf.var[(c, grid[c])] for c in open_cells])
            stats = solver.accum_stats() or {}
        return Outcome(solutions, exhausted=exhausted, timed_out=timed_out,
                       stats=_stats(stats, cnf))


def search_apart(cnf: Cnf, name: str, request: Request, open_cells: list[int]) -> Outcome:
    """The search of a solver that cannot be interrupted, in the solver's child process."""
    solutions, end = search_in_child(("pysat.solvers", __name__), f"{__name__}:solve_in_child",
                                     (cnf, name, request.max_solutions, open_cells),
                                     request.deadline)
    if end is None:  # killed at the deadline
        end = {"exhausted": False, "timed_out": True, "stats": {}}
    return Outcome(solutions, exhausted=end["exhausted"], timed_out=end["timed_out"],
                   stats=_stats(end["stats"], cnf))


def solve_in_child(payload, send) -> dict:
    """Solve (and count with blocking clauses) in the child process: each solution is
    sent as found; returns how the search ended."""
    from pysat.solvers import Solver

    cnf, name, max_solutions, open_cells = payload
    found = 0
    exhausted = False
    with Solver(name=name) as solver:
        if name == "cadical195":
            solver.configure(CADICAL_SAT)  # before any clause, as CaDiCaL requires
        solver.append_formula(cnf.clauses)
        while found < max_solutions:
            if not solver.solve():
                exhausted = True
                break
            grid = cnf.decode(solver.get_model())
            send(grid)
            found += 1
            if not open_cells:
                exhausted = True
                break
            solver.add_clause([-cnf.var[(c, grid[c])] for c in open_cells])
        stats = solver.accum_stats() or {}
    return {"exhausted": exhausted, "timed_out": False, "stats": stats}


def _stats(stats: dict, cnf: Cnf) -> dict:
    return {"nodes": stats.get("decisions", 0), "decisions": stats.get("decisions", 0),
            "conflicts": stats.get("conflicts", 0),
            "propagations": stats.get("propagations", 0),
            "variables": cnf.top, "clauses": len(cnf.clauses)}


def without_placed_values(model: Model) -> list[frozenset[int]]:
    """The domains less the values that cells with one value left (givens first)
    take from their all-different peers, until none is left to take: fewer
    Booleans and clauses, the same solutions (unit propagation would remove
    them anyway, after the clauses were built and handed over). The auxiliary
    variables' domains follow the cells', as they are."""
    domains = list(model.all_domains)
    groups_of: dict[int, list[tuple[int, ...]]] = {}
    for con in model.constraints:
        if isinstance(con, AllDifferent) and len(set(con.cells)) == len(con.cells):
            for c in con.cells:
                groups_of.setdefault(c, []).append(con.cells)
    queue = [c for c, dom in enumerate(domains) if len(dom) == 1]
    done = set()
    while queue:
        cell = queue.pop()
        if cell in done or len(domains[cell]) != 1:
            continue
        done.add(cell)
        value = next(iter(domains[cell]))
        for cells in groups_of.get(cell, ()):
            for peer in cells:
                if peer != cell and value in domains[peer]:
                    domains[peer] = domains[peer] - {value}
                    if len(domains[peer]) == 1:
                        queue.append(peer)
    return domains


def solver_of(request: Request, size: int) -> str:
    """The python-sat solver to use on a grid of this size."""
    name = request.options.get("solver", DEFAULT_SOLVER)
    if name == "auto":
        return LARGE_SOLVER if size >= LARGE_FROM_SIZE else SMALL_SOLVER
    if name not in SOLVERS + IN_CHILD:
        raise BackendError(f"backend 'sat': solver must be auto or one of "
                           f"{', '.join(SOLVERS + IN_CHILD)}, not {name!r}")
    return str(name)


class Cnf:
    """The clauses of a model; `var[(cell, value)]` is the Boolean of a candidate (cells,
    then auxiliary variables: `domains` holds both)."""

    def __init__(self, model: Model, deadline: float | None = None):
        self.domains = without_placed_values(model)
        self.var: dict[tuple[int, int], int] = {}
        for cell, dom in enumerate(self.domains):
            for value in sorted(dom):
                self.var[(cell, value)] = len(self.var) + 1
        self.top = len(self.var)
        self._false: int | None = None
        self.clauses: list[list[int]] = []
        self.unsat = not all(self.domains)
        if self.unsat:
            return
        check_clock(deadline)
        for cell, dom in enumerate(self.domains):
            self.exactly_one([self.var[(cell, v)] for v in sorted(dom)])
        for con in model.constraints:
            check_clock(deadline)
            if isinstance(con, AllDifferent):
                self.all_different(con.cells)
            elif isinstance(con, Sum):
                self.linear_sum(con)
            elif isinstance(con, Less):
                for a, b in zip(con.cells, con.cells[1:]):
                    self.less(a, b)
            elif isinstance(con, Allowed):
                self.table(con)
            elif isinstance(con, Regular):
                self.regular(con)
            elif isinstance(con, Regions):
                self.regions(con, model.values)
            else:  # pragma: no cover - lower_for decomposes every other kind
                raise TypeError(f"unexpected constraint kind {con.kind!r}")

    def new_var(self) -> int:
        self.top += 1
        return self.top

    def both(self, a: int, b: int) -> int:
        """A new Boolean that is true exactly when a and b are."""
        g = self.new_var()
        self.clauses.extend(([-g, a], [-g, b], [g, -a, -b]))
        return g

    def either(self, lits: list[int]) -> int:
        """A new Boolean that is true exactly when one of `lits` is."""
        g = self.new_var()
        self.clauses.append([-g] + lits)
        self.clauses.extend([g, -x] for x in lits)
        return g

    def false(self) -> int:
        """A Boolean that is always false: the candidate of a value out of a domain."""
        if self._false is None:
            self._false = self.new_var()
            self.clauses.append([-self._false])
        return self._false

    def lit(self, cell: int, value: int) -> int | None:
        return self.var.get((cell, value))

    def at_most_one(self, lits: list[int]) -> None:
        if len(lits) <= PAIRWISE_UP_TO:
            self.clauses.extend([-a, -b] for a, b in itertools.combinations(lits, 2))
            return
        # Sequential counter (Sinz): s_i means "one of the first i literals is true".
        prev = None
        for i, x in enumerate(lits):
            s = self.new_var() if i < len(lits) - 1 else None
            if s is not None:
                self.clauses.append([-x, s])
            if prev is not None:
                self.clauses.append([-x, -prev])
                if s is not None:
                    self.clauses.append([-prev, s])
            prev = s

    def exactly_one(self, lits: list[int]) -> None:
        if not lits:
            self.unsat = True
            return
        self.clauses.append(list(lits))
        self.at_most_one(lits)

    def all_different(self, cells) -> None:
        if len(set(cells)) != len(cells):
            self.unsat = True  # a cell cannot differ from itself
            return
        values = sorted(frozenset().union(*(self.domains[c] for c in cells)))
        exact = len(values) == len(cells)
        for v in values:
            lits = [x for x in (self.lit(c, v) for c in cells) if x is not None]
            if exact:
                self.exactly_one(lits)
            else:
                self.at_most_one(lits)

    def linear_sum(self, con: Sum) -> None:
        terms = list(zip(con.cells, con.weights()))
        # Extremes of what the terms after position i can add, to prune dead partial sums.
        lows, highs = [0] * (len(terms) + 1), [0] * (len(terms) + 1)
        for i in range(len(terms) - 1, -1, -1):
            cell, w = terms[i]
            products = [w * v for v in self.domains[cell]]
            lows[i] = lows[i + 1] + min(products)
            highs[i] = highs[i + 1] + max(products)
        layer: dict[int, int | None] = {0: None}  # partial sum -> its Boolean (None: true)
        for i, (cell, w) in enumerate(terms):
            nxt: dict[int, int | None] = {}
            last = i == len(terms) - 1
            for partial, s in layer.items():
                for v in sorted(self.domains[cell]):
                    x = self.var[(cell, v)]
                    reached = partial + w * v
                    why = [-x] if s is None else [-s, -x]
                    if not lows[i + 1] <= con.total - reached <= highs[i + 1]:
                        self.clauses.append(why)  # the total is out of reach from here
                        continue
                    if last:
                        continue  # reached == total
                    if reached not in nxt:
                        nxt[reached] = self.new_var()
                    self.clauses.append(why + [nxt[reached]])  # type: ignore[list-item]
            layer = nxt
        if not terms and con.total != 0:
            self.unsat = True

    def less(self, a: int, b: int) -> None:
        for v in sorted(self.domains[a]):
            above = [self.var[(b, u)] for u in sorted(self.domains[b]) if u > v]
            self.clauses.append([-self.var[(a, v)]] + above)
        for u in sorted(self.domains[b]):
            below = [self.var[(a, v)] for v in sorted(self.domains[a]) if v < u]
            self.clauses.append([-self.var[(b, u)]] + below)

    def table(self, con: Allowed) -> None:
        cells = con.cells
        rows = [t for t in con.tuples
                if all(self.lit(c, v) is not None for c, v in zip(cells, t))]
        if not rows:
            self.unsat = True
            return
        picks = [self.new_var() for _ in rows]
        self.clauses.append(list(picks))
        supports: dict[tuple[int, int], list[int]] = {}
        for pick, row in zip(picks, rows):
            for c, v in zip(cells, row):
                self.clauses.append([-pick, self.var[(c, v)]])
                supports.setdefault((c, v), []).append(pick)
        for c in set(cells):
            for v in self.domains[c]:
                self.clauses.append([-self.var[(c, v)]] + supports.get((c, v), []))

    def regular(self, con: Regular) -> None:
        layers = con.automaton.paths([self.domains[c] for c in con.cells])
        if con.cells and not layers[0]:
            self.unsat = True
            return
        state: dict[tuple[int, int], int | None] = {(0, con.automaton.start): None}  # None: true
        for i, edges in enumerate(layers):
            for _s, _v, t in edges:
                if (i + 1, t) not in state:
                    state[(i + 1, t)] = None if i + 1 == len(layers) else self.new_var()
        for i, (cell, edges) in enumerate(zip(con.cells, layers)):
            nexts: dict[tuple[int, int], list[int]] = {}
            for s, v, t in edges:
                nxt = state[(i + 1, t)]
                nexts.setdefault((s, v), [])
                if nxt is not None:
                    nexts[(s, v)].append(nxt)
            sources = {s for (j, s) in state if j == i}
            for s in sources:
                here = state[(i, s)]
                why = [] if here is None else [-here]
                leaving = []
                for v in sorted(self.domains[cell]):
                    x = self.var[(cell, v)]
                    if (s, v) not in nexts:
                        self.clauses.append(why + [-x])  # no accepted word goes on this way
                        continue
                    leaving.append(x)
                    if i + 1 < len(layers):
                        self.clauses.append(why + [-x] + nexts[(s, v)])
                self.clauses.append(why + leaving)

    # --- regions found while solving -------------------------------------------------
    # Every helper Boolean below is a function of the digits and the labels (an "and",
    # an "or", a prefix, a distance by levels): one partition has one set of helpers.

    def regions(self, con: Regions, values: int) -> None:
        """N connected regions of N cells, holding different digits, canonically
        labelled: the region contents, then the labels' order, then connectivity."""
        n = con.width
        digits, labels = con.cells[:n * n], con.cells[n * n:]
        label = [[self.lit(cell, k) or self.false() for k in range(1, n + 1)]
                 for cell in labels]
        self.region_contents(digits, label, values)
        roots = self.canonical_roots(label)
        self.connected(roots, self.same_region(label, n), n)

    def region_contents(self, digits, label: list[list[int]], values: int) -> None:
        """Each (label, digit) pair in one cell at most, in exactly one when a region's
        N cells hold all N digits; with more digits than N, N cells per label."""
        n = len(label[0])
        for k in range(n):
            for v in range(1, values + 1):
                pairs = [self.both(label[i][k], x) for i, cell in enumerate(digits)
                         if (x := self.lit(cell, v)) is not None]
                if values == n:
                    self.exactly_one(pairs)
                else:
                    self.at_most_one(pairs)
            if values > n:
                self.cardinality([label[i][k] for i in range(len(digits))], n)

    def cardinality(self, lits: list[int], bound: int) -> None:
        """Exactly `bound` of `lits` true (python-sat's sequential counter)."""
        from pysat.card import CardEnc, EncType

        encoded = CardEnc.equals(lits=lits, bound=bound, top_id=self.top,
                                 encoding=EncType.seqcounter)
        self.top = max(self.top, encoded.nv)
        self.clauses.extend(encoded.clauses)

    def canonical_roots(self, label: list[list[int]]) -> list[int]:
        """Labels in the order of their regions' first cells: the first cell opens
        region 1, and a cell takes label k + 1 only once label k was seen before it.
        Returns each cell's "first of its region" (its label not seen before it), the
        root its region's distances are measured from."""
        self.clauses.append([label[0][0]])
        roots = [label[0][0]]
        seen = label[0]  # seen[k]: "label k + 1 among the cells so far"
        for here in label[1:]:
            root = self.new_var()
            for k, x in enumerate(here):
                if k:
                    self.clauses.append([-x, seen[k - 1]])
                self.clauses.extend(([-x, seen[k], root], [-x, -seen[k], -root]))
            roots.append(root)
            seen = [self.either([s, x]) for s, x in zip(seen, here)]
        return roots

    def same_region(self, label: list[list[int]], n: int) -> dict[tuple[int, int], int]:
        """A Boolean per pair of orthogonal neighbours (both ways): same label."""
        same: dict[tuple[int, int], int] = {}
        for i, j in orthogonal_pairs(n):
            s = same[i, j] = same[j, i] = self.new_var()
            for a, b in zip(label[i], label[j]):
                self.clauses.extend(([-a, -b, s], [-s, -a, b], [-s, -b, a]))
        return same

    def connected(self, roots: list[int], same: dict[tuple[int, int], int], n: int) -> None:
        """Every cell within N - 1 steps of its region's root, inside the region: by
        levels, near[t][i] is "distance to the root at most t" (0: the root itself),
        near[t + 1][i] = root or a same-region neighbour near[t]: the distance within
        the region, order encoded; the last level must hold everywhere."""
        near = [roots]
        for t in range(1, n):
            reach = one_step_nearer(roots, same, near[-1], n, self.both)
            if t == n - 1:
                self.clauses.extend(reach)
            else:
                near.append([self.either(ways) for ways in reach])
                self.clauses.extend([-a, b] for a, b in zip(near[-2], near[-1]))

    def decode(self, assignment: list[int] | None) -> tuple[int, ...]:
        true = {lit for lit in assignment or () if lit > 0}
        grid = [0] * len(self.domains)
        for (cell, value), x in self.var.items():
            if x in true:
                grid[cell] = value
        return tuple(grid)
