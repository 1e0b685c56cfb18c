"""`package`: a built dataset dir becomes a release that round-trips byte for byte."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import zstandard

from lexicon_store.digests import digest_bytes, digest_file
from lexicon_store.errors import ManifestError
from lexicon_store.manifest import parse_manifest
from lexicon_store.package import package_release


def test_parts_round_trip_to_the_built_files(built_factory: Callable[..., Path], tmp_path: Path):
    built = built_factory()
    result = package_release(built, tmp_path / "rel", part_size=4096)
    data = (tmp_path / "rel" / "manifest.json").read_bytes()
    assert digest_bytes(data) == result.manifest_digest
    manifest = parse_manifest(data, result.manifest_digest)
    assert manifest.catalogue["fr"] == frozenset({"lexical"})
    for component in manifest.components:
        original = (built / component.path).read_bytes()
        assert len(component.parts) == max(1, -(-len(original) // 4096))
        joined = b""
        for part in component.parts:
            path = tmp_path / "rel" / part.path
            assert digest_file(path) == (part.digest, part.size)
            joined += zstandard.ZstdDecompressor().decompress(path.read_bytes())
        assert joined == original
        assert component.object.digest == digest_bytes(original)
        assert component.object.size == len(original)


def test_cli_package_prints_digest(built_factory: Callable[..., Path], tmp_path: Path, cli):
    built = built_factory()
    out = cli("package", str(built), "--dest", str(tmp_path / "r"), "--part-size", "8K", "--json")
    assert out.returncode == 0, out.stderr
    body = json.loads(out.stdout)
    assert body["manifest_digest"] == digest_bytes((tmp_path / "r" / "manifest.json").read_bytes())
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    en_lexical = next(c for c in manifest["components"] if c["id"] == "en.lexical")
    assert len(en_lexical["parts"]) == 3  # 20 000 bytes in 8 KiB parts


@pytest.mark.parametrize("bad", ["../escape.sqlite", "/abs.sqlite", "C:/x.sqlite", "a\\b"])
def test_hostile_paths_in_dataset_json_are_refused(
    built_factory: Callable[..., Path], tmp_path: Path, bad: str
):
    built = built_factory()
    dataset = json.loads((built / "dataset.json").read_text())
    dataset["components"][0]["path"] = bad
    (built / "dataset.json").write_text(json.dumps(dataset))
    with pytest.raises(ManifestError):
        package_release(built, tmp_path / "rel", part_size=4096)
    assert not (tmp_path / "rel" / "manifest.json").exists()


def test_missing_component_file_writes_no_manifest(
    built_factory: Callable[..., Path], tmp_path: Path
):
    built = built_factory()
    (built / "fr" / "lexical.sqlite").unlink()
    with pytest.raises(ManifestError, match="does not exist"):
        package_release(built, tmp_path / "rel")
    assert not (tmp_path / "rel" / "manifest.json").exists()


def test_repackaging_keeps_unchanged_parts(built_factory: Callable[..., Path], tmp_path: Path):
    built = built_factory()
    dest = tmp_path / "rel"
    first = package_release(built, dest, part_size=4096)
    assert first.reused == ()
    second = package_release(built, dest, part_size=4096)
    assert len(second.reused) == 7
    assert second.manifest_digest == first.manifest_digest

    (built / "fr" / "lexical.sqlite").write_bytes(b"changed" * 100)
    damaged = dest / first.manifest.component("de.lexical").parts[0].path
    damaged.write_bytes(b"\0" * damaged.stat().st_size)  # same size, wrong bytes
    third = package_release(built, dest, part_size=4096)
    assert set(third.reused) == {c.id for c in first.manifest.components} - {
        "fr.lexical",
        "de.lexical",
    }
    data = (dest / "manifest.json").read_bytes()
    for component in parse_manifest(data, digest_bytes(data)).components:
        for part in component.parts:
            assert digest_file(dest / part.path) == (part.digest, part.size)
    # A different part size means a different split: only single-part components are kept.
    assert set(package_release(built, dest, part_size=8192).reused) == {
        "shared.licenses",
        "en.semantic.vocab",
        "fr.lexical",
    }


def test_repackaging_leaves_exactly_the_published_layout(
    built_factory: Callable[..., Path], tmp_path: Path
):
    built = built_factory()
    dest = tmp_path / "rel"
    package_release(built, dest, part_size=4096)
    (dest / ".en.lexical.000.zst.tmp").write_bytes(b"interrupted")
    (dest / "README.txt").write_text("not ours")
    result = package_release(built, dest, part_size=8192)
    listed = {p.path for c in result.manifest.components for p in c.parts}
    assert {p.name for p in dest.iterdir()} == listed | {"manifest.json", "README.txt"}
