"""The store's side of the source contract: parts a source fetches into tmp/parts/*.partial
are verified, deleted when bad (no later run trusts them) and deleted once used."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lexicon_store import ops
from lexicon_store.digests import hex_of
from lexicon_store.errors import IntegrityError
from lexicon_store.manifest import Part
from lexicon_store.progress import Progress
from lexicon_store.selection import load_active


class CopyingSource:
    """A ReleaseSource that, like a remote one, copies each part into the given .partial."""

    def __init__(self, directory: Path, tamper: str | None = None) -> None:
        self.directory = directory
        self.tamper = tamper
        self.fetched: list[Path] = []

    @property
    def description(self) -> str:
        return f"copy of {self.directory}"

    def read_manifest(self) -> bytes:
        return (self.directory / "manifest.json").read_bytes()

    def local_part(self, part: Part) -> Path | None:
        return None

    def fetch_part(self, part: Part, dest_partial: Path, progress: Progress) -> None:
        shutil.copyfile(self.directory / part.path, dest_partial)
        if part.path == self.tamper:
            with open(dest_partial, "r+b") as handle:
                handle.seek(5)
                handle.write(b"\xff\xfe")
        self.fetched.append(dest_partial)

    def close(self) -> None:
        return None


def test_bad_partial_is_deleted_good_ones_are_consumed(release, data_dir: Path):
    fr_part = next(c for c in release.manifest["components"] if c["id"] == "fr.lexical")
    bad = CopyingSource(release.dir, tamper=fr_part["parts"][0]["path"])
    with pytest.raises(IntegrityError):
        ops.install(data_dir=data_dir, source=bad, languages=["fr"], manifest_digest=release.digest)
    parts = data_dir / "tmp" / "parts"
    assert bad.fetched and all(p.parent == parts for p in bad.fetched)
    # The tampered part is gone. A part another worker fetched before the failure stopped
    # it may stay, for a rerun to resume: every part is verified again when used.
    tampered = parts / f"{hex_of(fr_part['parts'][0]['digest'])}.partial"
    assert tampered in bad.fetched and not tampered.exists()

    good = CopyingSource(release.dir)
    ops.install(data_dir=data_dir, source=good, languages=["fr"], manifest_digest=release.digest)
    assert load_active(data_dir).installed.keys() == {"fr"}
    assert not list((data_dir / "tmp" / "parts").glob("*.partial"))
    assert not list((data_dir / "tmp").glob("ingest-*"))
