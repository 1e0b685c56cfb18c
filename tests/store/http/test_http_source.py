"""HttpSource on its own: URLs, read-ahead of announced parts, progress, close."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lexicon_store.digests import digest_file
from lexicon_store.download import DownloadPolicy
from lexicon_store.errors import SourceError
from lexicon_store.http_source import HttpSource, manifest_url_for
from lexicon_store.manifest import Part


def test_manifest_url_for() -> None:
    assert manifest_url_for("https://h/rel/") == "https://h/rel/manifest.json"
    assert manifest_url_for("https://h/rel") == "https://h/rel/manifest.json"
    assert manifest_url_for("http://h/x/m.json") == "http://h/x/m.json"
    with pytest.raises(SourceError, match="not an http"):
        manifest_url_for("ftp://h/rel")


def _parts(release: Any) -> list[Part]:
    manifest = json.loads((release.dir / "manifest.json").read_bytes())
    return [
        Part(p["path"], p["digest"], p["size"]) for c in manifest["components"] for p in c["parts"]
    ]


def test_announced_parts_download_ahead_within_the_window(
    server: Any, release: Any, policy: DownloadPolicy, tmp_path: Path
) -> None:
    src = HttpSource(release.manifest_url, policy=policy)  # parallel=3: two parts ahead
    src.read_manifest()
    parts = _parts(release)
    dests = [tmp_path / "parts" / f"{p.digest[7:]}.partial" for p in parts]
    src.prefetch(list(zip(parts, dests, strict=True)))
    reported: dict[str, int] = {}
    totals: dict[str, set[int]] = {}

    def progress(task: str, advanced: int, total: int) -> None:
        reported[task] = reported.get(task, 0) + advanced
        totals.setdefault(task, set()).add(total)

    try:
        src.fetch_part(parts[0], dests[0], progress)
        assert set(src._jobs) == {dests[1], dests[2]}
        for part, dest in zip(parts[1:], dests[1:], strict=True):
            src.fetch_part(part, dest, progress)
            assert digest_file(dest)[0] == part.digest
        assert src._jobs == {}
    finally:
        src.close()
    fetched = [r.path.rsplit("/", 1)[-1] for r in server.requests if r.status == 200]
    assert sorted(fetched) == sorted(["manifest.json", *(p.path for p in parts)])
    assert totals["download"] == {sum(p.size for p in parts)}  # an ETA is possible
    assert reported == {
        "download": sum(p.size for p in parts),
        **{f"download {p.path}": p.size for p in parts},
    }


def test_unannounced_parts_read_ahead_within_their_component(
    server: Any, release: Any, policy: DownloadPolicy, tmp_path: Path
) -> None:
    src = HttpSource(release.url, policy=policy)
    src.read_manifest()
    lexical = [Part(p["path"], p["digest"], p["size"]) for p in release.parts_of("en.lexical")]
    assert len(lexical) >= 4
    dest = tmp_path / "parts" / f"{lexical[0].digest[7:]}.partial"
    try:
        src.fetch_part(lexical[0], dest, lambda *_: None)
        ahead = {p.name for p in src._jobs}
        assert ahead == {f"{p.digest[7:]}.partial" for p in lexical[1:3]}
    finally:
        src.close()  # cancels the read-ahead; what arrived stays for a later run


def test_base_url_must_be_http(server: Any, release: Any, served: Path) -> None:
    body = json.loads((release.dir / "manifest.json").read_bytes())
    body["base_url"] = "file:///etc/"
    (release.dir / "manifest.json").write_text(json.dumps(body))
    with pytest.raises(SourceError, match="base_url"):
        HttpSource(release.url).read_manifest()


def test_oversized_manifest_is_refused(server: Any, served: Path, monkeypatch: Any) -> None:
    import lexicon_store.http_source as http_source

    monkeypatch.setattr(http_source, "MAX_MANIFEST_BYTES", 100_000)
    (served / "huge").mkdir()
    (served / "huge" / "manifest.json").write_bytes(b" " * 300_000)
    with pytest.raises(SourceError, match="larger than"):
        HttpSource(f"{server.url}/huge/").read_manifest()
