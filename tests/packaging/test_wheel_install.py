"""The built wheel, installed for real into a fresh environment, works with no checkout.

`uv build` makes the sdist and then the wheel from that sdist (so both are exercised);
`uv venv` + `uv pip install <wheel>` install it (from uv's cache when it has everything,
else from the registry). Every command then runs from an empty directory, so nothing can
be read from the repository by accident.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ("lexicon-data", "lexicon-mcp", "lexicon-build", "lexicon-glossary")
SHIPPED = ("sources.lock.json", "LICENSE", "DATA_LICENSES.md")
SCHEMAS = ("common.sql", "lexical.sql", "semantic.sql", "wordplay.sql")


def _uv() -> str:
    uv = shutil.which("uv")
    assert uv, "uv is the README's prerequisite and is needed to build the wheel"
    return uv


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment minus anything that points back at this checkout or its venv."""
    drop = ("LEXICON_", "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "UV_PROJECT")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env.update(extra)
    return env


def _run(
    argv: list[str], cwd: Path, env: dict[str, str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(wheel, bin dir of a fresh venv with that wheel installed, not editable)."""
    work = tmp_path_factory.mktemp("wheel")
    env = _clean_env()
    build = [_uv(), "build", "--out-dir", str(work / "dist"), str(ROOT)]
    # Offline first here too: the build backend (hatchling) is in uv's cache after `uv sync`.
    built = _run([*build, "--offline"], work, env)
    if built.returncode != 0:
        built = _run(build, work, env, timeout=600)
    assert built.returncode == 0, built.stderr
    wheels = sorted((work / "dist").glob("*.whl"))
    assert len(wheels) == 1 and list((work / "dist").glob("*.tar.gz")), built.stderr
    venv = work / "venv"
    made = _run([_uv(), "venv", "--python", sys.executable, str(venv)], work, env)
    assert made.returncode == 0, made.stderr
    install = [_uv(), "pip", "install", "--python", str(venv / "bin" / "python"), str(wheels[0])]
    # Offline first: uv's cache normally holds every dependency after `uv sync`.
    done = _run([*install, "--offline"], work, env)
    if done.returncode != 0:
        done = _run(install, work, env, timeout=600)
    assert done.returncode == 0, done.stderr
    return wheels[0], venv / "bin"


def test_wheel_carries_package_data(installed: tuple[Path, Path]) -> None:
    wheel, _ = installed
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert wheel.name.startswith(f"lexicon_mcp-{project['version']}-")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        for name in SHIPPED:
            member = f"lexicon_server/_data/{name}"
            assert member in names, member
            assert z.read(member) == (ROOT / name).read_bytes(), f"{member} differs from {name}"
        for name in SCHEMAS:
            member = f"lexicon_server/corpus/schema/{name}"
            assert z.read(member) == (ROOT / "lexicon_server/corpus/schema" / name).read_bytes()
        assert {"lexicon_server/py.typed", "lexicon_store/py.typed"} <= names
        assert "lexicon_server/builder/sources.toml" in names  # the source table
        info = f"lexicon_mcp-{project['version']}.dist-info"
        metadata = z.read(f"{info}/METADATA").decode()
        entry_points = z.read(f"{info}/entry_points.txt").decode()
    assert "Name: lexicon-mcp\n" in metadata and f"Version: {project['version']}\n" in metadata
    for script in SCRIPTS:
        assert f"{script} = " in entry_points, script
    # Nothing but the two import packages and the metadata: no tests, docs or fixtures.
    assert {n.split("/")[0] for n in names} == {"lexicon_server", "lexicon_store", info}


def test_installed_package_reads_its_own_data(installed: tuple[Path, Path], tmp_path: Path) -> None:
    _, bin_dir = installed
    probe = (
        "import importlib.metadata as m, lexicon_server\n"
        "from lexicon_server.builder.sources import default_lock_path, read_lock\n"
        "from lexicon_server.corpus.reader import schema_sql\n"
        "from lexicon_server.package_data import in_checkout, package_file\n"
        "from lexicon_server.server import _version\n"
        "print(lexicon_server.__file__)\n"
        "print(default_lock_path())\n"
        "print(len(read_lock().entries))\n"
        "print(in_checkout(), m.version('lexicon-mcp'), _version())\n"
        "print('CREATE TABLE' in schema_sql('lexical'))\n"
        "for name in ('LICENSE', 'DATA_LICENSES.md'):\n"
        "    print(package_file(name))\n"
    )
    done = _run([str(bin_dir / "python"), "-c", probe], tmp_path, _clean_env())
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    venv = bin_dir.parent.resolve()
    assert Path(lines[0]).resolve().is_relative_to(venv), lines[0]
    lock = Path(lines[1])
    assert (
        lock.resolve().is_relative_to(venv)
        and lock.read_bytes() == (ROOT / "sources.lock.json").read_bytes()
    )
    assert int(lines[2]) > 10
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert lines[3] == f"False {version} {version}"
    assert lines[4] == "True"
    for line, name in zip(lines[5:], ("LICENSE", "DATA_LICENSES.md"), strict=True):
        assert (
            Path(line).resolve().is_relative_to(venv)
            and Path(line).read_bytes() == (ROOT / name).read_bytes()
        )


def test_console_scripts_help(installed: tuple[Path, Path], tmp_path: Path) -> None:
    _, bin_dir = installed
    for script in SCRIPTS:
        done = _run([str(bin_dir / script), "--help"], tmp_path, _clean_env())
        assert done.returncode == 0, (script, done.stderr)
        assert done.stdout.startswith(f"Usage: {script} "), (script, done.stdout)


def test_server_without_data_names_the_install_command(
    installed: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lexicon_store.selection import install_command

    _, bin_dir = installed
    empty = tmp_path / "no-data"
    empty.mkdir()
    monkeypatch.delenv("LEXICON_DATA_DIR", raising=False)
    by_flag = _run([str(bin_dir / "lexicon-mcp"), "--data-dir", str(empty)], tmp_path, _clean_env())
    assert by_flag.returncode == 2, by_flag.stderr
    assert f"Install one with: {install_command(empty)} " in by_flag.stderr, by_flag.stderr
    assert "`lexicon-build start`" in by_flag.stderr
    # The same directory named by the environment: then lexicon-data finds it the same way.
    by_env = _run([str(bin_dir / "lexicon-mcp")], tmp_path, _clean_env(LEXICON_DATA_DIR=str(empty)))
    assert by_env.returncode == 2, by_env.stderr
    assert f"no active Lexicon dataset in {empty}" in by_env.stderr
    assert "Install one with: lexicon-data install --version " in by_env.stderr


def test_builder_reads_the_shipped_lock(installed: tuple[Path, Path], tmp_path: Path) -> None:
    """`verify-sources` with an empty cache: every pinned source is named, from the wheel's lock."""
    _, bin_dir = installed
    env = _clean_env(LEXICON_BUILD_CACHE=str(tmp_path / "cache"))
    done = _run([str(bin_dir / "lexicon-build"), "verify-sources", "--bytes-only"], tmp_path, env)
    assert done.returncode == 1, done.stderr
    assert "wordnet-3.1" in done.stdout and "cmudict" in done.stdout, done.stdout
    refused = _run([str(bin_dir / "lexicon-build"), "lock-sources"], tmp_path, env)
    assert refused.returncode != 0
    assert "pass --lock PATH" in refused.stderr, refused.stderr
