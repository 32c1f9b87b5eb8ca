"""Shell completion, through the real protocol bash uses, for every option naming a choice."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cpsudoku.bench.datasets import DataError, find_data_dir
from cpsudoku.cli import app


def complete(words: str) -> list[str]:
    args = words.split()
    env = {"_CPSUDOKU_COMPLETE": "complete_bash", "COMP_WORDS": "cpsudoku " + words,
           "COMP_CWORD": str(len(args))}
    result = CliRunner().invoke(app, [], env=env, prog_name="cpsudoku")
    assert result.exit_code == 0, result.output
    return result.output.split()


@pytest.mark.parametrize(("words", "expected"), [
    ("solve x -b cp", ["cpsat"]),
    ("compare x --backends native,cp", ["native,cpsat"]),
    ("solve x --rules diagonal,anti-k", ["diagonal,anti-king", "diagonal,anti-knight"]),
    ("rate x --rules wind", ["windoku"]),
    ("generate --symmetry ro", ["rot180", "rot90"]),
    ("generate -d fi", ["fiendish"]),
    ("generate --difficulty d", ["diabolical"]),
])
def test_choices_complete(words, expected):
    assert complete(words) == expected


def test_all_stands_alone_in_a_backend_list():
    assert "all" in complete("compare x --backends a")
    assert not any(c.endswith(",all") for c in complete("compare x --backends native,"))


def test_data_sets_complete_from_the_data_folder():
    try:
        find_data_dir()
    except DataError:
        pytest.skip("no ../shared/data beside the repository: no set names to offer")
    assert "norvig_top95" in complete("bench --sets norvig")
    listed = complete("bench --sets royle_17clue,norvig")
    assert listed and all(c.startswith("royle_17clue,norvig") for c in listed)
