"""`lexicon-build` as a user runs it: options parsed, library called, result rendered."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from lexicon_server.build_cli import main
from lexicon_server.builder.sources import SourceLock, read_lock, write_lock

DEB = Path(__file__).parent / "data" / "dict-freedict-ita-eng_2022.04.21-1_all.deb"
NAME = "freedict-ita-eng"


def test_build_renders_a_summary_and_writes_the_dataset(
    tmp_path: Path, sample_sources: dict[str, Path]
) -> None:
    args = ["build", "--profile", "starter", "--out", str(tmp_path / "out"), "--only-given"]
    for name, path in sample_sources.items():
        args += ["--source", f"{name}={path}"]
    result = CliRunner().invoke(main, args, env={"LEXICON_BUILD_CACHE": str(tmp_path / "c")})
    assert result.exit_code == 0, result.output
    assert "built starter-2026.11.0" in result.output
    dataset = json.loads((tmp_path / "out/dataset.json").read_text())
    assert dataset["languages"]["en"]["capabilities"] == ["lexical", "semantic", "wordplay"]


def test_build_rejects_an_unknown_source_name(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["build", "--out", str(tmp_path / "o"), "--source", f"nope={tmp_path}"]
    )
    assert result.exit_code != 0
    assert "unknown source 'nope'" in result.output


def test_fetch_sources_takes_the_registry_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lexicon_server.builder import sources
    from lexicon_server.builder.catalogue import REGISTRY_SOURCES, STARTER_SOURCES

    asked: list[list[str]] = []

    def fake(config: object, lock: object, names: list[str], progress: object) -> dict[str, Path]:
        asked.append(list(names))
        return {}

    monkeypatch.setattr(sources, "fetch_sources", fake)
    env = {"LEXICON_BUILD_CACHE": str(tmp_path / "c")}
    for profile in ("starter", "registry"):
        result = CliRunner().invoke(main, ["fetch-sources", "--profile", profile], env=env)
        assert result.exit_code == 0, result.output
    assert asked == [[s.name for s in STARTER_SOURCES], [s.name for s in REGISTRY_SOURCES]]


@pytest.fixture
def one_source_lock(tmp_path: Path) -> tuple[Path, Path]:
    cache = tmp_path / "cache"
    (cache / "downloads").mkdir(parents=True)
    (cache / "downloads" / DEB.name).write_bytes(DEB.read_bytes())
    lock_path = tmp_path / "lock.json"
    write_lock(SourceLock({NAME: read_lock().entry(NAME)}), lock_path)
    return cache, lock_path


def test_verify_sources_reports_matches(one_source_lock: tuple[Path, Path]) -> None:
    cache, lock_path = one_source_lock
    result = CliRunner().invoke(
        main, ["verify-sources", "--lock", str(lock_path)], env={"LEXICON_BUILD_CACHE": str(cache)}
    )
    assert result.exit_code == 0, result.output
    assert f"ok      {NAME}: row_digest sha256:" in result.output
    assert "checks match the lock" in result.output


def test_verify_sources_names_what_differs_and_fails(
    one_source_lock: tuple[Path, Path],
) -> None:
    cache, lock_path = one_source_lock
    entry = read_lock(lock_path).entry(NAME)
    assert entry.rows is not None
    write_lock(SourceLock({NAME: dataclasses.replace(entry, rows=entry.rows - 1)}), lock_path)
    result = CliRunner().invoke(
        main, ["verify-sources", "--lock", str(lock_path)], env={"LEXICON_BUILD_CACHE": str(cache)}
    )
    assert result.exit_code == 1
    assert f"DIFFERS {NAME}: rows is {entry.rows}, lock pins {entry.rows - 1}" in result.output
    assert "1 of 4 checks differ" in result.output
