"""verify finds corrupted, truncated and missing objects of the active selection only;
repair --from puts them back."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from lexicon_store import integrity, ops
from lexicon_store.errors import SourceError
from lexicon_store.selection import load_active, read_activation


def _damage(path: Path, how: str) -> None:
    os.chmod(path, 0o644)
    if how == "corrupt":
        data = bytearray(path.read_bytes())
        data[0] ^= 1
        path.write_bytes(bytes(data))
    elif how == "truncated":
        path.write_bytes(path.read_bytes()[:-1])
    elif how == "oversized":
        path.write_bytes(path.read_bytes() + b"!")
    else:
        path.unlink()


@pytest.mark.parametrize("how", ["corrupt", "truncated", "oversized", "missing"])
def test_verify_and_repair(release, data_dir: Path, how: str, cli):
    ops.install(
        data_dir=data_dir,
        source=release.dir,
        languages=["en", "fr"],
        manifest_digest=release.digest,
    )
    assert integrity.verify(data_dir).ok
    sel = load_active(data_dir)
    _damage(sel.files["fr/lexical.sqlite"], how)
    report = integrity.verify(data_dir)
    assert [(p.component, p.kind) for p in report.problems] == [("fr.lexical", how)]

    out = cli("--data-dir", str(data_dir), "verify", "--json")
    assert out.returncode == 1
    assert json.loads(out.stdout)["problems"][0]["kind"] == how

    fixed = integrity.repair(source=release.dir, data_dir=data_dir)
    assert fixed.stats.copied == ["fr.lexical"]
    assert fixed.after.ok and integrity.verify(data_dir).ok
    assert (
        sel.files["fr/lexical.sqlite"].read_bytes()
        == (release.dir.parent / "built0" / "fr" / "lexical.sqlite").read_bytes()
    )


def test_verify_is_scoped_to_the_active_selection(release, data_dir: Path):
    full = ops.install(
        data_dir=data_dir, source=release.dir, all_languages=True, manifest_digest=release.digest
    )
    ops.install(
        data_dir=data_dir, source=release.dir, languages=["en"], manifest_digest=release.digest
    )
    # An object only the retained (inactive) selection uses is damaged: not our concern now.
    read_activation(data_dir, full.activation_id).files["de/lexical.sqlite"].unlink()
    report = integrity.verify(data_dir)
    assert report.ok
    assert report.checked == 6  # 5 English/shared components + the manifest


def test_repair_refuses_another_release(release, make_release, data_dir: Path):
    ops.install(
        data_dir=data_dir, source=release.dir, languages=["fr"], manifest_digest=release.digest
    )
    _damage(load_active(data_dir).files["fr/lexical.sqlite"], "missing")
    other = make_release("test-1.0.0", seeds={"fr.lexical": 77})
    with pytest.raises(SourceError, match="was installed from"):
        integrity.repair(source=other.dir, data_dir=data_dir)


def test_damaged_manifest_object_is_repaired(release, data_dir: Path):
    ops.install(
        data_dir=data_dir, source=release.dir, languages=["fr"], manifest_digest=release.digest
    )
    manifest_object = data_dir / "objects" / "blake3" / release.digest[7:9] / release.digest[7:]
    _damage(manifest_object, "corrupt")
    assert [p.component for p in integrity.verify(data_dir).problems] == ["manifest"]
    assert integrity.repair(source=release.dir, data_dir=data_dir).after.ok
