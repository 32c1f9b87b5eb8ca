"""Where the benchmarks find the public data sets, and what a user without them is
told: `bench --list` always answers (the sets, their files, whether they are there,
how to get them), and a missing set or folder is named with where it was looked for
and how to point at it."""

import shutil

import pytest
from typer.testing import CliRunner

from cpsudoku.bench import datasets
from cpsudoku.bench.datasets import (
    ENV_VAR,
    KNOWN,
    KNOWN_SETS,
    find_data_dir,
    load_set,
    set_names,
)
from cpsudoku.cli import app


def bench(*args, env=None):
    return CliRunner().invoke(app, ["bench", *args], env=env)


@pytest.fixture
def no_env(monkeypatch):
    """CPSUDOKU_DATA as the user's shell may set it would change what is found."""
    monkeypatch.delenv(ENV_VAR, raising=False)


def test_list_without_the_data_names_every_set_and_how_to_get_it(tmp_path, no_env):
    result = bench("--list", "--data", str(tmp_path))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"Data folder: {tmp_path} (from --data)" in out
    for known in KNOWN_SETS:
        assert f"\n{known.name}  {known.puzzles:,} puzzles, {known.grid}" in out
        assert f"{', '.join(known.files())}: missing" in out
    assert "classic/norvig_top95.txt, classic/norvig_top95.sol: missing" in out
    assert "sizes/gecode_25x25.txt" in out
    assert "--data tests/data" in out and f"{ENV_VAR}=DIR" in out
    assert "norvig/pytudes" in out  # where a set comes from


def test_list_with_a_folder_that_does_not_exist_still_answers(tmp_path, no_env):
    result = bench("--list", env={ENV_VAR: str(tmp_path / "nowhere")})
    assert result.exit_code == 0, result.output
    assert f"{tmp_path / 'nowhere'} (from {ENV_VAR}) does not exist" in result.stdout
    assert "norvig_top95  95 puzzles, 9x9 (run by default)" in result.stdout


def test_list_with_the_data_names_the_files_found(bundled_data, tmp_path, no_env):
    shutil.copytree(bundled_data / "classic", tmp_path / "classic")
    (tmp_path / "classic" / "mine.txt").write_text("")
    (tmp_path / "classic" / "mine.sol").write_text("")
    result = bench("--list", "--data", str(tmp_path))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "classic/norvig_top95.txt, classic/norvig_top95.sol: found" in out
    assert "classic/gecode_9x9.txt, classic/gecode_9x9.sol: found" in out
    assert "classic/royle_17clue.txt, classic/royle_17clue.sol: missing" in out
    assert "Other sets in the data folder: mine" in out
    assert f"{ENV_VAR}=DIR" in out  # some are missing: how to get them


def test_list_with_every_set_found_says_no_more(data_dir, no_env):
    result = bench("--list", "--data", str(data_dir))
    assert result.exit_code == 0
    assert "missing" not in result.stdout and f"{ENV_VAR}=DIR" not in result.stdout


def test_a_missing_set_names_its_file_and_how_to_point_at_it(bundled_data, no_env):
    result = bench("--sets", "royle_17clue", "--data", str(bundled_data))
    assert result.exit_code == 5
    assert result.stderr.count("\n") == 1, result.stderr
    missing = bundled_data.resolve() / "classic" / "royle_17clue.txt"
    assert f"data set royle_17clue: {missing}" in result.stderr
    assert "--data DIR" in result.stderr and f"{ENV_VAR}=DIR" in result.stderr
    assert "bench --list" in result.stderr


def test_the_environment_variable_points_at_the_data(bundled_data, tmp_path, no_env):
    result = bench("--sets", "norvig_hardest", "--limit", "2", "--no-reference",
                   env={ENV_VAR: str(bundled_data)})
    assert result.exit_code == 0, result.output
    assert "norvig_hardest" in result.stdout
    result = bench("--sets", "norvig_hardest", env={ENV_VAR: str(tmp_path / "nowhere")})
    assert result.exit_code == 5
    assert f"data folder {tmp_path / 'nowhere'} (from {ENV_VAR}) does not exist" \
        in result.stderr


def test_data_beats_the_environment_variable(bundled_data, tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "nowhere"))
    assert find_data_dir(bundled_data) == bundled_data


def test_the_known_sets_are_the_public_data(data_dir):
    """The catalogue `--list` prints matches the data: every set it names, with as many
    puzzles as it says, and no set of the data left out."""
    assert set(set_names(data_dir)) == set(KNOWN)
    for known in KNOWN_SETS:
        assert all((data_dir / f).is_file() for f in known.files()), known.name
        assert len(load_set(data_dir, known.name)) == known.puzzles, known.name


def test_without_a_data_folder_anywhere(tmp_path, no_env, monkeypatch):
    """A clone without ../shared/data: --list still answers, a run says where it looked."""
    nowhere = tmp_path / "shared" / "data"
    monkeypatch.setattr(datasets, "default_data_dirs", lambda: [nowhere])
    result = bench("--list")
    assert result.exit_code == 0, result.output
    assert f"Data folder: not found (looked in {nowhere})" in result.stdout
    assert "norvig_top95  95 puzzles" in result.stdout and "--data tests/data" in result.stdout
    result = bench("--sets", "norvig_top95")
    assert result.exit_code == 5
    assert f"puzzle data not found (looked in {nowhere})" in result.stderr
    assert "--data DIR" in result.stderr and f"{ENV_VAR}=DIR" in result.stderr
