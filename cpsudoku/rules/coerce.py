"""Rules as the API takes them: rule objects, or the names of registered rules."""

from __future__ import annotations

from typing import Any

from .. import validate
from ..errors import ArgumentError
from . import by_names, get


def rule(value: Any, name: str = "rule"):
    """A rule object, or the registered rule of that name."""
    return get(value) if isinstance(value, str) else validate.rule(value, name)


def rules(values: Any, name: str = "rules") -> tuple:
    """Rules from an iterable of rule objects or names, or from "name,name"."""
    if isinstance(values, str):
        return tuple(by_names(values))
    if not isinstance(values, (list, tuple, set, frozenset)):
        raise ArgumentError(f"{name} must be a list of rules, not {type(values).__name__}")
    return tuple(rule(v, f"{name}[{i}]") for i, v in enumerate(values))
