"""The native backend: the hand-written engine (see `cpsudoku.engine`).

Models made only of all-different groups, searched without a trace, take the
fast path: the compiled kernel (`engine.kernel`) when it is built, else
`engine.fast`; models with other constraints (sum, less, table, regular) take
the compiled variant kernel (`engine.vkernel`) when it is built, else the
general path (`engine.general`), as does a trace. `kernel=python` forces the
Python engine, `kernel=c` insists on a compiled one.
"""

from __future__ import annotations

import sys
import time
from typing import ClassVar

from ..engine import fast, general, kernel, vkernel
from ..engine.clock import OutOfTime
from ..engine.plan import compile_model
from ..errors import BackendError, CpsudokuError
from ..grid.constraints import KINDS, OwnPass, Regions, Regular
from ..model import Model, kinds_of, lower_for
from ..result import Outcome
from .base import Backend, Request

# Locked candidates pay on larger grids and on killer-style sums everywhere in
# the tree; on classic 9x9 grids only near the root, where a pruned branch is
# big (measured: top95 and magictour twice as fast, forum_hardest unchanged).
LOCKED_FROM_SIZE = 16
LOCKED_DEPTH_SMALL = 3
# Naked/hidden pairs with dual branching (`engine.subsets`) cut the 25x25
# search trees many fold but double the cost of a node.
PAIRS_FROM_SIZE = 16
# Failed-literal probing of two-candidate cells at every node (`engine.subsets`).
PROBING_FROM_SIZE = 25

_TRUE = ("1", "true", "yes", "on", "always")
_FALSE = ("0", "false", "no", "off", "never")


def _locked_option(request: Request, size: int, has_others: bool) -> bool | int:
    """True (everywhere), False (never) or the number of search levels to use them at."""
    value = request.options.get("locked_candidates", "auto")
    if value in ("auto", None):
        return True if size >= LOCKED_FROM_SIZE or has_others else LOCKED_DEPTH_SMALL
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value >= 0:
        return value
    if isinstance(value, str):
        low = value.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        if low.isdigit():
            return int(low)
    raise BackendError(f"native option locked_candidates must be auto, true, false or a "
                       f"search depth, not {value!r}")


def _kernel_option(request: Request) -> str:
    value = request.options.get("kernel", "auto")
    if value is None:
        return "auto"
    if isinstance(value, str) and value.lower() in ("auto", "c", "python"):
        return value.lower()
    raise BackendError(f"native option kernel must be auto, c or python, not {value!r}")


def _switch(request: Request, name: str, auto: bool) -> bool:
    """An on/off option; `auto` is its value when not given (or given as auto)."""
    value = request.options.get(name, "auto")
    if value in ("auto", None):
        return auto
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in _TRUE + _FALSE:
        return value.lower() in _TRUE
    raise BackendError(f"native option {name} must be auto, true or false, not {value!r}")


class NativeBackend(Backend):
    name: ClassVar[str] = "native"
    description: ClassVar[str] = ("hand-written engine: bitmask candidates, naked/hidden singles, "
                                  "locked candidates; on big grids pairs, dual branching "
                                  "and probing")
    native_kinds: ClassVar[frozenset[str]] = frozenset(KINDS) | {"regions", "ranks", "anyof"}
    # either/or: a table in the C kernel while one can be listed, else the Python
    # engine's constructive disjunction
    whole_when_too_big: ClassVar[frozenset[str]] = frozenset({"anyof"})
    supports_trace: ClassVar[bool] = True
    auxiliary: ClassVar[bool] = True  # a chaos construction's region labels
    finds_conflicts_fast: ClassVar[bool] = True  # its first propagation fails on them
    option_names: ClassVar[frozenset[str]] = frozenset({"locked_candidates", "pairs", "probing",
                                                           "kernel"})

    def version(self) -> str:
        """The package version, and whether the C kernel is built (`cpsudoku backends`)."""
        built = "C kernel" if kernel.available() else "Python only: C kernel not built"
        return f"{super().version()} ({built})"

    def check_request(self, request: Request) -> None:
        super().check_request(request)
        if request.options:
            _settings(request, 9, False)  # every value read once, before any puzzle
        if request.options and _kernel_option(request) == "c":
            if not kernel.available():
                raise BackendError("native option kernel=c cannot be honoured: "
                                   "the C kernel is not built")

    def search(self, model: Model, request: Request) -> Outcome:
        setup_started = time.monotonic()
        # Each search level is one Python frame; 25x25 grids can nest ~600 deep.
        if sys.getrecursionlimit() < 5000:
            sys.setrecursionlimit(5000)
        plan = compile_model(model)
        locked, pairs, probing, which = _settings(request, model.size,
                                                  bool(plan.structure.others))
        for con in plan.structure.others:  # beyond the kernel and the Python engine alike
            if (isinstance(con, Regular) and not isinstance(con, OwnPass)  # its own pass
                    and con.automaton.states > vkernel.MAX_STATES):
                raise BackendError(f"backend 'native' cannot search {vkernel.too_large(con)}")
            if isinstance(con, Regions) and model.values != model.size:
                # its passes count on each region holding every digit
                raise BackendError(f"backend 'native' searches chaos regions only with "
                                   f"{model.size} digits, not {model.values} (cpsat takes them)")
        compiled = None if request.trace else _compiled(plan)
        if (compiled is not vkernel or which == "python") and "ranks" in kinds_of(
                model.constraints):
            # only the C kernel reasons on full rank whole: the Python engine reads
            # the automata that restate it
            model = lower_for(model, self.native_kinds - {"ranks"}, f"backend {self.name!r}")
            plan = compile_model(model)
            compiled = None if request.trace else _compiled(plan)
        if which == "c" and compiled is None:
            why = ("a trace is recorded by the Python engine only" if request.trace
                   else vkernel.applicable(plan) if plan.structure.others
                   else kernel.applicable(plan))
            raise BackendError(f"native option kernel=c cannot be honoured: {why}")
        use_c = which != "python" and compiled is kernel
        use_vc = which != "python" and compiled is vkernel
        general_path = bool(plan.structure.others or request.trace)
        # built once per geometry: set-up, not search
        if use_c:
            kernel.kernel_of(plan)
        elif use_vc:
            vkernel.vkernel_of(plan, model.constraints)
        elif not general_path:
            try:
                fast.make_propagate(plan, bool(locked), request.deadline)
                fast.make_propagate(plan, False, request.deadline)
            except OutOfTime:
                pass  # the search says so at once
        setup_s = time.monotonic() - setup_started
        if use_c:
            solutions, exhausted, timed_out, stats = kernel.solve(
                plan, request.max_solutions, request.deadline, locked, pairs, probing)
            trace = None
        elif use_vc:
            solutions, exhausted, timed_out, stats = vkernel.solve(
                plan, request.max_solutions, request.deadline, locked,
                constraints=model.constraints)
            trace = None
        elif general_path:
            engine = general.GeneralSearch(plan, model.puzzle.givens,
                                           max_solutions=request.max_solutions,
                                           deadline=request.deadline, trace=request.trace,
                                           locked=bool(locked))
            solutions, exhausted, timed_out, stats = engine.run()
            trace = engine.trace
        else:
            solutions, exhausted, timed_out, stats = fast.solve(
                plan, request.max_solutions, request.deadline, locked, pairs, probing)
            trace = None
        stats["kernel"] = "c" if use_c or use_vc else "python"
        return Outcome(solutions, exhausted, timed_out, stats, trace, setup_s)


def _compiled(plan):
    """The compiled kernel module that can search the plan, or None."""
    if not plan.structure.others:
        if kernel.applicable(plan) is None:
            return kernel
        if not kernel.available():
            return None  # a build without the classic kernel: the Python engine
    # the variant kernel also takes what the classic one cannot read (grids that are
    # not square, more digits than a row has cells)
    return vkernel if vkernel.applicable(plan) is None else None


_AUTOMATIC: dict[tuple[int, bool], tuple] = {}  # (size, other constraints) -> settings


def _settings(request: Request, size: int, has_others: bool) -> tuple:
    """(locked, pairs, probing, kernel) as the request's options ask; the automatic
    ones are worked out once per kind of model, not on every solve."""
    if not request.options:
        hit = _AUTOMATIC.get((size, has_others))
        if hit is not None:
            return hit
    settings = (_locked_option(request, size, has_others),
                _switch(request, "pairs", size >= PAIRS_FROM_SIZE),
                _switch(request, "probing", size >= PROBING_FROM_SIZE),
                _kernel_option(request))
    if not request.options:
        _AUTOMATIC[size, has_others] = settings
    return settings


def reduce_domains(model: Model) -> tuple[frozenset[int], ...] | None:
    """Propagation only, no search: the reduced domains, or None on contradiction."""
    from ..engine.general import reduced_domains
    from ..engine.plan import values_of

    masks = reduced_domains(compile_model(model))
    if masks is None:
        return None
    return tuple(frozenset(values_of(m)) for m in masks)


def propagation_kernel(model: Model):
    """(plan, kernel, sources): the compiled variant kernel native's search would run
    on `model`, for its propagation on its own (the logical solver's contradictions,
    `logic.probing`), with the model constraints behind each of the kernel's (see
    `vkernel.kernel_and_sources`); None when the kernel is not built or cannot
    take the model."""
    if not vkernel.available():
        return None
    try:
        model = lower_for(model, NativeBackend.native_kinds, "backend 'native'")
    except CpsudokuError:
        return None
    plan = compile_model(model)
    if vkernel.applicable(plan) is not None or any(
            isinstance(con, Regions) for con in plan.structure.others):
        return None  # region labels have no pencil marks to propagate over
    built, sources = vkernel.kernel_and_sources(plan, model.constraints)
    return plan, built, sources
