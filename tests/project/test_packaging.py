"""The package list in pyproject.toml is explicit (models/ installs as cpsudoku.rules.models),
so a new subpackage that is not listed would silently be missing from a real install; the
play page's static files are package data."""

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_subpackage_is_listed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    on_disk = {".".join(p.parent.relative_to(ROOT).parts)
               for p in (ROOT / "cpsudoku").rglob("__init__.py")}
    assert on_disk <= listed, f"not installed: {sorted(on_disk - listed)}"
    assert config["package-dir"]["cpsudoku.rules.models"] == "models"
    assert any((ROOT / "models").glob("*.toml"))


def test_every_static_file_is_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "cpsudoku.web" in config["packages"]
    globs = config["package-data"]["cpsudoku.web"]
    static = ROOT / "cpsudoku" / "web" / "static"
    assert any(static.rglob("*")), f"no static files in {static}"
    for path in static.rglob("*"):
        if path.is_file():
            name = path.relative_to(static.parent).as_posix()
            assert any(fnmatch.fnmatch(name, g) for g in globs), f"{name} would not be installed"
