"""Durable file operations: the write → fsync → rename → fsync-directory sequence.

Every path the store writes goes through here without following links: files are
opened with ``O_NOFOLLOW`` (and ``O_EXCL`` when new), directories below a root the user
chose are made one level at a time and checked with ``lstat``. A link planted where the
store writes is an ``UnsafePath`` naming it, never a way out of the data dir or mirror.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path

from .errors import UnsafePath

__all__ = [
    "atomic_write_bytes",
    "ensure_dirs",
    "fsync_dir",
    "fsync_file",
    "make_read_only",
    "open_nofollow",
    "regular_file",
    "start_writeback",
]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a directory"
    return "not a regular file"


def regular_file(path: Path) -> os.stat_result | None:
    """``lstat`` of ``path`` if it is a regular file, None if absent; anything else
    (a link, a directory, a fifo) is an ``UnsafePath`` naming it."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode):
        raise UnsafePath(path, _kind(info.st_mode))
    return info


def open_nofollow(path: Path, flags: int, mode: int = 0o644) -> int:
    """``os.open`` that refuses a link as the last component (UnsafePath, not ELOOP)."""
    try:
        return os.open(path, flags | _NOFOLLOW | _CLOEXEC, mode)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK) or (
            exc.errno in (errno.EISDIR, errno.ENXIO) and os.path.lexists(path)
        ):
            raise UnsafePath(path, _kind(os.lstat(path).st_mode)) from None
        raise


def ensure_dirs(root: Path, relative: str | Path) -> Path:
    """``root / relative`` as a directory, made one level at a time below ``root``
    (which the user chose and may itself be a link); a link or file on the way is an
    ``UnsafePath``, so nothing is ever written through it."""
    root.mkdir(parents=True, exist_ok=True)
    path = root
    for name in Path(relative).parts:
        path = path / name
        try:
            os.mkdir(path, 0o755)
            continue
        except FileExistsError:
            pass
        info = os.lstat(path)
        if not stat.S_ISDIR(info.st_mode):
            raise UnsafePath(path, _kind(info.st_mode))
    return path


_SYNC_FILE_RANGE_WRITE = 2


def fsync_dir(path: Path) -> None:
    """Make a rename or unlink in ``path`` durable."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_file(path: Path) -> None:
    fd = open_nofollow(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def make_read_only(path: Path) -> None:
    os.chmod(path, 0o444)


def atomic_write_bytes(path: Path, data: bytes, *, mode: int = 0o644) -> None:
    """Replace ``path`` with ``data`` so readers see the old bytes or the new, never a mix."""
    regular_file(path)  # a link or directory there is refused, not replaced
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = open_nofollow(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def start_writeback(fd: int, offset: int, length: int) -> None:
    """Start writing ``[offset, offset + length)`` to disk now, without waiting (Linux).

    Dirty pages otherwise sit in memory until the final fsync, which then waits for all
    of them; started early, the disk works while the CPU decompresses the next bytes.
    Advisory: a no-op where ``sync_file_range`` does not exist, errors ignored.
    """
    function = _sync_file_range()
    if function is not None:
        function(fd, offset, length, _SYNC_FILE_RANGE_WRITE)


@functools.cache
def _sync_file_range() -> Callable[[int, int, int, int], int] | None:
    try:
        function = ctypes.CDLL(None, use_errno=True).sync_file_range
    except (AttributeError, OSError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_uint]
    function.restype = ctypes.c_int
    result: Callable[[int, int, int, int], int] = function
    return result
