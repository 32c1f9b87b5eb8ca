"""The README's Python example runs as written, and the commands it shows for each
variant example succeed."""

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku.cli import app

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def test_python_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


VARIANT_COMMANDS = re.findall(r"`cpsudoku ((?:solve|count) examples/variants/[^`]*)`", README)


@pytest.mark.parametrize("command", VARIANT_COMMANDS)
def test_variant_example_command(command, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    result = CliRunner().invoke(app, shlex.split(command))
    assert result.exit_code == 0, result.output
