"""install over HTTP: verified objects, faults survived or refused, previous install untouched."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _support.http_install import install_all_over_http

from lexicon_store import ops
from lexicon_store.download import DownloadPolicy
from lexicon_store.errors import IntegrityError, StoreError, TrustError
from lexicon_store.http_source import HttpSource
from lexicon_store.integrity import verify
from lexicon_store.selection import load_active


def _snapshot(data_dir: Path) -> dict[str, bytes]:
    return {
        p.relative_to(data_dir).as_posix(): p.read_bytes()
        for p in sorted(data_dir.rglob("*"))
        if p.is_file() and p.name != "lock" and "tmp" not in p.relative_to(data_dir).parts
    }


def _check_installed(data_dir: Path, release: Any) -> None:
    selection = load_active(data_dir)
    assert selection.manifest_digest == release.digest
    for rel, path in selection.files.items():
        assert path.read_bytes() == (release.built / rel).read_bytes()
    assert verify(data_dir).ok


def test_install_from_url_string(server: Any, release: Any, tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = ops.install(
        data_dir=data,
        source=release.manifest_url,
        all_languages=True,
        manifest_digest=release.digest,
    )
    assert result.stats.objects_copied == 4
    _check_installed(data, release)
    manifest_size = (release.dir / "manifest.json").stat().st_size
    assert server.bytes_sent() == release.part_bytes + manifest_size
    # Every part verified and consumed: no download leftovers.
    assert not any((data / "tmp").rglob("*.partial*"))


def test_directory_url_and_template(server: Any, release: Any, tmp_path: Path) -> None:
    data = tmp_path / "data"
    template = f"{server.url}/{{version}}-1/"
    ops.install(
        data_dir=data,
        source=template,
        version=release.version,
        languages=["fr"],
        manifest_digest=release.digest,
    )
    assert dict(load_active(data).installed) == {"fr": {"lexical"}}
    fetched = {r.path.rsplit("/", 1)[-1] for r in server.requests}
    assert fetched == {"manifest.json"} | {
        p["path"] for p in release.parts_of("fr.lexical", "shared.licenses")
    }


RECOVERABLE = [
    ("drop", {"after": 20_000}),
    ("status", {"status": 500}),
    ("status", {"status": 503, "times": 3}),
    ("status", {"status": 429, "retry_after": "1"}),
    ("status", {"status": 416}),
    ("ignore_range", {}),
    ("bad_content_range", {}),
    ("stall", {"after": 30_000}),
    ("etag_change", {}),
]


@pytest.mark.parametrize(
    ("kind", "options"), RECOVERABLE, ids=[f"{k}{o.get('status', '')}" for k, o in RECOVERABLE]
)
def test_install_survives_fault(
    server: Any,
    release: Any,
    policy: DownloadPolicy,
    tmp_path: Path,
    kind: str,
    options: dict[str, Any],
) -> None:
    target = release.parts_of("en.lexical")[1]["path"]
    path = f"{release.name}/{target}"
    if kind in ("ignore_range", "bad_content_range", "etag_change") or options.get("status") == 416:
        # These only show on a resume: cut the first attempt short.
        server.fault("drop", path=path, after=20_000)
        options = {**options, "only_ranged": True}
    server.fault(kind, path=path, **options)
    data = tmp_path / "data"
    install_all_over_http(data, release, policy)
    _check_installed(data, release)
    assert any(r.fault == kind for r in server.requests)


FATAL = [
    ("status", {"status": 503, "times": -1}, "giving up"),
    ("status", {"status": 404, "times": -1}, "HTTP 404"),
    ("corrupt", {"after": 5, "times": -1}, r"does not match the manifest|not valid zstd data"),
    ("drop", {"after": 0, "times": -1}, "giving up"),
]


@pytest.mark.parametrize(("kind", "options", "message"), FATAL, ids=["503", "404", "bytes", "drop"])
def test_fatal_fault_leaves_previous_install_untouched(
    server: Any,
    upgrade: Any,
    policy: DownloadPolicy,
    kind: str,
    options: dict[str, Any],
    message: str,
) -> None:
    old, new, data = upgrade.old, upgrade.new, upgrade.data
    before = _snapshot(data)
    target = new.parts_of("fr.lexical")[-1]["path"]
    server.fault(kind, path=f"{new.name}/{target}", **options)
    with pytest.raises(StoreError, match=message) as info:
        install_all_over_http(data, new, policy)
    assert info.value.fix  # every error says what to run
    _check_installed(data, old)
    after = _snapshot(data)
    # Objects of the new release may have been added; nothing old changed or vanished.
    assert {k: v for k, v in after.items() if k in before} == before
    assert after.keys() - before.keys() <= {k for k in after if k.startswith("objects/")}


def test_mirror_serving_another_manifest_is_refused(
    server: Any, make_release: Any, policy: DownloadPolicy, tmp_path: Path
) -> None:
    genuine = make_release("net-1.0.0", seed=1)
    # A mirror rewrote the manifest (same version, its own part digests).
    body = json.loads((genuine.dir / "manifest.json").read_bytes())
    body["notes"] = "mirrored"
    (genuine.dir / "manifest.json").write_text(json.dumps(body))
    data = tmp_path / "data"
    with pytest.raises(TrustError, match=r"not the .* you asked for"):
        install_all_over_http(data, genuine, policy)
    with pytest.raises(TrustError, match="pinned to manifest"):
        ops.install(
            data_dir=data,
            source=HttpSource(genuine.manifest_url, policy=policy),
            all_languages=True,
            pins={genuine.version: genuine.digest},
        )
    # Refused on the manifest alone: not one part was requested, nothing activated.
    assert {r.path.rsplit("/", 1)[-1] for r in server.requests} == {"manifest.json"}
    assert not (data / "current").exists()


def test_base_url_points_parts_elsewhere(
    server: Any, release: Any, served: Path, policy: DownloadPolicy, tmp_path: Path
) -> None:
    # The publisher keeps manifests in one place and parts under base_url.
    meta = served / "meta"
    meta.mkdir()
    body = json.loads((release.dir / "manifest.json").read_bytes())
    body["base_url"] = f"../{release.name}/"
    raw = json.dumps(body).encode()
    (meta / "manifest.json").write_bytes(raw)
    from lexicon_store.digests import digest_bytes

    data = tmp_path / "data"
    ops.install(
        data_dir=data,
        source=HttpSource(f"{server.url}/meta/manifest.json", policy=policy),
        languages=["fr"],
        manifest_digest=digest_bytes(raw),
    )
    assert {r.path.split("/", 1)[0] for r in server.requests} == {"meta", release.name}
    assert dict(load_active(data).installed) == {"fr": {"lexical"}}


def test_add_language_and_repair_over_http(
    server: Any, release: Any, policy: DownloadPolicy, tmp_path: Path
) -> None:
    from lexicon_store.integrity import repair

    data = tmp_path / "data"
    ops.install(
        data_dir=data,
        source=HttpSource(release.manifest_url, policy=policy),
        languages=["fr"],
        manifest_digest=release.digest,
    )
    server.clear()
    ops.add_language(
        data_dir=data,
        languages=["en"],
        capabilities=["lexical"],
        source=HttpSource(release.manifest_url, policy=policy),
    )
    # Only the new component's parts were downloaded.
    got = {r.path.rsplit("/", 1)[-1] for r in server.requests} - {"manifest.json"}
    assert got == {p["path"] for p in release.parts_of("en.lexical")}
    _check_installed(data, release)

    damaged = load_active(data).files["en/lexical.sqlite"]
    damaged.chmod(0o644)
    damaged.write_bytes(b"rot" + damaged.read_bytes()[3:])
    assert not verify(data).ok
    server.clear()
    result = repair(source=HttpSource(release.manifest_url, policy=policy), data_dir=data)
    assert result.after.ok
    got = {r.path.rsplit("/", 1)[-1] for r in server.requests} - {"manifest.json"}
    assert got == {p["path"] for p in release.parts_of("en.lexical")}
    _check_installed(data, release)


def test_wrong_bytes_once_fail_cleanly_and_the_rerun_heals(
    server: Any, upgrade: Any, policy: DownloadPolicy
) -> None:
    old, new, data = upgrade.old, upgrade.new, upgrade.data
    target = new.parts_of("en.lexical")[1]["path"]
    server.fault("corrupt", path=f"{new.name}/{target}", after=1000)
    # The store hashes every downloaded part while decompressing it: a flipped byte is an
    # integrity error, the bad file is deleted, and the old selection stays active.
    with pytest.raises(IntegrityError, match=r"does not match the manifest|not valid zstd data"):
        install_all_over_http(data, new, policy)
    _check_installed(data, old)
    assert not any(
        p.name.startswith(new.parts_of("en.lexical")[1]["digest"][7:])
        for p in (data / "tmp" / "parts").iterdir()
    )
    server.clear()
    install_all_over_http(data, new, policy)
    _check_installed(data, new)
    # Only the damaged part was fetched again; finished parts were kept.
    assert any(r.path.endswith(target) for r in server.requests)
    assert server.bytes_sent() < new.part_bytes


def test_prune_clears_partials_of_a_failed_download(
    server: Any, release: Any, policy: DownloadPolicy, tmp_path: Path
) -> None:
    from lexicon_store.gc import prune

    data = tmp_path / "data"
    target = release.parts_of("fr.lexical")[0]
    server.fault("drop", path=f"{release.name}/{target['path']}", after=10_000)
    server.fault("status", path=f"{release.name}/{target['path']}", status=404, only_ranged=True)
    with pytest.raises(StoreError, match="HTTP 404"):
        ops.install(
            data_dir=data,
            source=HttpSource(release.manifest_url, policy=policy),
            languages=["fr"],
            manifest_digest=release.digest,
        )
    left = {p.name for p in (data / "tmp" / "parts").iterdir()}
    hx = target["digest"][7:]
    assert {f"{hx}.partial.partial", f"{hx}.partial.partial.json"} <= left
    plan = prune(data, dry_run=True)
    assert data / "tmp" / "parts" in {path for path, _ in plan.temporary}
    assert (data / "tmp" / "parts").exists()  # a dry run deletes nothing
    prune(data)
    assert not any((data / "tmp").rglob("*.partial*"))
