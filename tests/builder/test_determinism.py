"""Same inputs, same bytes: two independent builds package to the same release digest."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path


def _tree(out: Path) -> dict[str, str]:
    return {
        str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.rglob("*"))
        if p.is_file() and ".build" not in p.parts
    }


def test_two_builds_have_identical_files_and_release_digest(
    tmp_path: Path,
    sample_dataset: Path,
    sample_release: tuple[Path, str],
    sample_builder: Callable[[Path, Path], Path],
) -> None:
    from lexicon_store.package import package_release

    again = sample_builder(tmp_path / "again", tmp_path / "cache")
    assert _tree(again) == _tree(sample_dataset)
    result = package_release(again, tmp_path / "release")
    assert result.manifest_digest == sample_release[1]


def test_checkpoints_record_the_output_digests(sample_dataset: Path) -> None:
    import json

    for checkpoint in (sample_dataset / ".build").glob("*.json"):
        record = json.loads(checkpoint.read_text())
        for rel, expected in record["outputs"].items():
            data = (sample_dataset / rel).read_bytes()
            assert hashlib.sha256(data).hexdigest() == expected["sha256"], rel
