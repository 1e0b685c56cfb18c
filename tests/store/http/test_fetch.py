"""fetch: a verified mirror in the published layout, manifest last, resumable, idempotent."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _support.kill import kill_when

from lexicon_store import ops
from lexicon_store.download import DownloadPolicy
from lexicon_store.errors import SelectionError, SourceError, TrustError
from lexicon_store.fetch import fetch_release
from lexicon_store.http_source import HttpSource
from lexicon_store.selection import load_active


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_fetch_writes_the_published_layout(
    server: Any, release: Any, policy: DownloadPolicy, tmp_path: Path, monkeypatch: Any
) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("LEXICON_DATA_DIR", str(data))
    mirror = tmp_path / "mirror"
    result = fetch_release(
        mirror,
        source=HttpSource(release.url, policy=policy),
        version=release.version,
        profile="test",
        manifest_digest=release.digest,
    )
    # Byte for byte what the publisher serves; nothing else (no partials, no sidecars).
    assert _tree(mirror) == _tree(release.dir)
    assert result.parts == len(_tree(release.dir)) - 1 and result.parts_reused == 0
    assert result.bytes_received == release.part_bytes
    assert not data.exists()  # fetch never touches the data dir

    server.clear()
    again = fetch_release(
        mirror, source=HttpSource(release.url, policy=policy), manifest_digest=release.digest
    )
    assert again.parts_reused == again.parts and again.bytes_received == 0
    assert {r.path.rsplit("/", 1)[-1] for r in server.requests} == {"manifest.json"}


def test_fetch_a_selection_then_install_from_it(
    server: Any, release: Any, policy: DownloadPolicy, tmp_path: Path
) -> None:
    mirror = tmp_path / "mirror"
    result = fetch_release(
        mirror,
        source=HttpSource(release.url, policy=policy),
        languages=["fr"],
        capabilities=["lexical"],
        manifest_digest=release.digest,
    )
    wanted = {p["path"] for p in release.parts_of("fr.lexical", "shared.licenses")}
    assert set(_tree(mirror)) == wanted | {"manifest.json"}
    assert result.parts == len(wanted)
    # Leftovers of an earlier, wider fetch that was cut short are cleared by the next one.
    (mirror / "en.lexical.000.zst.partial").write_bytes(b"abc")
    (mirror / "en.lexical.001.zst.partial.json").write_text("{}")
    fetch_release(
        mirror,
        source=HttpSource(release.url, policy=policy),
        languages=["fr"],
        manifest_digest=release.digest,
    )
    assert set(_tree(mirror)) == wanted | {"manifest.json"}
    data = tmp_path / "data"
    ops.install(data_dir=data, source=mirror, languages=["fr"], manifest_digest=release.digest)
    assert dict(load_active(data).installed) == {"fr": {"lexical"}}
    # Asking the fr-only mirror for English fails on the missing part, not silently.
    with pytest.raises(SourceError, match="is missing from"):
        ops.install(data_dir=data, source=mirror, languages=["en"], manifest_digest=release.digest)
    assert dict(load_active(data).installed) == {"fr": {"lexical"}}


def test_fetch_refuses_before_downloading_parts(
    server: Any, release: Any, policy: DownloadPolicy, tmp_path: Path
) -> None:
    mirror = tmp_path / "mirror"
    src = HttpSource(release.url, policy=policy)
    with pytest.raises(TrustError):
        fetch_release(mirror, source=src, manifest_digest="blake3:" + "0" * 64)
    with pytest.raises(TrustError, match="not a release this version of Lexicon pins"):
        fetch_release(mirror, source=src)
    with pytest.raises(SourceError, match=r"holds dataset net-1\.0\.0, not net-9"):
        fetch_release(mirror, source=src, version="net-9", manifest_digest=release.digest)
    with pytest.raises(SelectionError, match="unknown_language"):
        fetch_release(mirror, source=src, languages=["xx"], manifest_digest=release.digest)
    assert {r.path.rsplit("/", 1)[-1] for r in server.requests} == {"manifest.json"}
    assert not mirror.exists() or not any(mirror.iterdir())


def test_fetch_refuses_a_directory_holding_another_release(
    server: Any, make_release: Any, policy: DownloadPolicy, tmp_path: Path
) -> None:
    one = make_release("net-1.0.0", seed=1)
    two = make_release("net-2.0.0", seed=2)
    mirror = tmp_path / "mirror"
    fetch_release(mirror, source=HttpSource(one.url, policy=policy), manifest_digest=one.digest)
    with pytest.raises(SourceError, match="already holds another release"):
        fetch_release(mirror, source=HttpSource(two.url, policy=policy), manifest_digest=two.digest)
    assert _tree(mirror) == _tree(one.dir)


def test_fetch_from_a_local_mirror_copies_verified_parts(
    server: Any, release: Any, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    result = fetch_release(copy, source=release.dir, manifest_digest=release.digest)
    assert _tree(copy) == _tree(release.dir)
    assert result.bytes_received == 0 and server.requests == []
    # A damaged source part is refused and not given its final name.
    victim = release.parts_of("fr.lexical")[0]["path"]
    (copy / victim).unlink()
    raw = bytearray((release.dir / victim).read_bytes())
    raw[10] ^= 1
    (release.dir / victim).write_bytes(bytes(raw))
    with pytest.raises(SourceError, match="is not part"):
        fetch_release(copy, source=release.dir, manifest_digest=release.digest)
    assert not (copy / victim).exists()


_CHILD = """
import sys
from pathlib import Path
from lexicon_store.fetch import fetch_release
fetch_release(Path(sys.argv[1]), source=sys.argv[2], manifest_digest=sys.argv[3])
"""


def test_killed_fetch_fails_loudly_then_completes_on_rerun(
    server: Any, release: Any, policy: DownloadPolicy, tmp_path: Path
) -> None:
    mirror = tmp_path / "mirror"
    stalled = release.parts_of("en.lexical")[1]["path"]
    server.fault("stall", path=f"{release.name}/{stalled}", after=25_000)
    proc = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(mirror), release.url, release.digest]
    )
    partial = mirror / f"{stalled}.partial"
    kill_when(proc, lambda: partial.exists() and partial.stat().st_size == 25_000)
    server.state.release.set()
    assert not (mirror / "manifest.json").exists()
    data = tmp_path / "data"
    with pytest.raises(SourceError, match="not a complete release"):
        ops.install(
            data_dir=data, source=mirror, all_languages=True, manifest_digest=release.digest
        )
    assert not (data / "current").exists()

    have = sum(p.stat().st_size for p in mirror.iterdir() if not p.name.endswith(".json"))
    server.clear()
    result = fetch_release(
        mirror, source=HttpSource(release.url, policy=policy), manifest_digest=release.digest
    )
    assert result.bytes_received == release.part_bytes - have
    assert _tree(mirror) == _tree(release.dir)
    ops.install(data_dir=data, source=mirror, all_languages=True, manifest_digest=release.digest)
    assert load_active(data).manifest_digest == release.digest


def test_two_concurrent_fetches_share_the_work(server: Any, release: Any, tmp_path: Path) -> None:
    mirror = tmp_path / "mirror"
    procs = [
        subprocess.Popen([sys.executable, "-c", _CHILD, str(mirror), release.url, release.digest])
        for _ in range(2)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    assert _tree(mirror) == _tree(release.dir)
    # Each part crossed the wire once: whoever held a part's partial lock fetched it, the
    # other found it finished and verified it.
    manifest_size = (release.dir / "manifest.json").stat().st_size
    assert server.bytes_sent() == release.part_bytes + 2 * manifest_size
