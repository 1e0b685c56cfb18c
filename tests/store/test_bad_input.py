"""Damaged or hostile releases are refused with a clear error and leave the install as it was."""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _support.store_cli import install_argv

from lexicon_store import integrity, ops
from lexicon_store.errors import IntegrityError, ManifestError, SourceError, StoreError
from lexicon_store.selection import load_active


@pytest.fixture
def installed(release, data_dir: Path, snap) -> dict[str, bytes]:
    """English installed from the good release; returns the data dir's snapshot."""
    ops.install(
        data_dir=data_dir, source=release.dir, languages=["en"], manifest_digest=release.digest
    )
    return snap(data_dir)


def _fr_part(release, index: int = 0) -> Path:
    fr = next(c for c in release.manifest["components"] if c["id"] == "fr.lexical")
    return release.dir / fr["parts"][index]["path"]


def _install_fr(release, data_dir: Path, digest: str | None = None) -> None:
    ops.install(
        data_dir=data_dir,
        source=release.dir,
        languages=["en", "fr"],
        manifest_digest=digest or release.digest,
    )


def _assert_untouched(data_dir: Path, before: dict[str, bytes], snap) -> None:
    assert snap(data_dir) == before
    assert load_active(data_dir).installed.keys() == {"en"}
    assert integrity.verify(data_dir).ok
    assert not list((data_dir / "tmp").glob("ingest-*"))


def test_tampered_part(release, data_dir, installed, snap):
    part = _fr_part(release, 1)
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 0xFF
    part.write_bytes(bytes(data))
    with pytest.raises(IntegrityError, match=r"fr\.lexical") as info:
        _install_fr(release, data_dir)
    assert info.value.fix
    _assert_untouched(data_dir, installed, snap)


def test_truncated_part(release, data_dir, installed, snap):
    part = _fr_part(release, 0)
    part.write_bytes(part.read_bytes()[:-10])
    with pytest.raises(IntegrityError, match="size differs"):
        _install_fr(release, data_dir)
    _assert_untouched(data_dir, installed, snap)


def _edit(release, change: Callable[[dict[str, Any]], None]) -> str:
    body = copy.deepcopy(release.manifest)
    change(next(c for c in body["components"] if c["id"] == "fr.lexical"))
    return release.write_manifest(body)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: c["parts"][0].update(digest="blake3:" + "0" * 64), "digest differs"),
        (lambda c: c["parts"][0].update(size=c["parts"][0]["size"] + 1), "size differs"),
        (lambda c: c["object"].update(digest="blake3:" + "0" * 64), "do not match"),
        (lambda c: c["object"].update(size=c["object"]["size"] + 5), "do not match"),
        (lambda c: c["object"].update(size=c["object"]["size"] - 5), "more than"),
    ],
    ids=["part-digest", "part-size", "object-digest", "object-size-larger", "object-size-smaller"],
)
def test_manifest_that_lies(release, data_dir, installed, snap, change, message):
    digest = _edit(release, change)
    with pytest.raises(IntegrityError, match=message):
        _install_fr(release, data_dir, digest)
    _assert_untouched(data_dir, installed, snap)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: c["parts"][0].update(digest="sha256:" + "0" * 64), "unknown digest algorithm"),
        (lambda c: c["object"].update(digest="md5:" + "0" * 32), "unknown digest algorithm"),
        (lambda c: c["parts"][0].update(size=1 << 30), "smaller than 1 GiB"),
        (lambda c: c["parts"][0].update(size=5 << 30), "smaller than 1 GiB"),
        (lambda c: c["parts"][0].update(size=-1), "non-negative"),
        (lambda c: c["parts"][0].update(path="../escape.zst"), "'..'"),
        (lambda c: c["parts"][0].update(path="sub/../../escape.zst"), "'..'"),
        (lambda c: c["parts"][0].update(path="/etc/passwd"), "absolute"),
        (lambda c: c["parts"][0].update(path="C:/Windows/x.zst"), "drive letter"),
        (lambda c: c["parts"][0].update(path="C:x.zst"), "drive letter"),
        (lambda c: c["parts"][0].update(path="\\\\server\\share\\x.zst"), "backslash"),
        (lambda c: c["parts"][0].update(path="//server/share/x.zst"), "absolute"),
        (lambda c: c["parts"][0].update(path="a\\..\\b.zst"), "backslash"),
        (lambda c: c.update(path="../../home/user/.bashrc"), "'..'"),
        (lambda c: c.update(path="/etc/cron.d/x"), "absolute"),
    ],
    ids=[
        "sha256",
        "md5-object",
        "part-1GiB",
        "part-5GiB",
        "negative-size",
        "dotdot",
        "nested-dotdot",
        "absolute",
        "drive",
        "drive-relative",
        "unc-backslash",
        "unc-slash",
        "backslash",
        "component-dotdot",
        "component-absolute",
    ],
)
def test_invalid_manifest_is_refused_before_anything_is_read(
    release, data_dir, installed, snap, change, message
):
    digest = _edit(release, change)
    with pytest.raises(ManifestError, match=message):
        _install_fr(release, data_dir, digest)
    _assert_untouched(data_dir, installed, snap)


def test_symlinked_part_is_refused(release, data_dir, installed, snap, tmp_path):
    part = _fr_part(release, 0)
    outside = tmp_path / "outside.zst"
    outside.write_bytes(part.read_bytes())
    part.unlink()
    os.symlink(outside, part)
    with pytest.raises(SourceError, match="not a regular file"):
        _install_fr(release, data_dir)
    _assert_untouched(data_dir, installed, snap)


def test_missing_part(release, data_dir, installed, snap):
    _fr_part(release, 1).unlink()
    with pytest.raises(SourceError, match="missing") as info:
        _install_fr(release, data_dir)
    assert info.value.fix
    _assert_untouched(data_dir, installed, snap)


def test_garbage_manifest(release, data_dir, installed, snap):
    (release.dir / "manifest.json").write_bytes(b"\xff not json")
    with pytest.raises(ManifestError):
        ops.install(data_dir=data_dir, source=release.dir, languages=["en"], allow_unpinned=True)
    _assert_untouched(data_dir, installed, snap)


def test_every_error_names_a_fix_in_the_cli(release, data_dir, installed, cli):
    _fr_part(release, 0).write_bytes(b"junk")
    out = cli(
        "--data-dir",
        str(data_dir),
        *install_argv(release, "en,fr"),
    )
    assert out.returncode == IntegrityError.exit_code
    assert "error:" in out.stderr and "fix:" in out.stderr
    assert issubclass(IntegrityError, StoreError)


@pytest.mark.parametrize("operation", ["install", "add_language", "fetch_release"])
def test_a_misspelt_release_keyword_is_refused_before_anything_is_written(
    operation: str, tmp_path: Path
) -> None:
    from lexicon_store.fetch import fetch_release

    calls: dict[str, Callable[..., Any]] = {
        "install": lambda **kw: ops.install(data_dir=tmp_path / "data", **kw),
        "add_language": lambda **kw: ops.add_language(
            languages=["en"], data_dir=tmp_path / "data", **kw
        ),
        "fetch_release": lambda **kw: fetch_release(tmp_path / "data", **kw),
    }
    with pytest.raises(TypeError, match=f"{operation}.*manifest_digst"):
        calls[operation](manifest_digst="blake3:00")
    assert not (tmp_path / "data").exists()
