"""The store's one hashing module: BLAKE3 digests as written in manifests and object
names (``blake3:<64 hex>``), plus the sha256 a download may be checked against."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Protocol

import blake3

from .errors import ManifestError, SourceError

__all__ = [
    "ALGORITHM",
    "Hasher",
    "digest_bytes",
    "digest_file",
    "file_digest",
    "format_digest",
    "hex_of",
    "new_hasher",
]

ALGORITHM = "blake3"
_DIGEST = re.compile(r"^([A-Za-z0-9_-]+):([0-9a-f]+)$")
_CHUNK = 1 << 20


class Hasher(Protocol):
    def update(self, data: bytes | memoryview, /) -> object: ...
    def hexdigest(self) -> str: ...


def new_hasher(algorithm: str = ALGORITHM) -> Hasher:
    """A streaming hasher for ``algorithm`` (``blake3`` or ``sha256``)."""
    if algorithm == ALGORITHM:
        hasher: Hasher = blake3.blake3()
        return hasher
    if algorithm == "sha256":
        return hashlib.sha256()
    raise SourceError(
        f"unknown digest algorithm {algorithm!r} (supported: blake3, sha256)",
        fix="upgrade lexicon to a version that reads this release",
    )


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


def digest_file(path: Path, algorithm: str = ALGORITHM) -> tuple[str, int]:
    """(``"<algorithm>:<hex>"``, size) of a file, read in 1 MiB chunks."""
    hasher = new_hasher(algorithm)
    size = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            hasher.update(chunk)
            size += len(chunk)
    return f"{algorithm}:{hasher.hexdigest()}", size


def file_digest(path: Path, algorithm: str = ALGORITHM) -> str:
    """``"<algorithm>:<hex>"`` of a file's bytes."""
    return digest_file(path, algorithm)[0]
