"""Rule contradiction (9.0 and up, variant puzzles): "if r3c5 were 4, then ... and the
arrow at r6c2 could not add up, so r3c5 is not 4".

A candidate is assumed and everything that follows is worked out: each rule
narrows its cells as its own technique would (a cage or arrow to the fillings
left, a thermometer to its order, a line to its pairs, an automaton to the words
that fit), the houses give their singles and locked candidates, and so on until
nothing more follows or something breaks: a cell with no candidate, a house with
no place for a digit, a rule with no way left to hold. When it breaks, the
candidate goes. This is SE's dynamic forcing chain (+), whose inner steps are the
rules' own deductions beside the houses', hence its base rating, 9.0, plus SE's
length term on the number of candidates struck out on the way (the chain's
size); of the contradictions, the shortest is the step.

The consequences are worked out by the native engine's own propagation
(`logic.probing`), so a step says what the rules imply and nothing the search
would not conclude; the step lists the values the assumption forces, each with
the rule or house that forced it, and the rule or house that breaks.
"""

from __future__ import annotations

import time

from ..chain import Branch
from ..probing import (
    LOCKED,
    PEERS,
    RULE,
    START,
    UNIT,
    Event,
    Failure,
    Nested,
    Prober,
    nested,
    prober,
)
from ..state import State, bit_values, popcount
from ..step import cell_name, make_step
from ..technique import technique
from .chains import length_term
from .rules import BY_RULE, removals_text, rule_step

NAME = "Rule Contradiction"
RATING = 9.0
POINTING = "Rule Pointing"
POINTING_RATING = 2.8  # after Cage Pointing (2.7), which says the same of a cage with its sums
NESTED = "Nested Rule Contradiction"
NESTED_RATING = 9.5  # as SE's nested forcing chains: contradictions inside the assumption
SHOWN = 8  # forced values the reason names before "and more"


@technique("By Rule", BY_RULE, order=BY_RULE + 0.01, variant_only=True, any_grid=True)
def by_rule_pass(state: State):
    """A rule too wide for the by-rule step to enumerate (a long line's automaton, a
    big cage beside its houses) read by its pass in the engine: what it removes
    from the grid as it stands, with no assumption."""
    p = prober(state.layout)
    if p is None:
        return
    events, failure = p.trace(state, None, 0)
    if failure is not None:
        return
    n = state.size
    # the first pass's removals only: what follows them reads a grid they changed
    run: list[Event] = []
    for e in events:
        if e.kind != RULE or (run and e.index != run[0].index):
            break
        run.append(e)
    elims = sorted((e.cell, v) for e in run if e.cell < len(p.cells)
                   for v in bit_values(e.values))
    if not elims:
        return
    label = p.source_text(RULE, run[0].index)
    cells = sorted({c for c, _ in elims})
    yield rule_step("By Rule", BY_RULE, state, label, elims, cells,
                    f"{label}: with the candidates left in its cells and no repeat in a "
                    f"house, no way of keeping the rule allows "
                    f"{removals_text(elims, n)}")


@technique(POINTING, POINTING_RATING, variant_only=True, any_grid=True)
def rule_pointing(state: State):
    """A candidate whose placement alone, by the value it takes from its peers, leaves a
    rule no way to hold: every way the rule has left needs that value in a cell the
    candidate sees (a cage's required digit, an arrow's only small digits, a line's
    only fitting values). Nothing else follows first: a contradiction of size 0."""
    found = _probe_all(state)
    if not found:
        return
    p, contradictions = found
    n = state.size
    # (rule, value, the cells it needs the value in) -> the candidates that see them all
    groups: dict[tuple[int, int, tuple[int, ...]], list[int]] = {}
    for cost, cell, value in contradictions:
        if cost:
            break  # sorted by size: the rest need values forced on the way
        events, failure = p.trace(state, cell, value)
        if failure is None or failure.kind != RULE:
            continue
        mine = set(p.rule_cells(failure.index))
        taken = tuple(sorted(e.cell for e in events
                             if e.kind == PEERS and e.index == cell and e.cell in mine))
        if cell not in mine and taken:  # the rule's own cell: its by-rule step says it
            groups.setdefault((failure.index, value, taken), []).append(cell)
    if not groups:
        return
    (index, value, taken), cells = next(iter(groups.items()))
    rule = p.source_text(RULE, index)
    seers = ", ".join(cell_name(c, n) for c in cells)
    reason = (f"{rule} needs {value} in one of {', '.join(cell_name(c, n) for c in taken)}, "
              f"every way it can still hold; {seers} "
              f"{'sees' if len(cells) == 1 else 'see'} them all, so "
              f"{'it is' if len(cells) == 1 else 'none of them is'} {value}.")
    yield rule_step(POINTING, POINTING_RATING, state, rule, [(c, value) for c in cells],
                    sorted(set(p.rule_cells(index)) | set(cells)), reason)


@technique(NAME, RATING, variant_only=True, any_grid=True, batch=True)
def rule_contradiction(state: State):
    """Every contradiction of the grid, shortest first."""
    found = _probe_all(state)
    if not found:
        return
    p, contradictions = found
    for cost, cell, value in contradictions:
        events, failure = p.trace(state, cell, value)
        if failure is not None:  # the probe and its replay disagree: no step, not a wrong one
            yield _step(state, p, cell, value, cost, events, failure)


def _probe_all(state: State) -> tuple[Prober, list[tuple[int, int, int]]] | None:
    """The layout's prober and the grid's contradictions, smallest first."""
    p = prober(state.layout)
    if p is None:
        return None
    left = None if state.deadline is None else max(0.0, state.deadline - time.monotonic())
    found = p.contradictions(state, time_limit=left)
    return (p, found) if found else None


def _forced(p: Prober, doms: list[int], events: list[Event],
            n: int) -> list[tuple[int, int, str]]:
    """The values a propagation forces (cell, value, the rule or house that forced
    it), in order; `doms` follows the removals."""
    forced = []
    for e in events:
        if e.cell >= len(p.cells):
            continue
        before = doms[e.cell]
        doms[e.cell] &= ~e.values
        after = doms[e.cell]
        if after and not after & (after - 1) and before & (before - 1):
            forced.append((e.cell, after.bit_length(), p.source_text(e.kind, e.index)))
    return forced


def _listed(items: list[str]) -> str:
    shown = items[:SHOWN] + ([f"{len(items) - SHOWN} more"] if len(items) > SHOWN else [])
    return f"then {', '.join(shown)}, and " if shown else "then "


def _step(state: State, p: Prober, cell: int, value: int, cost: int,
          events: list[Event], failure: Failure):
    n = state.size
    name = lambda c: cell_name(c, n)  # noqa: E731
    doms = p.domains(state)
    doms[cell] = 1 << (value - 1)
    forced = _forced(p, doms, events, n)
    breaks = _failure_text(p, failure, doms, n)
    assumed = f"{name(cell)}={value}"
    literals = [assumed] + [f"{name(c)}={v}" for c, v, _ in forced]
    follows = _listed([f"{name(c)}={v} ({why})" for c, v, why in forced])
    reason = f"If {name(cell)} were {value}: {follows}{breaks}. So {name(cell)} is not {value}."
    branch = Branch(" -> ".join(literals + [breaks]), list(zip(literals, literals[1:])))
    cells = sorted({cell} | {c for c, _, _ in forced})
    return make_step(NAME, RATING + length_term(cost), n,
                     what=f"{assumed} leads to a contradiction",
                     eliminations=[(cell, value)], cells=cells, groups=_groups(p, failure),
                     chain=[branch], reason=reason)


def _groups(p: Prober, failure: Failure) -> list[str]:
    return [p.source_text(failure.kind, failure.index)] if failure.kind in (RULE, UNIT) else []


@technique(NESTED, NESTED_RATING, variant_only=True, any_grid=True)
def nested_rule_contradiction(state: State):
    """A candidate whose grid, once its own rule contradictions are struck out (again
    and again), fails: the contradictions nest one level. Bivalue cells first, whose
    assumptions reach furthest soonest; the first one found is the step."""
    p = prober(state.layout)
    if p is None:
        return
    open_cells = sorted((popcount(state.cand[c]), c) for c in p.cells if state.cand[c])
    for _, cell in open_cells:
        for value in bit_values(state.cand[cell]):
            found = nested(p, state, cell, value, state.deadline)
            if found is not None:
                step = _nested_step(state, p, cell, value, found)
                if step is not None:
                    yield step
                    return


def _nested_step(state: State, p: Prober, cell: int, value: int, found: Nested):
    n = state.size
    name = lambda c: cell_name(c, n)  # noqa: E731
    events, failure = p.trace_domains(found.domains)
    if failure is None:
        return None
    doms = list(found.domains)
    forced = _forced(p, doms, events, n)
    breaks = _failure_text(p, failure, doms, n)
    # each inner contradiction as a chain of its own, on the grid it was found in
    inner_branches = []
    grid = p.domains(state)
    grid[cell] = 1 << (value - 1)
    for c, v, _ in found.inner:
        trial = list(grid)
        trial[c] = 1 << (v - 1)
        inner_events, inner_failure = p.trace_domains(trial)
        if inner_failure is None:
            return None  # the replay disagrees with the probe: no step rather than a wrong one
        inner_doms = list(trial)
        steps = _forced(p, inner_doms, inner_events, n)
        literals = [f"{name(c)}={v}"] + [f"{name(x)}={y}" for x, y, _ in steps]
        inner_branches.append(Branch(
            " -> ".join(literals + [_failure_text(p, inner_failure, inner_doms, n)]),
            list(zip(literals, literals[1:]))))
        grid[c] &= ~(1 << (v - 1))
    assumed = f"{name(cell)}={value}"
    struck = [f"{name(c)}<>{v}" for c, v, _ in found.inner]
    literals = [assumed] + [f"{name(c)}={v}" for c, v, _ in forced]
    shown = ", ".join(struck[:SHOWN]) + (f" and {len(struck) - SHOWN} more"
                                          if len(struck) > SHOWN else "")
    follows = _listed([f"{name(c)}={v} ({why})" for c, v, why in forced])
    reason = (f"If {name(cell)} were {value}: the grid it leaves has contradictions of its "
              f"own, which strike out {shown}; {follows}{breaks}. "
              f"So {name(cell)} is not {value}.")
    branch = Branch(" -> ".join([assumed, *struck, *literals[1:], breaks]),
                    list(zip(literals, literals[1:])), inner_branches)
    size = sum(s for _, _, s in found.inner) + len(found.inner) + len(forced) + 2
    cells = sorted({cell} | {c for c, _, _ in found.inner} | {c for c, _, _ in forced})
    return make_step(NESTED, NESTED_RATING + length_term(size), n,
                     what=f"{assumed} leads to a contradiction",
                     eliminations=[(cell, value)], cells=cells, groups=_groups(p, failure),
                     chain=[branch], reason=reason)


def _failure_text(p: Prober, failure: Failure, doms: list[int], n: int) -> str:
    where = p.source_text(failure.kind, failure.index)
    at = cell_name(failure.cell, n) if 0 <= failure.cell < len(p.cells) else None
    if failure.kind == RULE:
        return f"{where} would leave {at} no candidate" if at else \
            f"{where} would have no way left to hold"
    if failure.kind == UNIT:
        return f"{at} would be the only place in {where} for two digits" if at else \
            f"{where} would have no place left for one of its digits"
    if failure.kind == PEERS and at:
        placed = cell_name(failure.index, n)
        values = bit_values(doms[failure.cell])
        if len(values) == 1 and doms[failure.index] == doms[failure.cell]:
            return f"{placed} and {at} would both be {values[0]}"
        return f"{at} would have no candidate left"
    if failure.kind == LOCKED:
        return f"locked candidates would leave {at} no candidate" if at else \
            "locked candidates would empty a cell"
    if failure.kind == START and at:
        return f"{at} would have no candidate"
    return "the grid would have no solution"
