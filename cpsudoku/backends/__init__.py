"""The backend registry: every backend by name, imported only when used.

Importing a backend module must stay cheap; each imports its solver library
inside `search`, so `cpsudoku --help` and a native solve never load OR-Tools.
"""

from __future__ import annotations

from importlib import import_module

from ..errors import BackendError
from ..validate import did_you_mean
from .base import Backend, Request

# name -> "module:Class"
_REGISTRY: dict[str, str] = {
    "native": "cpsudoku.backends.native:NativeBackend",
    "naive": "cpsudoku.backends.naive:NaiveBackend",
    "python-constraint": "cpsudoku.backends.pyconstraint:PythonConstraintBackend",
    "cpsat": "cpsudoku.backends.cpsat:CpSatBackend",
    "sat": "cpsudoku.backends.sat:SatBackend",
    "mip": "cpsudoku.backends.mip:MipBackend",
    "choco": "cpsudoku.backends.choco:ChocoBackend",
    "dlx": "cpsudoku.backends.dlx:DlxBackend",
}
_INSTANCES: dict[str, Backend] = {}


def names() -> list[str]:
    return list(_REGISTRY)


def register(name: str, target: str | type) -> None:
    """Add a backend (a class, or "module:Class" to import lazily)."""
    _INSTANCES.pop(name, None)
    _REGISTRY[name] = target  # type: ignore[assignment]


def unregister(name: str) -> None:
    _REGISTRY.pop(name, None)
    _INSTANCES.pop(name, None)


def load(name: str) -> Backend:
    """The backend object called `name`, available or not."""
    inst = _INSTANCES.get(name)
    if inst is not None:
        return inst
    target = _REGISTRY[canonical(name)]
    if isinstance(target, str):
        module, cls = target.split(":")
        target = getattr(import_module(module), cls)
    return target()


def get(name: str) -> Backend:
    """The usable backend called `name`, or a BackendError saying why not."""
    inst = _INSTANCES.get(name)  # cached only once found available
    if inst is not None:
        return inst
    name = canonical(name)
    inst = load(name)
    if not inst.is_available():
        raise BackendError(f"backend {name!r} is not available: install "
                           f"{inst.distribution} ({inst.install_command()})")
    _INSTANCES[name] = inst
    return inst


def canonical(name: str) -> str:
    """A backend name as registered, matched in any letter case; an unknown one is
    refused naming the closest ("did you mean") and every choice."""
    if name in _REGISTRY:
        return name
    by_lower = {k.lower(): k for k in _REGISTRY}
    key = str(name).strip().lower()
    if key in by_lower:
        return by_lower[key]
    raise BackendError(f"unknown backend {name!r}{did_you_mean(key, list(_REGISTRY))} "
                       f"(choose one of: {', '.join(_REGISTRY)})")


def installed() -> list[str]:
    """The backends whose solver library is installed, in registry order."""
    return [name for name in _REGISTRY if load(name).is_available()]


def with_auxiliary() -> list[str]:
    """The backends that search auxiliary variables (a chaos construction's regions)."""
    return [name for name in _REGISTRY if load(name).auxiliary]


def parse_list(text: str) -> list[str]:
    """'native,cpsat' or 'all' -> backend names as registered (see `canonical`)."""
    if text.strip().lower() == "all":
        return names()
    chosen = [canonical(t.strip()) for t in text.split(",") if t.strip()]
    if not chosen:
        raise BackendError("no backend named; choose from: " + ", ".join(_REGISTRY))
    return chosen


__all__ = ["Backend", "Request", "canonical", "get", "installed", "load", "names", "parse_list",
           "register", "unregister", "with_auxiliary"]
