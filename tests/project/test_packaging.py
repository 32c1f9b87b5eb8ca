"""The package list in pyproject.toml is explicit (models/ installs as cpsudoku.rules.models),
so a new subpackage that is not listed would silently be missing from a real install; the
play page's static files are package data; the sdist carries the C sources and headers."""

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


def test_the_source_distribution_carries_every_c_source_and_header(tmp_path):
    # a build from the sdist compiles the kernels from these; without a header the
    # build fails and the install silently falls back to the pure-Python engines
    import subprocess
    import sys
    import tarfile
    # the file list made afresh (an egg-info left in the tree would list old files)
    (tmp_path / "egg").mkdir()
    subprocess.run([sys.executable, "setup.py", "-q", "egg_info", "--egg-base",
                    str(tmp_path / "egg"), "sdist", "-d", str(tmp_path)], cwd=ROOT,
                   check=True, capture_output=True, timeout=120)
    (archive,) = tmp_path.glob("*.tar.gz")
    with tarfile.open(archive) as sdist:
        shipped = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    sources = {p.relative_to(ROOT).as_posix() for pattern in ("*.c", "*.h")
               for p in (ROOT / "cpsudoku").rglob(pattern)}
    assert sources and sources <= shipped, f"not in the sdist: {sorted(sources - shipped)}"
