"""install --from a local release: selection, dedup, trust, read-only objects, the reader."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
from _support.store_cli import install_argv

from lexicon_store import ops
from lexicon_store.digests import digest_file
from lexicon_store.errors import SelectionError, SourceError, TrustError
from lexicon_store.selection import load_active


def test_install_serves_the_selection_through_the_reader(release, data_dir: Path):
    result = ops.install(
        data_dir=data_dir,
        source=release.dir,
        languages=["en", "fr"],
        capabilities=["lexical"],
        manifest_digest=release.digest,
    )
    sel = load_active(data_dir)
    assert sel.activation_id == result.activation_id
    assert sel.manifest_digest == release.digest
    assert dict(sel.installed) == {"en": {"lexical"}, "fr": {"lexical"}}
    assert set(sel.files) == {"en/lexical.sqlite", "fr/lexical.sqlite", "DATA_LICENSES.md"}
    built = release.dir.parent / "built0"
    for rel, path in sel.files.items():
        assert path.read_bytes() == (built / rel).read_bytes()
        assert digest_file(path)[0].endswith(path.name)
        assert not os.stat(path).st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
    assert sel.availability("en", "semantic") == "capability_not_installed"
    assert sel.availability("de", "lexical") == "language_not_installed"


def test_install_from_manifest_path_and_rerun_copies_nothing(release, data_dir: Path):
    first = ops.install(
        data_dir=data_dir,
        source=release.dir / "manifest.json",
        all_languages=True,
        manifest_digest=release.digest,
    )
    assert first.stats.objects_copied == 7 and first.stats.objects_reused == 0
    again = ops.install(
        data_dir=data_dir, source=release.dir, all_languages=True, manifest_digest=release.digest
    )
    assert again.activation_id == first.activation_id
    assert again.stats.objects_copied == 0 and again.stats.objects_reused == 7


def test_shared_object_is_stored_once_across_releases(make_release, data_dir: Path):
    old = make_release("test-1.0.0")
    new = make_release("test-1.1.0", seeds={"en.lexical": 99})  # only en.lexical changed
    ops.install(data_dir=data_dir, source=old.dir, all_languages=True, allow_unpinned=True)
    upgrade = ops.install(
        data_dir=data_dir, source=new.dir, all_languages=True, allow_unpinned=True
    )
    assert upgrade.stats.copied == ["en.lexical"]
    assert upgrade.stats.objects_reused == 6


def test_unknown_language_fails_and_changes_nothing(release, data_dir: Path, snap):
    ops.install(
        data_dir=data_dir, source=release.dir, languages=["en"], manifest_digest=release.digest
    )
    before = snap(data_dir)
    with pytest.raises(SelectionError) as info:
        ops.install(
            data_dir=data_dir,
            source=release.dir,
            languages=["en", "xx"],
            manifest_digest=release.digest,
        )
    assert info.value.reason == "unknown_language"
    assert "'xx'" in info.value.message
    assert snap(data_dir) == before


def test_missing_capability_is_reported_not_hidden(release, data_dir: Path):
    result = ops.install(
        data_dir=data_dir,
        source=release.dir,
        languages=["en", "fr"],
        capabilities=["lexical", "semantic"],
        manifest_digest=release.digest,
    )
    assert [(s.language, s.capability, s.reason) for s in result.shortfalls] == [
        ("fr", "semantic", "not_available_upstream")
    ]
    with pytest.raises(SelectionError) as info:
        ops.install(
            data_dir=data_dir,
            source=release.dir,
            languages=["fr"],
            capabilities=["semantic"],
            manifest_digest=release.digest,
        )
    assert info.value.reason == "not_available_upstream"


def test_all_languages_with_one_capability(release, data_dir: Path):
    result = ops.install(
        data_dir=data_dir,
        source=release.dir,
        all_languages=True,
        capabilities=["semantic"],
        manifest_digest=release.digest,
    )
    assert dict(result.installed) == {"en": {"semantic"}}
    assert {(s.language, s.capability) for s in result.shortfalls} == {
        ("fr", "semantic"),
        ("de", "semantic"),
    }


def test_trust_rules(release, data_dir: Path):
    with pytest.raises(TrustError, match="--manifest-digest") as info:
        ops.install(data_dir=data_dir, source=release.dir, languages=["en"])
    assert "--allow-unpinned" in str(info.value)
    with pytest.raises(TrustError, match="not the"):
        ops.install(
            data_dir=data_dir,
            source=release.dir,
            languages=["en"],
            manifest_digest="blake3:" + "0" * 64,
        )
    with pytest.raises(TrustError, match="pinned"):
        ops.install(
            data_dir=data_dir,
            source=release.dir,
            languages=["en"],
            pins={"test-1.0.0": "blake3:" + "1" * 64},
        )
    pinned = ops.install(
        data_dir=data_dir, source=release.dir, languages=["en"], pins={"test-1.0.0": release.digest}
    )
    assert pinned.trust == "pinned"
    assert load_active(data_dir).activation_id == pinned.activation_id


def test_version_and_profile_must_match_the_source(release, data_dir: Path):
    with pytest.raises(SourceError, match="not test-9"):
        ops.install(
            data_dir=data_dir,
            source=release.dir,
            version="test-9",
            languages=["en"],
            allow_unpinned=True,
        )
    with pytest.raises(SourceError, match="profile"):
        ops.install(
            data_dir=data_dir,
            source=release.dir,
            profile="full",
            languages=["en"],
            allow_unpinned=True,
        )


def test_incomplete_mirror_without_manifest_fails_loudly(release, data_dir: Path):
    (release.dir / "manifest.json").unlink()
    with pytest.raises(SourceError, match="manifest"):
        ops.install(data_dir=data_dir, source=release.dir, languages=["en"], allow_unpinned=True)


def test_install_from_dir_never_touches_the_network(release, data_dir: Path, cli):
    # The CLI in a fresh process with an audit hook recording every socket operation;
    # afterwards no socket was opened and no HTTP client library was even imported.
    code = (
        "import sys\n"
        "events = []\n"
        "sys.addaudithook(lambda e, a: events.append(e) if e.startswith('socket.') else None)\n"
        "from lexicon_store.cli import cli\n"
        "try:\n"
        "    cli(sys.argv[1:])\n"
        "except SystemExit as e:\n"
        "    assert not e.code, e.code\n"
        "bad = [m for m in ('httpx', 'lexicon_store.http_source') if m in sys.modules]\n"
        "print('IMPORTED', bad, 'SOCKETS', events)\n"
    )
    import subprocess

    out = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            "--data-dir",
            str(data_dir),
            *install_argv(release, "en"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "IMPORTED [] SOCKETS []" in out.stdout
    assert json.loads((data_dir / "current").read_text())["format"] == 1
