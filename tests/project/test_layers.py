"""The package's shape: no import circles (imports inside functions count), the layer
contract in pyproject.toml kept, and few modules flat at the package top."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MOST_FLAT = 6  # _version, errors, validate, model, result, api


def _graph():
    grimp = pytest.importorskip("grimp", reason="import-linter is not installed "
                                                "(pip install -e '.[test]')")
    return grimp.build_graph("cpsudoku", include_external_packages=False)


def _circles(graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph.find_modules_directly_imported_by(module):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            part = []
            while True:
                other = stack.pop()
                part.append(other)
                if other == module:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_circles():
    assert _circles(_graph()) == []


def test_a_circle_would_be_found():
    graph = _graph()
    graph.add_import(importer="cpsudoku.grid.symbols", imported="cpsudoku.api")
    assert any("cpsudoku.api" in part and "cpsudoku.grid.symbols" in part
               for part in _circles(graph))


@pytest.mark.process
def test_the_layer_contract_holds():
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    done = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_few_modules_flat_at_the_top():
    flat = sorted(p.stem for p in (ROOT / "cpsudoku").glob("*.py")
                  if p.stem not in ("__init__", "__main__"))
    assert len(flat) <= MOST_FLAT, flat
