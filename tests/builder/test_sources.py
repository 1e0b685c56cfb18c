"""Source artefacts: unpacking the registry formats, and checks against the lock that name
exactly which source and which measure differ."""

from __future__ import annotations

import dataclasses
import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from lexicon_server.builder.archives import extract_members
from lexicon_server.builder.catalogue import source_spec
from lexicon_server.builder.config import BuildConfig, load_build_config
from lexicon_server.builder.errors import BuildError, SourceMismatch
from lexicon_server.builder.sources import (
    LockEntry,
    SourceLock,
    fetch_sources,
    file_sha256,
    read_lock,
    write_lock,
)
from lexicon_server.builder.verify import iter_source_rows, row_digest, verify_sources

DEB = Path(__file__).parent / "data" / "dict-freedict-ita-eng_2022.04.21-1_all.deb"
NAME = "freedict-ita-eng"


def test_the_repository_lock_pins_every_starter_source_with_the_real_deb() -> None:
    lock = read_lock()
    entry = lock.entry(NAME)
    assert entry.sha256 == file_sha256(DEB)
    assert entry.size == DEB.stat().st_size
    assert entry.filename == DEB.name


def test_a_real_deb_unpacks_its_dictd_files(tmp_path: Path) -> None:
    spec = source_spec(NAME)
    dest = tmp_path / "x"
    extract_members(DEB, [*spec.files.values(), *spec.notices], dest)
    index = (dest / spec.files["index"]).read_text(encoding="utf-8")
    assert "\t" in index.splitlines()[0]
    assert "Files: ita-eng/*" in (dest / spec.notices[0]).read_text(encoding="utf-8")


def test_a_member_the_archive_lacks_is_reported_and_nothing_is_left(tmp_path: Path) -> None:
    dest = tmp_path / "x"
    with pytest.raises(BuildError, match=r"lacks usr/share/dictd/nope\.index"):
        extract_members(DEB, ["usr/share/dictd/nope.index"], dest)
    assert not dest.exists()
    assert not any(tmp_path.iterdir())


def test_wheels_and_npm_tarballs_unpack(tmp_path: Path) -> None:
    wheel = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("pkg/data/words.txt", "alpha\n")
    tgz = tmp_path / "pkg-1.0.tgz"
    with tarfile.open(tgz, "w:gz") as t:
        body = b"beta\n"
        info = tarfile.TarInfo("package/dict/data.noun")
        info.size = len(body)
        t.addfile(info, io.BytesIO(body))
    extract_members(wheel, ["pkg/data/words.txt"], tmp_path / "w")
    extract_members(tgz, ["package/dict/data.noun"], tmp_path / "t")
    assert (tmp_path / "w/pkg/data/words.txt").read_text() == "alpha\n"
    assert (tmp_path / "t/package/dict/data.noun").read_text() == "beta\n"


def _cache_with_deb(tmp_path: Path) -> tuple[BuildConfig, SourceLock]:
    config = BuildConfig(cache_dir=tmp_path / "cache")
    config.downloads.mkdir(parents=True)
    (config.downloads / DEB.name).write_bytes(DEB.read_bytes())
    repo = read_lock().entry(NAME)
    return config, SourceLock({NAME: repo})


def test_verify_passes_on_the_pinned_bytes_and_rows(tmp_path: Path) -> None:
    config, lock = _cache_with_deb(tmp_path)
    findings = [f for f in verify_sources(config, lock, {}) if f.source == NAME]
    fields = {f.field for f in findings}
    assert {"size", "sha256"} <= fields
    assert all(f.ok for f in findings), [f.describe() for f in findings]


def test_verify_names_the_source_and_the_measure_that_differ(tmp_path: Path) -> None:
    config, lock = _cache_with_deb(tmp_path)
    entry = lock.entry(NAME)
    from lexicon_server.builder.inputs import SourceInput
    from lexicon_server.builder.sources import extracted_dir

    spec = source_spec(NAME)
    root = extracted_dir(config, spec, config.downloads / DEB.name, entry.sha256 or "")
    count, digest = row_digest(iter_source_rows(SourceInput(spec, root, "x", True)))
    wrong_rows = dataclasses.replace(entry, rows=count + 1, row_digest=digest)
    findings = verify_sources(config, SourceLock({NAME: wrong_rows}), {})
    bad = [f for f in findings if not f.ok]
    assert [(f.source, f.field) for f in bad] == [(NAME, "rows")]
    assert f"DIFFERS {NAME}: rows is {count}" in bad[0].describe()

    # One flipped byte: the size still matches, the sha256 does not.
    path = config.downloads / DEB.name
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    bad = [f for f in verify_sources(config, lock, {}, rows=False) if not f.ok]
    assert [(f.source, f.field) for f in bad] == [(NAME, "sha256")]


def test_fetch_keeps_a_matching_file_and_rejects_a_tampered_one(tmp_path: Path) -> None:
    config, lock = _cache_with_deb(tmp_path)
    assert fetch_sources(config, lock, [NAME]) == {NAME: config.downloads / DEB.name}
    # A lock that pins other bytes: the cached file no longer matches, and what the
    # registry client brings back is checked against the lock before it is kept.
    other = dataclasses.replace(lock.entry(NAME), sha256="0" * 64)
    with pytest.raises(SourceMismatch, match=f"source '{NAME}'.*sha256"):
        fetch_sources(config, SourceLock({NAME: other}), [NAME])


def test_lock_round_trips(tmp_path: Path) -> None:
    lock = SourceLock({"a": LockEntry("a", "pypi", "a", "1", "a.whl", "00", 1, 2, "sha256:x")})
    write_lock(lock, tmp_path / "lock.json")
    assert read_lock(tmp_path / "lock.json") == lock


def test_cache_location_comes_from_the_environment(tmp_path: Path) -> None:
    assert load_build_config({"LEXICON_BUILD_CACHE": str(tmp_path)}).cache_dir == tmp_path
    xdg = load_build_config({"XDG_CACHE_HOME": str(tmp_path)}).cache_dir
    assert xdg == tmp_path / "lexicon" / "sources"
