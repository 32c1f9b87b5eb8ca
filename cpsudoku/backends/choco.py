"""The choco backend: the model handed to the Choco solver (a classic CP solver) through pychoco.

One integer variable per cell over its domain; all-different with Régin's
arc-consistent filtering ("AC": domain consistency, where CP-SAT learns
clauses instead); sums as `scalar` constraints (any coefficients); `<` as
`arithm`; tables with Choco's compact-table algorithm; regular constraints as
Choco's `regular` over a deterministic automaton; regions found while solving
(`Regions`: a chaos construction) as `_post_regions` says. Search is Choco's
default (dom/wdeg with restarts on the cell variables); with auxiliary variables
(a chaos construction's region labels, which each solution reports after the
cells) it is dom/wdeg on the cells and those alone (`_search_decisions`).

Each `solve()` of Choco's solver returns the next solution, so counting
enumerates up to `max_solutions`. The time limit is Choco's own
(`limit_time`), given what is left of the request's budget after building.
pychoco holds the interpreter while Choco searches (no signal is taken, no
other thread runs), so the search runs in a child process (`solver_process`)
that stays up between puzzles: a Ctrl-C kills it at once, and a search that
overruns its deadline is killed there.
"""

from __future__ import annotations

import time
from typing import ClassVar

from ..grid.constraints import AllDifferent, Allowed, Less, Regions, Regular, Sum
from ..grid.geometry import cell_name
from ..model import Model
from ..result import Outcome
from .base import Backend, Request, nothing_to_search
from .solver_process import search_in_child

PRELOAD = ("pychoco", "pychoco.backend")  # imported once by the child process


class ChocoBackend(Backend):
    name: ClassVar[str] = "choco"
    description: ClassVar[str] = ("pychoco: the Choco CP solver, domain-consistent all-different, "
                                  "scalar sums, compact tables")
    distribution: ClassVar[str | None] = "pychoco"
    extra: ClassVar[str | None] = "choco"
    module: ClassVar[str | None] = "pychoco"
    native_kinds: ClassVar[frozenset[str]] = frozenset({"alldifferent", "sum", "less", "allowed",
                                                         "regular", "regions"})
    auxiliary: ClassVar[bool] = True

    def search(self, model: Model, request: Request) -> Outcome:
        if any(not dom for dom in model.all_domains):
            return nothing_to_search()
        # Only what the search reads: the puzzle's rules may be classes the child
        # cannot import (a rule defined in a script).
        payload = (model.width, len(model.domains), model.values, model.all_domains,
                   model.constraints, request.max_solutions, request.deadline)
        solutions, end = search_in_child(PRELOAD, f"{__name__}:solve_in_child", payload,
                                         request.deadline)
        if end is None:  # killed at the deadline (or still importing pychoco)
            end = {"exhausted": False, "timed_out": True, "stats": {}}
        return Outcome(solutions, exhausted=end["exhausted"], timed_out=end["timed_out"],
                       stats=end["stats"])


def solve_in_child(payload, send) -> dict:
    """Build the Choco model and search, in the child process: each solution (the
    cells' values, then the auxiliary variables') is sent as found; returns how the
    search ended."""
    import pychoco
    from pychoco import backend as choco_c

    width, ncells, values, domains, constraints, max_solutions, deadline = payload
    cp = pychoco.Model("cpsudoku")
    cells = [_variable(cp, cell, dom, width, ncells) for cell, dom in enumerate(domains)]
    if not all([_post(cp, con, cells, values) for con in constraints]):
        return {"exhausted": True, "timed_out": False, "stats": {}}
    solver = cp.get_solver()
    if len(cells) > ncells:
        _search_decisions(solver, cells)
    if deadline is not None:
        left = deadline - time.monotonic()
        if left <= 0:
            return {"exhausted": False, "timed_out": True, "stats": {}}
        solver.limit_time(f"{left:.3f}s")
    found = 0
    exhausted = timed_out = False
    while found < max_solutions:
        if not solver.solve():
            # TERMINATED: the whole tree was explored; STOPPED: the time limit.
            exhausted = solver.get_search_state() == "TERMINATED"
            timed_out = not exhausted
            break
        send(tuple(v.get_value() for v in cells))
        found += 1
    # pychoco 0.4's Solver.get_node_count is shadowed by a copy returning the time.
    stats = {"nodes": choco_c.get_node_count(solver._handle),
             "backtracks": solver.get_backtrack_count(), "fails": solver.get_fail_count()}
    return {"exhausted": exhausted, "timed_out": timed_out, "stats": stats}


def _variable(cp, cell: int, dom: frozenset[int], width: int, ncells: int):
    name = cell_name(cell, width) if cell < ncells else f"aux{cell - ncells}"
    values = sorted(dom)
    if values[-1] - values[0] + 1 == len(values):
        return cp.intvar(values[0], values[-1], name=name)
    return cp.intvar(values, name=name)


def _post(cp, con, cells, values: int) -> bool:
    """Post `con` on the Choco model; False when it can never hold (no tuple, 0 == 5).
    `values`: how many values a digit cell may take (V), which `Regions` needs."""
    if isinstance(con, AllDifferent):
        if len(con.cells) > 1:
            cp.all_different([cells[c] for c in con.cells], "AC").post()
    elif isinstance(con, Sum):
        terms: dict[int, int] = {}
        for c, w in zip(con.cells, con.weights()):
            terms[c] = terms.get(c, 0) + w  # Choco refuses a variable twice in one scalar
        terms = {c: w for c, w in terms.items() if w}
        if not terms:
            return con.total == 0
        cp.scalar([cells[c] for c in terms], list(terms.values()), "=", con.total).post()
    elif isinstance(con, Less):
        for a, b in zip(con.cells, con.cells[1:]):
            cp.arithm(cells[a], "<", cells[b]).post()
    elif isinstance(con, Allowed):
        if not con.tuples:
            return False
        cp.table([cells[c] for c in con.cells], [list(t) for t in con.tuples]).post()
    elif isinstance(con, Regular):
        dfa = con.automaton.deterministic()
        if not dfa.accepting:
            return False
        cp.regular([cells[c] for c in con.cells], _finite_automaton(dfa)).post()
    elif isinstance(con, Regions):
        _post_regions(cp, [cells[c] for c in con.cells], con.width, values)
    else:  # pragma: no cover - lower_for decomposes every other kind
        raise TypeError(f"unexpected constraint kind {con.kind!r}")
    return True


def _search_decisions(solver, cells: list) -> None:
    """Branch on the cells and the auxiliary variables alone (dom/wdeg with reference
    to the last conflicts), leaving the helpers of `_post_regions` to propagation:
    Choco's default search would branch on them too (the 9x9 "Chaos Construction -
    easier": 1,986 nodes and 5 s so, 7,629 nodes and 15 s by default)."""
    from pychoco import backend as choco_c
    from pychoco._utils import make_intvar_array

    # Solver.set_dom_over_w_deg_ref_search prints every variable: its backend call
    choco_c.set_dom_over_w_deg_ref_search(solver._handle, make_intvar_array(cells))


def _post_regions(cp, cells: list, n: int, values: int) -> None:
    """Regions found while solving (a chaos construction): `cells` are the N*N digits,
    then a label per cell. Every helper is a function of the digits and the labels
    (the search never fixes one two ways), so enumerating meets each solution once."""
    m = n * n
    digits, labels = cells[:m], cells[m:]
    _post_region_contents(cp, digits, labels, n, values)
    # canonical labels: 1 first, and each next label only after the one before it
    cp.int_value_precede_chain(labels, list(range(1, n + 1))).post()
    _post_region_connected(cp, labels, n)


def _post_region_contents(cp, digits: list, labels: list, n: int, values: int) -> None:
    """No digit twice in a region: each cell's pair V*(label - 1) + digit differs from
    every other's (domain-consistent, so with V = N a digit a region lacks goes to
    its one cell left that can take it); and each label on N cells."""
    pairs = []
    for digit, label in zip(digits, labels):
        pair = cp.intvar(1, n * values)
        cp.scalar([label, digit, pair], [values, 1, -1], "=", values).post()
        pairs.append(pair)
    cp.all_different(pairs, "AC").post()
    sizes = [cp.intvar(n) for _ in range(n)]
    cp.global_cardinality(labels, list(range(1, n + 1)), sizes, closed=True).post()


def _post_region_connected(cp, labels: list, n: int) -> None:
    """Each region orthogonally connected: per label, a graph variable whose nodes are
    the cells of that label and whose edges are all the grid's edges between them
    (node-induced, so fixed by the labels), under Choco's connectivity constraint.
    Measured against a distance to each region's first cell (0 there, one more than
    the nearest same-region neighbour's elsewhere), which prunes only by bounds: on
    the 9x9 "Chaos Construction - easier" 1,986 nodes and 5 s against over 110,000
    nodes and 2 minutes."""
    from pychoco.objects.graphs.undirected_graph import UndirectedGraph, create_undirected_graph

    m = n * n
    edges = [[i, j] for i in range(m)
             for j, inside in ((i + 1, i % n < n - 1), (i + n, i < m - n)) if inside]
    member = [[cp.boolvar() for _ in range(n)] for _ in labels]  # member[i][k]: label k + 1
    for label, bools in zip(labels, member):
        cp.bools_int_channeling(bools, label, 1).post()
    for k in range(n):
        region = cp.node_induced_graphvar(UndirectedGraph(cp, m),
                                          create_undirected_graph(cp, m, list(range(m)), edges),
                                          f"region{k + 1}")
        cp.graph_nodes_channeling(region, [bools[k] for bools in member]).post()
        cp.graph_connected(region).post()


def _finite_automaton(dfa):
    """Choco's FiniteAutomaton of a deterministic `Automaton`."""
    from pychoco.objects.automaton.finite_automaton import FiniteAutomaton

    fa = FiniteAutomaton()
    for _ in range(dfa.states):
        fa.add_state()
    fa.set_initial_state(dfa.start)
    fa.set_final(*sorted(dfa.accepting))
    for s, v, t in dfa.transitions:
        fa.add_transition(s, t, v)
    return fa
