"""The documentation's examples run as written: every Python block of README.md and of
the pages in docs/, every `cpsudoku solve|count examples/variants/...` command they
show, and the sessions they show (`$ cpsudoku ...`: the commands succeed, and the
output shown for the deterministic ones is what they print)."""

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku.cli import app

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
TEXT = {page.relative_to(ROOT).as_posix(): page.read_text(encoding="utf-8") for page in PAGES}

FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```", re.S | re.M)
PYTHON_BLOCKS = [(name, i, body) for name, text in TEXT.items()
                 for i, (info, body) in enumerate(FENCE.findall(text)) if info == "python"]
VARIANT_COMMANDS = sorted({command for text in TEXT.values() for command in
                           re.findall(r"`cpsudoku ((?:solve|count) examples/variants/[^`]*)`",
                                      text)})


def test_every_page_is_found():
    assert "README.md" in TEXT and "docs/index.md" in TEXT and len(TEXT) > 10


def test_no_python_block_is_left_out():
    """Every Python block is run: a block fenced as anything else that looks like
    Python (```py, ```pycon, ```python title=...) would be skipped silently."""
    for name, text in TEXT.items():
        for info, _ in FENCE.findall(text):
            assert info == "python" or not info.startswith("py"), (name, info)


@pytest.mark.parametrize("name, index, body", PYTHON_BLOCKS,
                         ids=[f"{name}:{i}" for name, i, _ in PYTHON_BLOCKS])
def test_python_block_runs(name, index, body, monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples name files under examples/
    exec(compile(body, f"{name} (Python block {index})", "exec"), {"__name__": "__main__"})


def test_python_blocks_found():
    assert {name for name, _, _ in PYTHON_BLOCKS} >= {"README.md", "docs/api/index.md"}


@pytest.mark.parametrize("command", VARIANT_COMMANDS)
def test_variant_example_command(command, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(app, shlex.split(command))
    assert result.exit_code == 0, result.output


def test_variant_commands_found():
    assert len(VARIANT_COMMANDS) >= 15


def test_named_example_files_exist():
    """Every `examples/...` file the pages name is in the repository."""
    named = {m for text in TEXT.values()
             for m in re.findall(r"\bexamples/[\w./-]*\w", text)}
    assert named
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing


def test_readme_links_to_docs_exist():
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", TEXT["README.md"])
    assert any(link.startswith("docs/") for link in links)
    missing = [link for link in links if "://" not in link and not (ROOT / link).exists()]
    assert not missing


# Shown sessions: `$ cpsudoku ...` lines in the pages' text blocks, with the output shown
# under each. Times and node counts vary between runs, so only the commands whose
# output is deterministic are compared line by line (a line `...` elides some); `play`
# serves until stopped and is not run.
SHOWN = [(name, m.group(1), m.group(2)) for name, text in TEXT.items()
         for block in re.findall(r"^```text\n(.*?)^```", text, re.S | re.M)
         for m in re.finditer(r"^\$ cpsudoku (.*)\n((?:(?!\$ ).*\n)*)", block, re.M)]
RUN = [(name, command, shown) for name, command, shown in SHOWN
       if not command.startswith("play")]
DETERMINISTIC = ("explain", "hint", "rate", "generate")


def test_readme_tour_found():
    tour = {command.split()[0] for name, command, _ in SHOWN if name == "README.md"}
    assert tour >= {"solve", "compare", "explain", "generate", "play"}


@pytest.mark.parametrize("name, command, shown", RUN,
                         ids=[f"{name}: {command}"[:90] for name, command, _ in RUN])
def test_shown_command(name, command, shown, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(app, shlex.split(command))
    expected = 1 if shown.startswith("wrong:") else 0  # hint found wrong entries: exit 1
    assert result.exit_code == expected, result.output
    if command.split()[0] in DETERMINISTIC:
        printed = result.output.splitlines()
        for line in shown.splitlines():
            if line.strip() != "...":
                assert line in printed, line
