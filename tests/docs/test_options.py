"""Every option the documentation gives a command exists: each `cpsudoku COMMAND ...`
command line in README.md and the pages in docs/ (in code blocks, and in inline code)
is split into words, and every `-X` or `--long` among them must be one of that
command's options, as its --help lists them; so must every option named in inline code
(`-c`, `--jobs/-j N`) in a section whose heading is one command (`## generate`,
``## `cpsudoku bench` ``). A renamed or misremembered option (the count of `generate`
written `-n`) then fails here rather than in a reader's shell."""

import re
import shlex
from pathlib import Path

import pytest
import typer

from cpsudoku.cli import app

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
TEXT = {page.relative_to(ROOT).as_posix(): page.read_text(encoding="utf-8") for page in PAGES}

FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```", re.S | re.M)
INLINE = re.compile(r"`((?:[\w./-]*/)?cpsudoku [^`\n]+)`")
# Words that end one command on a shell line: whatever follows is another program's.
SEPARATORS = {"|", "||", "&&", ";", "&", ">", ">>", "<", "2>", "2>&1"}

GROUP = typer.main.get_command(app)


def _option_names(command) -> set[str]:
    # Typer may bring its own copy of click, so the command's own classes are used
    context = command.context_class(command, info_name=command.name)
    names: set[str] = set()
    for param in command.get_params(context):  # with the help option, -h and --help
        if param.param_type_name == "option":
            names.update(param.opts)
            names.update(param.secondary_opts)
    return names


# get_command is typed as returning a plain command; an app of several is a group
OPTIONS = {name: _option_names(command)
           for name, command in GROUP.commands.items()}  # type: ignore[attr-defined]
OPTIONS[""] = _option_names(GROUP)  # before the command: --version


def _shell_lines(block: str) -> list[str]:
    """The block's lines, a line ended by a backslash joined with the next, and the
    prompt (`$ `) of a command shown with its output taken off."""
    lines = block.replace("\\\n", " ").splitlines()
    return [line[2:] if line.startswith("$ ") else line for line in lines]


def _words(line: str) -> list[str]:
    try:
        return shlex.split(line, comments=True)
    except ValueError:  # an unbalanced quote in shown output: plain words will do
        return line.split()


def _commands(line: str) -> list[list[str]]:
    """The words of each cpsudoku command on a line, from the command's name on."""
    found: list[list[str]] = []
    current: list[str] | None = None
    for word in _words(line):
        if word == "cpsudoku" or word.endswith("/cpsudoku"):
            current = []
            found.append(current)
        elif word in SEPARATORS or word.startswith((">", "2>")):
            current = None
        elif current is not None:
            current.append(word)
    return found


def _mentions() -> list[tuple[str, str, str, str]]:
    """(page, command line, command, option) for every option of every command line."""
    mentions = []
    for page, text in TEXT.items():
        lines = [line for info, body in FENCE.findall(text) if info != "python"
                 for line in _shell_lines(body)]
        lines += INLINE.findall(text)
        for line in lines:
            for words in _commands(line):
                leading = []
                while words and words[0].startswith("-"):
                    leading.append(words.pop(0))
                for word in leading:
                    mentions.append((page, line, "", word))
                if not words or words[0] not in OPTIONS:
                    continue  # prose or output ("cpsudoku play: serving ..."), not a command
                name, rest = words[0], words[1:]
                if "--" in rest:
                    rest = rest[:rest.index("--")]
                for word in rest:
                    if re.match(r"--?[A-Za-z]", word):
                        mentions.append((page, line, name, word))
    return mentions


MENTIONS = _mentions()

HEADING = re.compile(r"^(#+ .*)$", re.M)
COMMAND_HEADING = re.compile(r"#+ `?(?:cpsudoku )?([\w-]+)`?\s*")
OPTION_SPAN = re.compile(r"`(--?[A-Za-z][^`]*)`")


def _section_mentions() -> list[tuple[str, str, str, str]]:
    """(page, inline code, command, option) for the options named in the prose of a
    section about one command (code blocks are left to `_mentions`)."""
    mentions = []
    for page, text in TEXT.items():
        command = None
        for part in HEADING.split(FENCE.sub("", text)):
            if part.startswith("#"):
                heading = COMMAND_HEADING.fullmatch(part)
                command = heading.group(1) if heading and heading.group(1) in OPTIONS else None
            elif command:
                for span in OPTION_SPAN.findall(part):
                    for word in span.split()[0].split("/"):  # --jobs/-j N: both
                        if word.startswith("-"):
                            mentions.append((page, span, command, word))
    return mentions


SECTION_MENTIONS = _section_mentions()


def _known(command: str, word: str) -> bool:
    names = OPTIONS[command]
    option = word.split("=", 1)[0]
    if option in names:
        return True
    # A short option with its value attached (-n2, -fjson)
    return not word.startswith("--") and word[:2] in names


def test_the_pages_mention_options():
    commands = {command for _, _, command, _ in MENTIONS}
    assert commands >= {"solve", "count", "generate", "compare", "bench", "explain", "rate"}
    assert len(MENTIONS) > 100


def test_the_sections_about_one_command_are_found():
    assert {command for _, _, command, _ in SECTION_MENTIONS} >= {"generate", "bench"}


def test_the_check_catches_a_wrong_option():
    assert _commands("cpsudoku generate -n 5 | head -2 > out.txt") == [["generate", "-n", "5"]]
    assert not _known("generate", "-n") and _known("generate", "-c")
    assert _known("solve", "-n2") and _known("solve", "--rules=diagonal")


@pytest.mark.parametrize("page", sorted(TEXT))
def test_every_option_shown_exists(page):
    wrong = [f"{command or 'cpsudoku'} has no option {word}: {line.strip()}"
             for name, line, command, word in MENTIONS + SECTION_MENTIONS
             if name == page and not _known(command, word)]
    assert not wrong, "\n".join(wrong)
