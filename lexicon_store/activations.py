"""Activation records and the ``current`` pointer: the store's only commit point."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .crash import crash_point
from .digests import digest_bytes, hex_of
from .errors import NotInstalled
from .fsutil import atomic_write_bytes, ensure_dirs, fsync_dir, open_nofollow, regular_file
from .layout import DataDir
from .manifest import Component, Manifest
from .selection import (
    ACTIVATION_FORMAT,
    POINTER_FORMAT,
    ActiveSelection,
    NoActiveSelection,
    read_activation,
)

__all__ = [
    "RecordedComponent",
    "activation_id_for",
    "current_activation_id",
    "list_activations",
    "load_record",
    "pinned_activations",
    "record_components",
    "set_pinned",
    "switch_pointer",
    "write_record",
]


@dataclass(frozen=True)
class RecordedComponent:
    id: str
    language: str | None
    capability: str
    path: str
    object: str
    size: int


def activation_id_for(manifest_digest: str, installed: Mapping[str, frozenset[str]]) -> str:
    """Same release + same selection → same id, so a rerun converges on one record."""
    canonical = json.dumps(
        {"manifest": manifest_digest, "installed": {k: sorted(v) for k, v in installed.items()}},
        sort_keys=True,
        separators=(",", ":"),
    )
    return hex_of(digest_bytes(canonical.encode("utf-8")))[:16]


def _created() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def write_record(
    data_dir: DataDir,
    *,
    dataset_version: str,
    manifest_digest: str,
    profile: str | None,
    language_names: Mapping[str, str],
    catalogue: Mapping[str, frozenset[str]],
    installed: Mapping[str, frozenset[str]],
    components: list[RecordedComponent],
    source: str | None = None,
) -> str:
    """Write the activation record (once; an existing one is never rewritten). Returns its id.

    ``source`` is the ``--from`` the selection came from, for the fix commands errors print.
    """
    activation_id = activation_id_for(manifest_digest, installed)
    path = data_dir.record_path(activation_id)
    if path.exists():
        return activation_id
    body: dict[str, Any] = {
        "format": ACTIVATION_FORMAT,
        "activation_id": activation_id,
        "created": _created(),
        "dataset_version": dataset_version,
        "manifest_digest": manifest_digest,
        "profile": profile,
        "source": source,
        "languages": {
            code: {"name": language_names[code], "capabilities": sorted(catalogue[code])}
            for code in sorted(catalogue)
        },
        "installed": {code: sorted(caps) for code, caps in sorted(installed.items())},
        "components": [
            {
                "id": c.id,
                "language": c.language,
                "capability": c.capability,
                "path": c.path,
                "object": c.object,
                "size": c.size,
            }
            for c in components
        ],
    }
    ensure_dirs(data_dir.root, "activations")
    atomic_write_bytes(path, (json.dumps(body, indent=1) + "\n").encode("utf-8"))
    return activation_id


def record_components(manifest: Manifest, chosen: list[Component]) -> list[RecordedComponent]:
    return [
        RecordedComponent(c.id, c.language, c.capability, c.path, c.object.digest, c.object.size)
        for c in chosen
    ]


def load_record(data_dir: DataDir, activation_id: str) -> tuple[ActiveSelection, dict[str, Any]]:
    """A retained activation, as the reader sees it plus the raw record body."""
    if not activation_id.isalnum():
        raise NotInstalled(f"{activation_id!r} is not an activation id")
    path = data_dir.record_path(activation_id)
    if not path.exists():
        raise NotInstalled(
            f"activation {activation_id} is not retained in {data_dir.root}",
            fix="list the retained ones with `lexicon-data activations`",
        )
    try:
        selection = read_activation(data_dir.root, activation_id)
    except NoActiveSelection as exc:
        raise NotInstalled(exc.detail) from None
    body = json.loads(path.read_text(encoding="utf-8"))
    return selection, body


def current_activation_id(data_dir: DataDir) -> str | None:
    try:
        body = json.loads(data_dir.current.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    if not isinstance(body, dict) or body.get("format") != POINTER_FORMAT:
        return None
    value = body.get("activation")
    return value if isinstance(value, str) else None


def list_activations(data_dir: DataDir) -> list[ActiveSelection]:
    """Every retained activation, oldest first."""
    found: list[ActiveSelection] = []
    if not data_dir.activations.is_dir():
        return found
    for path in data_dir.activations.glob("*.json"):
        try:
            found.append(read_activation(data_dir.root, path.stem))
        except NoActiveSelection:
            continue  # unreadable or foreign file: not an activation we can offer
    found.sort(key=lambda s: (s.created, s.activation_id))
    return found


def pinned_activations(data_dir: DataDir) -> set[str]:
    if not data_dir.pinned.is_dir():
        return set()
    return {p.name for p in data_dir.pinned.iterdir() if p.name.isalnum()}


def set_pinned(data_dir: DataDir, activation_id: str, pinned: bool) -> None:
    """Mark (or unmark) a retained activation as one prune must keep. Caller holds the lock."""
    load_record(data_dir, activation_id)  # must exist
    marker = data_dir.pinned / activation_id
    if pinned:
        ensure_dirs(data_dir.root, "pinned")
        if not marker.exists():
            atomic_write_bytes(marker, b"")
    elif marker.exists():
        marker.unlink()
        fsync_dir(data_dir.pinned)


def switch_pointer(data_dir: DataDir, activation_id: str) -> None:
    """Atomically point ``current`` at ``activation_id`` (whose record must already exist)."""
    data = json.dumps({"format": POINTER_FORMAT, "activation": activation_id}).encode("ascii")
    tmp = data_dir.root / f".current.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    regular_file(data_dir.current)
    with os.fdopen(open_nofollow(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL), "wb") as handle:
        handle.write(data + b"\n")
        handle.flush()
        os.fsync(handle.fileno())
    crash_point("pointer.tmp_written")
    os.replace(tmp, data_dir.current)
    fsync_dir(data_dir.root)
