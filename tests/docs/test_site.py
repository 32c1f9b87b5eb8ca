"""The documentation site builds without a warning (`mkdocs build --strict`), and the
README stays a front page: short, and starting with the two commands a newcomer runs."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FIRST_COMMANDS = [
    "python3 -m venv .venv && .venv/bin/pip install . && "
    ".venv/bin/cpsudoku solve examples/inkala.txt --stats",
    "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && "
    ".venv/bin/python -m pytest -q",
]
SITE_TOOLS = ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python")


def _missing_tools() -> list[str]:
    missing = []
    for name in SITE_TOOLS:
        try:
            if importlib.util.find_spec(name) is None:
                missing.append(name)
        except ImportError:
            missing.append(name)
    return missing


def test_readme_is_at_most_200_lines():
    assert len(README.splitlines()) <= 200


def test_readme_begins_with_the_two_commands():
    lines = README.splitlines()
    assert lines[0] == "# cpsudoku"
    start = lines.index("```sh")
    assert all(not line.strip() for line in lines[1:start])
    end = lines.index("```", start + 1)
    assert lines[start + 1:end] == FIRST_COMMANDS


@pytest.mark.skipif(bool(_missing_tools()),
                    reason=f"the site's tools are not installed ({', '.join(_missing_tools())}; "
                           f"pip install -e '.[docs]')")
def test_site_builds_strictly(tmp_path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "--config-file", str(ROOT / "mkdocs.yml"),
                           "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    assert (tmp_path / "site" / "index.html").exists()
    assert (tmp_path / "site" / "api" / "solving" / "index.html").exists()
