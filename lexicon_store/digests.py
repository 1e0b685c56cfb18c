"""BLAKE3 digests as written in manifests and object names: ``blake3:<64 hex>``."""

from __future__ import annotations

import re
from pathlib import Path

import blake3

from .errors import ManifestError

__all__ = ["ALGORITHM", "digest_bytes", "digest_file", "format_digest", "hex_of", "new_hasher"]

ALGORITHM = "blake3"
_DIGEST = re.compile(r"^([A-Za-z0-9_-]+):([0-9a-f]+)$")
_CHUNK = 1 << 20


def new_hasher() -> blake3.blake3:
    return blake3.blake3()


def format_digest(hexdigest: str) -> str:
    return f"{ALGORITHM}:{hexdigest}"


def hex_of(digest: object, where: str = "digest") -> str:
    """The hex part of a ``blake3:<hex>`` digest; anything else is a ManifestError."""
    match = _DIGEST.match(digest) if isinstance(digest, str) else None
    if match is None:
        raise ManifestError(f"{where}: {digest!r} is not of the form 'blake3:<64 hex digits>'")
    algorithm, hexdigest = match.groups()
    if algorithm != ALGORITHM:
        raise ManifestError(
            f"{where}: unknown digest algorithm {algorithm!r} (only {ALGORITHM!r} is accepted)"
        )
    if len(hexdigest) != 64:
        raise ManifestError(f"{where}: {digest!r} must have 64 hex digits")
    return hexdigest


def digest_bytes(data: bytes) -> str:
    return format_digest(blake3.blake3(data).hexdigest())


def digest_file(path: Path) -> tuple[str, int]:
    """(digest, size) of a file, read in 1 MiB chunks."""
    hasher = blake3.blake3()
    size = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            hasher.update(chunk)
            size += len(chunk)
    return format_digest(hasher.hexdigest()), size
