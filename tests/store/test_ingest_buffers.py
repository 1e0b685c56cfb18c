"""Objects larger than the ingest buffers, split into parts whose boundaries fall mid-buffer,
install byte for byte whether the platform offers O_DIRECT or not."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from lexicon_store import ops
from lexicon_store.errors import IntegrityError
from lexicon_store.integrity import verify
from lexicon_store.package import package_release
from lexicon_store.selection import load_active

# 5 MiB + a ragged tail: several 2 MiB buffers, the last one partly filled.
BIG = (5 << 20) + 1234
# Parts of an odd size, so a part ends in the middle of a buffer.
PART_SIZE = 1_000_003


def _built(built_factory: Callable[..., Path]) -> Path:
    built = built_factory()
    rng = random.Random(5)
    # Half random (incompressible), half text: the parts cover both kinds of frames.
    vectors = rng.randbytes(BIG // 2) + (b"lexicon " * BIG)[: BIG - BIG // 2]
    (built / "en/semantic.f16.npy").write_bytes(vectors)
    return built


@pytest.mark.parametrize("direct", [True, False], ids=["o_direct", "buffered"])
def test_large_object_installs_exactly(
    direct: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    built_factory: Callable[..., Path],
) -> None:
    if not direct:
        monkeypatch.delattr(os, "O_DIRECT", raising=False)  # as on macOS
    elif not hasattr(os, "O_DIRECT"):
        pytest.skip("no O_DIRECT on this platform")
    built = _built(built_factory)
    release = package_release(built, tmp_path / "release", part_size=PART_SIZE)
    vectors = next(c for c in release.manifest.components if c.id == "en.semantic.vectors")
    assert len(vectors.parts) >= 5
    data = tmp_path / "data"
    ops.install(data_dir=data, source=release.release_dir, all_languages=True, allow_unpinned=True)
    selection = load_active(data)
    for rel, path in selection.files.items():
        assert path.read_bytes() == (built / rel).read_bytes(), rel
    assert verify(data).ok
    assert not list((data / "tmp").rglob("*.partial"))


def test_damaged_later_part_of_large_object_is_refused(
    tmp_path: Path, built_factory: Callable[..., Path]
) -> None:
    built = _built(built_factory)
    release = package_release(built, tmp_path / "release", part_size=PART_SIZE)
    vectors = next(c for c in release.manifest.components if c.id == "en.semantic.vectors")
    victim = release.release_dir / vectors.parts[3].path
    raw = bytearray(victim.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    victim.write_bytes(bytes(raw))
    data = tmp_path / "data"
    with pytest.raises(IntegrityError, match=vectors.parts[3].path):
        ops.install(
            data_dir=data, source=release.release_dir, all_languages=True, allow_unpinned=True
        )
    assert not (data / "current").exists()
    # No half-built object is left behind in any ingest dir.
    assert not [p for p in (data / "tmp").rglob("*") if p.is_file() and p.stat().st_size > 4096]
