"""One meaning per short option across commands, and a time limit wherever a command searches."""

from __future__ import annotations

import typer.main

from cpsudoku.cli import app

SEARCHING = ("solve", "count", "compare", "rate", "explain", "hint", "generate", "bench")


def _commands():
    return typer.main.get_command(app).commands


def _options(command):
    for param in command.params:
        opts = [*param.opts, *getattr(param, "secondary_opts", [])]
        if any(o.startswith("-") for o in opts):
            yield opts


def test_each_short_option_means_one_thing_in_every_command():
    meaning: dict[str, tuple[str, str]] = {}  # short option -> (first long name, command)
    clashes = []
    for name, command in sorted(_commands().items()):
        for opts in _options(command):
            longs = [o for o in opts if o.startswith("--")]
            for short in (o for o in opts if len(o) == 2 and o[0] == "-" and o[1] != "-"):
                seen = meaning.setdefault(short, (longs[0], name))
                if seen[0] != longs[0]:
                    clashes.append(f"{short}: {seen[0]} in {seen[1]}, {longs[0]} in {name}")
    assert not clashes, clashes
    assert meaning["-n"][0] == "--max-solutions"
    assert meaning["-t"][0] == "--time-limit"


def test_every_searching_command_takes_a_time_limit():
    commands = _commands()
    missing = [name for name in SEARCHING
               if not any("--time-limit" in opts for opts in _options(commands[name]))]
    assert not missing, missing


def test_the_same_short_options_are_found_by_this_test():
    # the check above would pass vacuously if no options were seen
    opts = {o for command in _commands().values() for group in _options(command) for o in group}
    assert {"-n", "-t", "-f", "-o", "-b", "-j", "-c", "-s", "-d"} <= opts


def test_hint_gives_up_at_its_time_limit_with_the_timeout_status(tmp_path):
    import json
    from pathlib import Path

    from typer.testing import CliRunner

    from cpsudoku.errors import ExitCode

    # an SE 11.1 puzzle: its first step is a nested forcing chain, seconds of work
    rated = Path(__file__).parents[1] / "logic" / "data" / "se_hardest.txt"
    hardest = next(line.split()[0] for line in rated.read_text().splitlines()
                   if line and not line.startswith("#"))
    (tmp_path / "hardest.txt").write_text(hardest + "\n")
    result = CliRunner().invoke(app, ["hint", str(tmp_path / "hardest.txt"), "-t", "0.05",
                                      "-f", "json"])
    assert result.exit_code == ExitCode.TIMEOUT, result.output
    assert json.loads(result.stdout)["status"] == "timeout"


def test_top_level_help_shows_each_summary_whole_in_80_columns():
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert not any(line.rstrip().endswith("...") for line in lines[1:]), result.stdout
    assert "in\n            HoDoKu's notation." in result.stdout  # explain's, wrapped, not cut
