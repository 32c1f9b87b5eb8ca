"""Variant rules: each lowers to the constraint vocabulary and runs on every backend.

Two families:

- Global rules, chosen by name (`--rules diagonal,anti-knight`): the same on
  every puzzle of a size. Those that are patterns of existing constraints are
  data, one file each in the package's `models/` folder (see `patterns.py`),
  read at first use; `register()` adds rules written in Python.
- Per-puzzle elements, given in a puzzle file (see `cpsudoku.formats.puzzlefile`):
  killer cages, little killers, thermometers, arrows, odd/even cells, kropki
  dots, XV, greater-than signs, extra regions, and the line rules of
  `linerules` (whispers, renban, palindromes, between lines ...). Jigsaw regions are a geometry
  (`cpsudoku.grid.geometry.regions_from_labels`), not a rule.

    >>> from cpsudoku import rules
    >>> [r.name for r in rules.by_names("diagonal, anti-knight")]
    ['diagonal', 'anti-knight']
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from importlib import resources

from .. import validate
from ..errors import ArgumentError, ModelError
from .cellrules import CELL_RULES, CellRule, Group, Parts
from .chaos import CHAOS_RULES, Chaos
from .custom import CUSTOM_RULES
from .distinct import DISTINCT_RULES
from .doppelganger import Doppelganger
from .dots import XV, GreaterThan, Kropki, Mark
from .either import Either
from .full_rank import TIES, TIES_KEY, FullRanks
from .globalrules import GLOBAL_RULES
from .indexing import Indexing, Indexing159
from .killer import Cage, Clue, Killer, LittleKiller
from .linerules import LINE_RULES, Line, LineRule
from .lines import Arrow, Arrows, Thermometers
from .outside import OUTSIDE_RULES, OutsideClue, OutsideRule, ValueIndexing
from .parity import Parity
from .patterns import PatternRule
from .regions import ExtraRegions
from .same_values import SET_RULES

_RULES: dict[str, object] = {}  # canonical name -> rule
_ALIASES: dict[str, str] = {}  # any accepted spelling -> canonical name
_LOADED = False

# What a puzzle file may list besides `rules` (see cpsudoku.formats.puzzlefile).
ELEMENTS = [
    ("cages", "killer cages: digits sum to the total, no repeats (unless repeats = true)"),
    ("cages (no sum)", "killer cages without a total: only no repeated digit"),
    ("cages (repeats = true)", "sum cages: digits sum to the total and may repeat"),
    ("little_killers", "sums along diagonals from a clue outside the grid; repeats allowed"),
    ("thermometers", "digits strictly increase from the bulb (first cell)"),
    ("arrows", "digits on the arrow sum to the number in its circle (one cell or a pill)"),
    ("odd / even", "marked cells hold odd / even digits"),
    ("kropki", "white dot: consecutive digits; black dot: one digit double the other"),
    ("kropki (value)", "difference dot {cells, value}: digits differ by the value; ratio "
                       "dot: one is the value times the other"),
    ("kropki (all_given)", "negative kropki: no dot between neighbours means neither "
                           "consecutive nor ratio 2 (or negative = [\"white\"])"),
    ("xv", "X: the two digits sum to 10; V: they sum to 5"),
    ("xv (all_given)", "negative XV: no mark between neighbours means a sum of neither 10 "
                       "nor 5"),
    ("greater_than", "pairs [greater, smaller] of cells"),
    ("extra_regions", "further groups of cells with no repeated digit"),
    ("regions", "jigsaw: irregular regions replace the boxes"),
] + [(cls.key, cls.meaning) for cls in LINE_RULES]
ELEMENTS += [(cls.key, cls.meaning) for cls in OUTSIDE_RULES]
ELEMENTS += [(FullRanks.key, FullRanks.meaning),
             (TIES_KEY, f"which readings of full_ranks may tie: {', '.join(TIES)} (ISS's "
                        f"FullRankTies; the first is the default)")]
ELEMENTS += [(Indexing.key, Indexing.meaning), (ValueIndexing.key, ValueIndexing.meaning)]
ELEMENTS += [(cls.key, cls.meaning) for cls in CUSTOM_RULES]
ELEMENTS += [(cls.key, cls.meaning) for cls in CELL_RULES]
ELEMENTS += [(cls.key, cls.meaning) for cls in CHAOS_RULES]
ELEMENTS += [(Either.key, Either.meaning)]
ELEMENTS += [(cls.key, cls.meaning) for cls in SET_RULES]
ELEMENTS += [(cls.key, cls.meaning) for cls in DISTINCT_RULES]


def _model_files():
    """Every models/*.toml installed with the package, in name order."""
    folder = resources.files(f"{__name__}.models")
    return sorted((f for f in folder.iterdir() if f.name.endswith(".toml")),
                  key=lambda f: f.name)


def _load() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for rule in (*GLOBAL_RULES, Indexing159(), Chaos(), Doppelganger()):
        register(rule)
    for f in _model_files():
        try:
            spec = tomllib.loads(f.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ModelError(f"model file {f.name}: {exc}") from None
        register(PatternRule(spec, source=f"models/{f.name}"))


def register(rule, aliases: Iterable[str] = ()) -> None:
    """Make a global rule available by name (and its `aliases` attribute, if any)."""
    if isinstance(rule, str):
        raise ArgumentError(f"rule must be a rule object, not the name {rule!r}")
    rule = validate.rule(rule)
    spellings = [rule.name, *getattr(rule, "aliases", ()), *validate.text_list(aliases, "aliases")]
    if not all(isinstance(s, str) and s.strip() for s in spellings):
        raise ArgumentError(f"rule {rule.name!r}: aliases must be non-empty strings")
    _RULES[rule.name] = rule
    for spelling in spellings:
        _ALIASES[spelling.lower()] = rule.name


def names() -> list[str]:
    """The global rules' names, as accepted by `by_names`."""
    _load()
    return sorted(_RULES)


def get(name: str):
    _load()
    canonical = _ALIASES.get(name.strip().lower())
    if canonical is None:
        hint = validate.did_you_mean(name, list(_ALIASES))
        raise ModelError(f"unknown rule {name.strip()!r}{hint} (choose from: "
                         f"{', '.join(names())})")
    return _RULES[canonical]


def by_names(spec: str | Iterable[str]) -> list:
    """Rules from "diagonal,anti-knight" (or a list of names); duplicates once."""
    parts = spec.split(",") if isinstance(spec, str) else list(spec)
    chosen = []
    for part in parts:
        if part.strip():
            rule = get(part)
            if rule not in chosen:
                chosen.append(rule)
    return chosen


def describe(rule) -> str:
    describe_ = getattr(rule, "describe", None)
    return describe_() if callable(describe_) else rule.name


def describe_all() -> list[tuple[str, str]]:
    """(name, one-line description) of every global rule, for listings."""
    return [(n, describe(_RULES[n])) for n in names()]


def describe_elements() -> list[tuple[str, str]]:
    """(puzzle-file key, one-line description) of every per-puzzle element."""
    return list(ELEMENTS)


__all__ = [
    "LINE_RULES", "Arrow", "Arrows", "Cage", "Clue", "ExtraRegions", "GreaterThan", "Killer",
    "Kropki", "Line", "LineRule", "LittleKiller", "Mark", "Parity", "PatternRule",
    "Thermometers", "XV", "by_names",
    "describe", "describe_all", "describe_elements", "get", "names", "register",
    "CELL_RULES", "GLOBAL_RULES", "CellRule", "Group", "Parts",
    "OUTSIDE_RULES", "Indexing", "OutsideClue", "OutsideRule", "ValueIndexing",
]
