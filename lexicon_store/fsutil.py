"""Durable file operations: the write → fsync → rename → fsync-directory sequence."""

from __future__ import annotations

import ctypes
import functools
import os
import secrets
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "atomic_write_bytes",
    "fsync_dir",
    "fsync_file",
    "make_read_only",
    "start_writeback",
]

_SYNC_FILE_RANGE_WRITE = 2


def fsync_dir(path: Path) -> None:
    """Make a rename or unlink in ``path`` durable."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def make_read_only(path: Path) -> None:
    os.chmod(path, 0o444)


def atomic_write_bytes(path: Path, data: bytes, *, mode: int = 0o644) -> None:
    """Replace ``path`` with ``data`` so readers see the old bytes or the new, never a mix."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
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
