"""The import paths of the modules that moved into grid/ and formats/ keep working, as
the same module objects, and cost nothing until used."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import cpsudoku

MOVED = {"check": "grid.check", "constraints": "grid.constraints", "geometry": "grid.geometry",
         "puzzle": "grid.puzzle", "symbols": "grid.symbols", "lzstring": "formats.lzstring",
         "notation": "formats.notation", "parse": "formats.read",
         "puzzlefile": "formats.puzzlefile", "render": "formats.write",
         "safeload": "formats.safeload", "sources": "formats.sources",
         "trace": "formats.trace"}


@pytest.mark.parametrize("old,new", MOVED.items())
def test_an_old_path_is_the_module_at_its_new_home(old, new):
    module = importlib.import_module(f"cpsudoku.{old}")
    assert module is importlib.import_module(f"cpsudoku.{new}")
    assert module.__spec__.name == f"cpsudoku.{new}"  # its own spec, not the old path's


def test_from_imports_and_attributes_work():
    from cpsudoku.constraints import AllDifferent
    from cpsudoku.render import line
    assert AllDifferent.__module__ == "cpsudoku.grid.constraints"
    assert line([1, 0, 2]) == "1.2"
    assert cpsudoku.puzzlefile is importlib.import_module("cpsudoku.formats.puzzlefile")


def test_parse_stays_the_function():
    import cpsudoku.parse  # noqa: F401
    assert callable(cpsudoku.parse) and cpsudoku.parse("." * 81)[0].size == 9


@pytest.mark.process
def test_importing_the_package_leaves_the_puzzle_file_reader_for_later():
    code = "import sys, cpsudoku; print('cpsudoku.formats.puzzlefile' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "False", done.stderr
