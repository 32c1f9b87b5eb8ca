"""Links urllib refuses outright (a host with an unmatched `[`, a bracketed host that is
no IPv6 address) are bad input: a ParseError naming the link, exit 5, in every way a
link reaches the parser."""

from __future__ import annotations

import pytest
from conftest import cli, one_error_line, solve_given

from cpsudoku import parse
from cpsudoku.errors import ExitCode, ParseError
from cpsudoku.formats import iss

pytestmark = pytest.mark.unit

BAD_LINKS = ["https://[invalid/?q=.Shape~9x9", "https://[abc]/?q=.Shape~4x4",
             "http://example.org]/?q=.Shape~4x4"]


@pytest.mark.parametrize("link", BAD_LINKS)
def test_split_link_names_the_link(link):
    with pytest.raises(ParseError) as info:
        iss.split_link(link, "puzzles.txt", 3)
    assert info.value.source == "puzzles.txt" and info.value.line == 3
    assert link in str(info.value) and "not a valid link" in str(info.value)


@pytest.mark.parametrize("link", BAD_LINKS)
def test_the_parser_refuses_a_bad_link(link):
    with pytest.raises(ParseError, match="not a valid link"):
        parse(link)


@pytest.mark.parametrize("link", BAD_LINKS)
@pytest.mark.parametrize("how", ["argument", "stdin", "file"])
def test_solve_refuses_a_bad_link_by_name(link, how, tmp_path):
    result = solve_given(how, link, tmp_path)
    assert result.exit_code == ExitCode.BAD_INPUT, result.output
    line = one_error_line(result)
    assert "internal error" not in result.output
    assert "not a valid link" in line and link in line


def test_a_good_iss_link_is_read_inline():
    result = cli("solve", "https://sigh.github.io/Interactive-Sudoku-Solver/?q=.Shape~4x4",
                 "-f", "line")
    assert result.exit_code == ExitCode.OK, result.output
    assert len(result.stdout.split()[-1]) == 16


SUDOKU_X = (".Diagonal~1.Diagonal~-1.~R1C3_1~R1C7_2~R2C3_2~R2C4_3~R2C9_4~R3C1_4~R4C1_5~R4C3_3"
            "~R4C8_6~R5C2_1~R5C9_5~R6C3_6~R7C5_7~R7C6_8~R8C5_9~R9C2_7~R9C6_1~R9C8_9")


def test_an_iss_string_is_read_inline():
    done = cli("count", SUDOKU_X)
    assert done.exit_code == 0, done.output
    assert "unique" in done.stdout


@pytest.mark.parametrize("name", [".hidden", "./no-such-file.txt"])
def test_a_dotted_file_name_stays_a_missing_file(name):
    done = cli("solve", name)
    assert done.exit_code == ExitCode.BAD_INPUT and "no such file" in done.stderr
