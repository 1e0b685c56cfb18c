"""Turn a built dataset directory into a release directory (manifest.json + .zst parts).

Input format: docs/architecture.md section 1. Output format: docs/release-format.md.
Parts are written first, each through a temporary file, and manifest.json last, so an
interrupted run never leaves a manifest that promises missing parts.
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import zstandard

from .digests import Hasher, digest_bytes, digest_file, format_digest, new_hasher
from .errors import ManifestError, StoreError
from .fsutil import atomic_write_bytes, fsync_dir
from .manifest import (
    MANIFEST_FORMAT,
    MAX_PART_SIZE,
    Component,
    Manifest,
    check_relative_path,
    parse_manifest,
)
from .progress import Progress, no_progress
from .selection import CAPABILITIES

__all__ = ["DEFAULT_PART_SIZE", "PackageResult", "package_release"]

# Uncompressed bytes per part. zstd never grows data by more than a few bytes per
# 128 KiB block, so 768 MiB of input always compresses to well under 1 GiB.
DEFAULT_PART_SIZE = 768 << 20
_READ = 4 << 20
DATASET_FORMAT = 1
_PART_NAME = re.compile(r"^[A-Za-z0-9._-]+\.\d{3}\.zst$")
_TMP_NAME = re.compile(r"^\.[A-Za-z0-9._-]+\.\d{3}\.zst\.tmp$")


@dataclass(frozen=True)
class PackageResult:
    release_dir: Path
    manifest_path: Path
    manifest_digest: str
    manifest: Manifest
    compressed_bytes: int
    object_bytes: int
    reused: tuple[str, ...] = ()  # components whose parts from an earlier run were kept


def _load_dataset(built_dir: Path) -> dict[str, Any]:
    path = built_dir / "dataset.json"
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ManifestError(
            f"{path} does not exist: {built_dir} is not a built dataset directory",
            fix="build one first, e.g. `lexicon-build starter`",
        ) from None
    except ValueError as exc:
        raise ManifestError(f"{path} is not valid JSON ({exc})") from None
    if not isinstance(body, dict) or body.get("format") != DATASET_FORMAT:
        raise ManifestError(f"{path}: format must be {DATASET_FORMAT}")
    for key in ("dataset_version", "languages", "components"):
        if key not in body:
            raise ManifestError(f"{path}: missing {key!r}")
    return body


def _part_name(component_id: str, index: int) -> str:
    return f"{component_id}.{index:03d}.zst"


def _write_parts(
    source: Path,
    dest: Path,
    component_id: str,
    part_size: int,
    cctx: zstandard.ZstdCompressor,
    progress: Progress,
    total: int,
) -> tuple[str, int, list[dict[str, Any]]]:
    """Compress ``source`` into parts; returns (object digest, object size, part entries)."""
    object_hasher = new_hasher()
    object_size = 0
    parts: list[dict[str, Any]] = []
    size = source.stat().st_size
    with open(source, "rb") as src:
        index = 0
        while index == 0 or object_size < size:
            name = _part_name(component_id, index)
            final = dest / name
            tmp = dest / f".{name}.tmp"
            want = min(part_size, size - object_size)
            part_hasher = new_hasher()
            with open(tmp, "wb") as out:
                # The hashing writer sees exactly the bytes that land in the part file.
                writer = cctx.stream_writer(
                    _HashingFile(out, part_hasher),  # type: ignore[arg-type]
                    size=want,
                    closefd=False,
                )
                left = want
                while left:
                    chunk = src.read(min(_READ, left))
                    if not chunk:
                        raise StoreError(f"{source} shrank while it was being packaged")
                    writer.write(chunk)
                    object_hasher.update(chunk)
                    left -= len(chunk)
                    progress("package", len(chunk), total)
                writer.flush(zstandard.FLUSH_FRAME)
                out.flush()
                os.fsync(out.fileno())
                compressed = out.tell()
            if compressed >= MAX_PART_SIZE:
                tmp.unlink()
                raise StoreError(
                    f"part {name} compressed to {compressed} bytes, not under 1 GiB",
                    fix="package again with a smaller --part-size",
                )
            os.replace(tmp, final)
            parts.append(
                {"path": name, "digest": format_digest(part_hasher.hexdigest()), "size": compressed}
            )
            object_size += want
            index += 1
    return format_digest(object_hasher.hexdigest()), object_size, parts


class _HashingFile:
    """A write-only file wrapper that hashes what passes through it."""

    def __init__(self, raw: Any, hasher: Hasher) -> None:
        self._raw = raw
        self._hasher = hasher

    def write(self, data: bytes) -> int:
        self._hasher.update(data)
        written: int = self._raw.write(data)
        return written

    def flush(self) -> None:
        self._raw.flush()


def _previous(dest: Path) -> dict[str, Component]:
    """Components of a release already in ``dest`` (empty if none or unreadable)."""
    try:
        data = (dest / "manifest.json").read_bytes()
        return {c.id: c for c in parse_manifest(data, digest_bytes(data)).components}
    except (OSError, ManifestError):
        return {}


def _reusable(old: Component | None, path: Path, dest: Path, part_size: int) -> bool:
    """True when ``old``'s parts in ``dest`` already hold exactly the bytes of ``path``."""
    if old is None:
        return False
    size = path.stat().st_size
    if old.object.size != size or len(old.parts) != max(1, -(-size // part_size)):
        return False
    for part in old.parts:
        target = dest / part.path
        if not target.is_file() or target.stat().st_size != part.size:
            return False
    if digest_file(path) != (old.object.digest, old.object.size):
        return False
    return all(digest_file(dest / p.path) == (p.digest, p.size) for p in old.parts)


def package_release(
    built_dir: Path,
    dest: Path,
    *,
    part_size: int = DEFAULT_PART_SIZE,
    level: int = 3,
    progress: Progress = no_progress,
) -> PackageResult:
    """Write a release for ``built_dir`` into ``dest`` (created if needed).

    Rerunning on an unchanged component keeps its parts from the earlier run (after
    checking the input's and the parts' digests) instead of compressing it again.
    """
    built_dir = Path(built_dir)
    dest = Path(dest)
    if part_size <= 0 or part_size > DEFAULT_PART_SIZE:
        raise StoreError(f"part size must be between 1 and {DEFAULT_PART_SIZE} bytes")
    dataset = _load_dataset(built_dir)
    files = _component_files(built_dir, dataset)
    dest.mkdir(parents=True, exist_ok=True)
    previous = _previous(dest)
    # An older manifest would vouch for parts we are about to replace: remove it first.
    (dest / "manifest.json").unlink(missing_ok=True)
    cctx = zstandard.ZstdCompressor(level=level, write_checksum=False)
    total = sum(path.stat().st_size for _, path in files)
    components: list[dict[str, Any]] = []
    compressed_bytes = 0
    reused: list[str] = []
    for entry, path in files:
        cid = str(entry.get("id"))
        old = previous.get(cid)
        if old is not None and _reusable(old, path, dest, part_size):
            digest, size = old.object.digest, old.object.size
            parts: list[dict[str, Any]] = [
                {"path": p.path, "digest": p.digest, "size": p.size} for p in old.parts
            ]
            reused.append(cid)
            progress("package", size, total)
        else:
            digest, size, parts = _write_parts(path, dest, cid, part_size, cctx, progress, total)
        compressed_bytes += sum(int(p["size"]) for p in parts)
        components.append(
            {
                "id": cid,
                "language": entry.get("language"),
                "capability": entry.get("capability"),
                "path": entry["path"],
                "object": {"digest": digest, "size": size},
                "parts": parts,
            }
        )
    _remove_stale_parts(dest, {p["path"] for c in components for p in c["parts"]})
    fsync_dir(dest)
    body = _manifest_body(dataset, components)
    data = (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    digest = digest_bytes(data)
    manifest = parse_manifest(data, digest)  # never publish a manifest we would refuse
    manifest_path = dest / "manifest.json"
    atomic_write_bytes(manifest_path, data)
    return PackageResult(
        release_dir=dest,
        manifest_path=manifest_path,
        manifest_digest=digest,
        manifest=manifest,
        compressed_bytes=compressed_bytes,
        object_bytes=total,
        reused=tuple(reused),
    )


def _component_files(built_dir: Path, dataset: dict[str, Any]) -> list[tuple[dict[str, Any], Path]]:
    """Each component entry of `dataset.json` with its file, checked to be a regular file
    inside ``built_dir``."""
    entries = dataset["components"]
    if not isinstance(entries, list):
        raise ManifestError(f"{built_dir}/dataset.json: components must be a list")
    files: list[tuple[dict[str, Any], Path]] = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ManifestError(f"{built_dir}/dataset.json: components[{i}] must be an object")
        rel = check_relative_path(entry.get("path"), f"dataset.json components[{i}]")
        path = built_dir / rel
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            raise ManifestError(f"component {entry.get('id')!r}: {path} does not exist") from None
        if not stat.S_ISREG(info.st_mode):
            raise ManifestError(f"component {entry.get('id')!r}: {path} is not a regular file")
        files.append((entry, path))
    return files


def _remove_stale_parts(dest: Path, wanted: set[str]) -> None:
    """Parts of an earlier run that this release no longer uses (and temporary files of an
    interrupted one) would make the directory differ from the published layout."""
    for stale in dest.iterdir():
        ours = _PART_NAME.match(stale.name) or _TMP_NAME.match(stale.name)
        if ours and stale.name not in wanted and stale.is_file():
            stale.unlink()


def _manifest_body(dataset: dict[str, Any], components: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": MANIFEST_FORMAT,
        "dataset_version": dataset["dataset_version"],
        "profile": dataset.get("profile"),
        "schemas": dataset.get("schemas", {}),
        "languages": {
            code: {
                "name": info.get("name", code),
                "capabilities": [c for c in CAPABILITIES if c in info.get("capabilities", [])],
            }
            for code, info in sorted(dataset["languages"].items())
        },
        "components": components,
    }
