"""The code passes its own linters: ruff and mypy with the settings in pyproject.toml
(skipped, saying why, where a tool is not installed: `pip install -e '.[test]'`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.process  # each linter runs as a process


def _tool(name: str) -> list[str]:
    """The tool from this interpreter's environment (or PATH), or skip."""
    local = Path(sys.executable).with_name(name)
    if local.exists():
        return [str(local)]
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]' installs it)")
    return [found]


def test_ruff_is_clean():
    done = subprocess.run(_tool("ruff") + ["check", "cpsudoku", "tests", "examples"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_is_clean():
    done = subprocess.run(_tool("mypy"), cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
