"""The store's one exception base; every error says what failed and the command that fixes it.

``os_error`` is the one place an ``OSError`` becomes a store error: its errno decides
the class (and so the exit code) and the fix.
"""

from __future__ import annotations

import errno
from pathlib import Path

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
    "UnsafePath",
    "os_error",
]

# Every error carries a fix; these are the fallbacks where the raiser knows no better one.
_DEFAULT_FIX = "rerun the command; if it fails the same way, report the message above"


class StoreError(Exception):
    """Base of every lexicon_store error. ``fix`` is a command (or action) that resolves it."""

    exit_code = 1
    default_fix: str | None = _DEFAULT_FIX

    def __init__(self, message: str, fix: str | None = None) -> None:
        self.message = message
        self.fix = fix or self.default_fix
        super().__init__(message if self.fix is None else f"{message}\n  fix: {self.fix}")


class ManifestError(StoreError, ValueError):
    """A manifest (or built dataset description) is malformed or unsafe."""

    exit_code = 3
    default_fix = "get the release again from its publisher; this manifest cannot be used"


class TrustError(StoreError):
    """The release is not the one this code release pins, or is unpinned and not accepted."""

    exit_code = 4
    default_fix = "check where the release came from, or pass the digest its publisher gave"


class IntegrityError(StoreError):
    """Bytes do not match the digest or size the manifest promises."""

    exit_code = 5
    default_fix = "copy or fetch the release again; its bytes were damaged or tampered with"


class CorruptObject(IntegrityError):
    """An installed object is missing, truncated or altered."""


class SourceError(StoreError):
    """A release source cannot supply something (missing part, unsupported --from)."""

    exit_code = 6
    default_fix = "check the --from path or URL (or LEXICON_MANIFEST_URL), then rerun"


class SelectionError(StoreError, LookupError):
    """A requested language or capability cannot be selected; ``reason`` is one of the four."""

    exit_code = 2
    default_fix = "see `lexicon-data languages` for what the release carries"

    def __init__(self, message: str, fix: str | None = None, reason: str = "") -> None:
        super().__init__(message, fix)
        self.reason = reason


class NotInstalled(StoreError):
    """The data dir has nothing installed (or not the activation asked for)."""

    exit_code = 7
    default_fix = "list what is retained with `lexicon-data activations`"


class LockBusy(StoreError):
    """Another writer holds the data dir's lock."""

    exit_code = 8
    default_fix = "wait for the other lexicon-data process to finish, then rerun"


class InsufficientSpace(StoreError, OSError):
    """The data dir's file system cannot hold what the operation would write (checked
    before anything is written, or a write failed with ENOSPC/EDQUOT); ``needed`` and
    ``free`` are in bytes (0 when a write failed: nobody knows how much was missing)."""

    exit_code = 9
    default_fix = (
        "free space on that file system (`lexicon-data prune` frees what nothing "
        "references), then rerun"
    )

    def __init__(
        self, message: str, fix: str | None = None, *, needed: int = 0, free: int = 0
    ) -> None:
        super().__init__(message, fix)
        self.needed = needed
        self.free = free


class PublishError(StoreError):
    """Staging or publishing a release to a publication target failed or was refused."""

    exit_code = 10
    default_fix = "see docs/releasing.md for the target's set-up, then rerun"


class DownloadError(SourceError):
    """A download failed; the message names the URL and what went wrong, ``fix`` what to run."""

    def __init__(self, message: str, *, url: str | None = None, fix: str | None = None) -> None:
        super().__init__(message, fix)
        self.url = url


class DigestMismatch(DownloadError, IntegrityError):
    """The bytes served for a part do not match the size or digest the manifest pins."""

    exit_code = IntegrityError.exit_code


class UnsafePath(StoreError):
    """A link (or another kind of file) sits where the store would write a file or
    directory; the store never follows it and never writes through it."""

    exit_code = 11

    def __init__(self, path: object, found: str, fix: str | None = None) -> None:
        super().__init__(
            f"{path} is {found}, where lexicon-data writes a regular "
            "file or directory of its own; refusing to follow or replace it",
            fix or f"look at what made it and remove it (rm {path}), then rerun",
        )
        self.path = path


# errno classes: the file system is full (bytes, inodes or the user's quota) ...
_NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
# ... or refuses this user, or is mounted read-only.
_NO_ACCESS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})
_FULL = {
    errno.ENOSPC: "the file system has no free blocks or no free inodes left",
    errno.EDQUOT: "this user's disk quota (blocks or inodes) is used up",
    errno.EFBIG: "the file system refuses a file this large",
}


def os_error(
    exc: OSError,
    *,
    doing: str,
    data_dir: Path | None = None,
    rerun: str = "rerun the same command",
) -> StoreError:
    """The store error for an ``OSError`` met while ``doing`` something (e.g. "installing
    fr.lexical into /data") in ``data_dir``; ``rerun`` is what resumes the work."""
    if isinstance(exc, StoreError):
        return exc
    where = f" ({exc.filename})" if exc.filename else ""
    what = f"{doing}: {exc.strerror or exc}{where}"
    if exc.errno in _NO_SPACE:
        # Imported here: this module stays importable alone, as the stdlib-only reader needs.
        from .commands import store_command

        prune = "lexicon-data prune" if data_dir is None else store_command(data_dir, "prune")
        return InsufficientSpace(
            f"{what}; {_FULL.get(exc.errno, 'the file system is full')}",
            fix=f"free space there (`{prune}` frees what nothing references, "
            f"or use --data-dir on a larger file system), then {rerun}; "
            "nothing half-written is ever used",
        )
    if exc.errno in _NO_ACCESS:
        return StoreError(
            what,
            fix=f"give this user read and write access there (or pick another --data-dir), "
            f"then {rerun}",
        )
    if exc.errno == errno.ELOOP:
        return UnsafePath(exc.filename or doing, "a symbolic link")
    return StoreError(what, fix=f"check that file system (mounted, healthy), then {rerun}")
