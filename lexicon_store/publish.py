"""Stage a release to a publication target, verify it by reading it back, publish its index.

Layout on a target (any static host serves it as it is)::

    <target>/index.json                     the release index, written last
    <target>/<dataset_version>/manifest.json
    <target>/<dataset_version>/<part files>
    <target>/<dataset_version>/acceptance.json   the report publication relied on

``stage_release`` writes parts first and ``manifest.json`` last, checking each asset by
reading it back (from the public URL when given) against the manifest's size and digest.
A rerun reads every asset first and uploads only what is missing or wrong.
``publish_release`` verifies every staged asset again, uploads the acceptance report, then
replaces ``index.json`` atomically: a reader sees the old index or the new one. The store
treats the report as opaque bytes; deciding that it is good enough is the builder's job.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .crash import crash_point
from .digests import digest_bytes, new_hasher
from .errors import IntegrityError, PublishError, SourceError
from .manifest import Manifest, parse_manifest
from .progress import Progress
from .targets import Reader, Target

__all__ = [
    "INDEX_FORMAT",
    "Asset",
    "StageResult",
    "publish_release",
    "read_index",
    "release_assets",
    "stage_release",
    "verify_staged",
]

INDEX_FORMAT = 1
INDEX_NAME = "index.json"


@dataclass(frozen=True)
class Asset:
    name: str  # path on the target, '<version>/<file>'
    local: Path
    size: int
    digest: str


@dataclass(frozen=True)
class StageResult:
    dataset_version: str
    manifest_digest: str
    uploaded: tuple[str, ...]
    reused: tuple[str, ...]
    verified_by: str  # where the read-back came from


def _load(release_dir: Path) -> tuple[bytes, Manifest]:
    path = release_dir / "manifest.json"
    if not path.is_file():
        raise SourceError(
            f"{release_dir} has no manifest.json, so it is not a complete release",
            fix=f"lexicon-data package BUILT_DIR --dest {release_dir}",
        )
    data = path.read_bytes()
    return data, parse_manifest(data, digest_bytes(data))


def release_assets(release_dir: Path) -> tuple[list[Asset], Asset, Manifest]:
    """The parts of a local release (in manifest order) and its manifest, as assets."""
    data, manifest = _load(release_dir)
    prefix = manifest.dataset_version
    parts: list[Asset] = []
    seen: set[str] = set()
    for component in manifest.components:
        for part in component.parts:
            if part.path in seen:
                continue
            seen.add(part.path)
            parts.append(
                Asset(f"{prefix}/{part.path}", release_dir / part.path, part.size, part.digest)
            )
    top = Asset(
        f"{prefix}/manifest.json", release_dir / "manifest.json", len(data), digest_bytes(data)
    )
    return parts, top, manifest


def _check(reader: Reader, asset: Asset) -> str | None:
    """None when the published bytes match ``asset``, else what is wrong."""
    stream = reader.read(asset.name)
    if stream is None:
        return "missing"
    hasher, size = new_hasher(), 0
    for block in stream:
        size += len(block)
        if size > asset.size:
            return f"longer than the {asset.size} bytes the manifest gives"
        hasher.update(block)
    if size != asset.size:
        return f"{size} bytes, the manifest gives {asset.size}"
    got = "blake3:" + hasher.hexdigest()
    return None if got == asset.digest else f"digest {got}, the manifest gives {asset.digest}"


def _upload(target: Target, reader: Reader, asset: Asset) -> None:
    target.put(asset.name, asset.local)
    wrong = _check(reader, asset)
    if wrong is not None:
        raise IntegrityError(
            f"{asset.name} read back from {reader.description} is wrong after upload ({wrong})",
            fix="check what the server (or a cache in front of it) serves, then rerun",
        )


def stage_release(
    release_dir: Path,
    target: Target,
    reader: Reader,
    progress: Progress | None = None,
) -> StageResult:
    """Upload what ``reader`` does not already serve correctly; parts first, manifest last."""
    parts, top, manifest = release_assets(release_dir)
    remote = reader.read(top.name)
    if remote is not None:
        held = b"".join(remote)
        if digest_bytes(held) != top.digest:
            raise PublishError(
                f"{reader.description} already holds another manifest for "
                f"{manifest.dataset_version} ({digest_bytes(held)}); releases are immutable",
                fix="give the new build its own dataset version, then stage that",
            )
    uploaded: list[str] = []
    reused: list[str] = []
    total = sum(a.size for a in parts) + top.size
    for asset in [*parts, top]:
        if _check(reader, asset) is None:
            reused.append(asset.name)
        else:
            _upload(target, reader, asset)
            uploaded.append(asset.name)
            crash_point("stage.after_part")
        if progress is not None:
            progress("stage", asset.size, total)
    return StageResult(
        manifest.dataset_version, top.digest, tuple(uploaded), tuple(reused), reader.description
    )


def verify_staged(release_dir: Path, reader: Reader) -> list[tuple[str, str]]:
    """Every asset of the release as ``reader`` serves it: (name, what is wrong) pairs."""
    parts, top, _ = release_assets(release_dir)
    problems: list[tuple[str, str]] = []
    for asset in [*parts, top]:
        wrong = _check(reader, asset)
        if wrong is not None:
            problems.append((asset.name, wrong))
    return problems


def read_index(reader: Reader) -> dict[str, Any]:
    """The published index, or an empty one where none exists yet."""
    stream = reader.read(INDEX_NAME)
    if stream is None:
        return {"format": INDEX_FORMAT, "releases": []}
    try:
        body = json.loads(b"".join(stream))
    except ValueError as exc:
        raise PublishError(
            f"{reader.description}/{INDEX_NAME} is not JSON ({exc})",
            fix="restore the index from the target's backup before publishing again",
        ) from None
    if not isinstance(body, dict) or body.get("format") != INDEX_FORMAT:
        raise PublishError(
            f"{reader.description}/{INDEX_NAME} is not a format {INDEX_FORMAT} release index",
            fix="publish to a target of its own, or upgrade lexicon",
        )
    return body


def publish_release(
    release_dir: Path,
    target: Target,
    reader: Reader,
    report: bytes,
    progress: Progress | None = None,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> dict[str, Any]:
    """Verify every staged asset, upload ``report``, then write the index last. Returns the
    index entry for this release."""
    _parts, top, manifest = release_assets(release_dir)
    problems = verify_staged(release_dir, reader)
    if problems:
        name, wrong = problems[0]
        raise IntegrityError(
            f"{len(problems)} staged assets do not match the manifest; first: {name} ({wrong})",
            fix=f"stage again: lexicon-build stage {release_dir} --to {target.description}",
        )
    version = manifest.dataset_version
    index = read_index(reader)
    releases = [r for r in index.get("releases", []) if isinstance(r, dict)]
    for entry in releases:
        if entry.get("dataset_version") == version and entry.get("manifest_digest") != top.digest:
            raise PublishError(
                f"{version} is already published with manifest {entry.get('manifest_digest')}; "
                "releases are immutable",
                fix="give the new build its own dataset version",
            )
    report_name = f"{version}/acceptance.json"
    target.put(report_name, report)
    entry = {
        "dataset_version": version,
        "profile": manifest.profile,
        "manifest": top.name,
        "manifest_digest": top.digest,
        "acceptance_report": report_name,
        "acceptance_report_digest": digest_bytes(report),
        "published": now().strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    previous = next((r for r in releases if r.get("dataset_version") == version), None)
    if previous is not None:
        entry["published"] = previous.get("published", entry["published"])
    releases = [r for r in releases if r.get("dataset_version") != version] + [entry]
    body = {"format": INDEX_FORMAT, "releases": releases}
    crash_point("publish.before_index")
    target.put(INDEX_NAME, (json.dumps(body, indent=1, sort_keys=True) + "\n").encode("utf-8"))
    if progress is not None:
        progress("publish", 1, 1)
    return entry
