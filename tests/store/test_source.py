"""--from resolution: directories, manifest paths, templates; local never means HTTP."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from lexicon_store.errors import SourceError
from lexicon_store.source import LocalSource, ReleaseSource, open_source


def test_directory_and_manifest_path(release):
    by_dir = open_source(release.dir)
    by_file = open_source(str(release.dir / "manifest.json"))
    assert isinstance(by_dir, LocalSource) and isinstance(by_file, LocalSource)
    assert by_dir.read_manifest() == by_file.read_manifest()
    assert isinstance(by_dir, ReleaseSource)


def test_template_is_filled_from_version_and_profile(release, tmp_path: Path):
    template = str(tmp_path / "{profile}-{version}")
    release.dir.rename(tmp_path / "test-test-1.0.0")
    source = open_source(template, version="test-1.0.0", profile="test")
    assert isinstance(source, LocalSource)
    assert source.directory == tmp_path / "test-test-1.0.0"
    with pytest.raises(SourceError, match="--version"):
        open_source(template, profile="test")


def test_nonsense_and_missing_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("LEXICON_MANIFEST_URL", raising=False)
    with pytest.raises(SourceError, match="--from"):
        open_source(None)
    with pytest.raises(SourceError, match="neither"):
        open_source(str(tmp_path / "nope"))
    with pytest.raises(SourceError, match="does not exist"):
        open_source(str(tmp_path / "nope" / "manifest.json"))


def test_urls_go_to_the_http_source():
    if importlib.util.find_spec("lexicon_store.http_source") is None:
        with pytest.raises(SourceError, match="not available"):
            open_source("https://example.invalid/data/manifest.json")
    else:
        source = open_source("http://127.0.0.1:9/{version}/manifest.json", version="v1")
        try:
            assert isinstance(source, ReleaseSource)
        finally:
            source.close()
