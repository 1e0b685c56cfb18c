"""The store's one exception base; every error says what failed and the command that fixes it."""

from __future__ import annotations

__all__ = [
    "CorruptObject",
    "DigestMismatch",
    "DownloadError",
    "InsufficientSpace",
    "IntegrityError",
    "LockBusy",
    "ManifestError",
    "NotInstalled",
    "PublishError",
    "SelectionError",
    "SourceError",
    "StoreError",
    "TrustError",
]


class StoreError(Exception):
    """Base of every lexicon_store error. ``fix`` is a command (or action) that resolves it."""

    exit_code = 1

    def __init__(self, message: str, fix: str | None = None) -> None:
        self.message = message
        self.fix = fix
        super().__init__(message if fix is None else f"{message}\n  fix: {fix}")


class ManifestError(StoreError, ValueError):
    """A manifest (or built dataset description) is malformed or unsafe."""

    exit_code = 3


class TrustError(StoreError):
    """The release is not the one this code release pins, or is unpinned and not accepted."""

    exit_code = 4


class IntegrityError(StoreError):
    """Bytes do not match the digest or size the manifest promises."""

    exit_code = 5


class CorruptObject(IntegrityError):
    """An installed object is missing, truncated or altered."""


class SourceError(StoreError):
    """A release source cannot supply something (missing part, unsupported --from)."""

    exit_code = 6


class SelectionError(StoreError, LookupError):
    """A requested language or capability cannot be selected; ``reason`` is one of the four."""

    exit_code = 2

    def __init__(self, message: str, fix: str | None = None, reason: str = "") -> None:
        super().__init__(message, fix)
        self.reason = reason


class NotInstalled(StoreError):
    """The data dir has nothing installed (or not the activation asked for)."""

    exit_code = 7


class LockBusy(StoreError):
    """Another writer holds the data dir's lock."""

    exit_code = 8


class InsufficientSpace(StoreError, OSError):
    """The data dir's file system cannot hold what the operation would write (checked
    before anything is written); ``needed`` and ``free`` are in bytes."""

    exit_code = 9

    def __init__(self, message: str, fix: str | None = None, *, needed: int, free: int) -> None:
        super().__init__(message, fix)
        self.needed = needed
        self.free = free


class PublishError(StoreError):
    """Staging or publishing a release to a publication target failed or was refused."""

    exit_code = 10


class DownloadError(SourceError):
    """A download failed; the message names the URL and what went wrong, ``fix`` what to run."""

    def __init__(self, message: str, *, url: str | None = None, fix: str | None = None) -> None:
        super().__init__(message, fix)
        self.url = url


class DigestMismatch(DownloadError, IntegrityError):
    """The bytes served for a part do not match the size or digest the manifest pins."""

    exit_code = IntegrityError.exit_code
