"""Reader leases: a running reader (the MCP server) is a GC root for as long as it lives.

Standard library only, like ``selection``: the server imports it.

A lease is a small JSON file ``<data_dir>/leases/<pid>-<random>.lease`` naming the objects
one reader serves, plus a shared ``flock`` on it that the reader holds until it exits.
The kernel drops the lock when the process dies, however it dies (kill -9 included), so a
lease is live exactly while its lock is held; a file left behind by a dead reader is
recognised as stale and removed by the next ``prune``. (The same idea as Nix's temporary
GC roots and uv's shared cache lock.)

The file is written under a temporary name, locked, then renamed, so every ``*.lease``
name a prober sees is locked from the moment it exists.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import secrets
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .selection import ActiveSelection

__all__ = [
    "LEASE_FORMAT",
    "Lease",
    "ReaderLease",
    "hold_lease",
    "leases_dir",
    "live_leases",
    "try_exclusive_lock",
]

LEASE_FORMAT = 1
_SUFFIX = ".lease"
_TEMPORARY_GRACE_S = 60.0


def try_exclusive_lock(fd: int) -> bool:
    """Take `fd`'s exclusive `flock` without waiting; False when another process holds it."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise
        return False
    return True


def leases_dir(data_dir: Path) -> Path:
    return Path(data_dir) / "leases"


@dataclass(frozen=True)
class ReaderLease:
    """A live reader as ``prune`` and ``status`` see it."""

    path: Path
    pid: int
    program: str
    activation_id: str
    started: str
    objects: frozenset[str]  # hex names of the objects it serves


class Lease:
    """A lease this process holds; ``release()`` (or exiting the process) ends it."""

    def __init__(self, fd: int, path: Path, activation_id: str) -> None:
        self._fd: int | None = fd
        self.path = path
        self.activation_id = activation_id

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        # Unlink while still locked, so no prober can mistake the file for a stale one
        # that it should delete after we have gone.
        try:
            self.path.unlink(missing_ok=True)
        finally:
            os.close(fd)

    def __enter__(self) -> Lease:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.release()


def _object_names(selection: ActiveSelection) -> list[str]:
    names = {path.name for path in selection.files.values()}
    names.add(selection.manifest_digest.partition(":")[2])
    return sorted(names)


def hold_lease(selection: ActiveSelection, program: str | None = None) -> Lease:
    """Take a lease on what ``selection`` serves. Raises OSError when the data dir is not
    writable (the caller decides whether to serve without one)."""
    folder = leases_dir(selection.data_dir)
    folder.mkdir(mode=0o755, exist_ok=True)
    name = f"{os.getpid()}-{secrets.token_hex(4)}"
    temporary = folder / f".{name}.tmp"
    final = folder / f"{name}{_SUFFIX}"
    body = {
        "format": LEASE_FORMAT,
        "pid": os.getpid(),
        "program": program or Path(sys.argv[0]).name or "python",
        "activation": selection.activation_id,
        "started": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "objects": _object_names(selection),
    }
    fd = os.open(temporary, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
        os.write(fd, json.dumps(body, separators=(",", ":")).encode("utf-8"))
        os.rename(temporary, final)
    except BaseException:
        os.close(fd)
        temporary.unlink(missing_ok=True)
        raise
    return Lease(fd, final, selection.activation_id)


def _read(path: Path, fd: int) -> ReaderLease | None:
    try:
        size = os.fstat(fd).st_size
        body = json.loads(os.pread(fd, size, 0).decode("utf-8"))
        if not isinstance(body, dict) or body.get("format") != LEASE_FORMAT:
            return None
        return ReaderLease(
            path=path,
            pid=int(body["pid"]),
            program=str(body.get("program", "")),
            activation_id=str(body["activation"]),
            started=str(body.get("started", "")),
            objects=frozenset(str(name) for name in body["objects"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _age(fd: int) -> float:
    return time.time() - os.fstat(fd).st_mtime


def live_leases(data_dir: Path, *, reap: bool = False) -> list[ReaderLease]:
    """The leases whose holder is alive. With ``reap``, delete those whose holder is gone
    (only a caller holding the writer lock should reap).

    A live lease whose file cannot be parsed is reported with no objects and activation
    ``"?"``, never dropped: an unknown reader still holds its lock.
    """
    folder = leases_dir(data_dir)
    if not folder.is_dir():
        return []
    found: list[ReaderLease] = []
    for path in sorted(folder.iterdir()):
        is_lease = path.name.endswith(_SUFFIX)
        is_temporary = path.name.startswith(".") and path.name.endswith(".tmp")
        if not (is_lease or is_temporary):
            continue
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            continue  # released while we looked
        try:
            if not try_exclusive_lock(fd):
                if is_lease:
                    lease = _read(path, fd)
                    found.append(lease or ReaderLease(path, -1, "?", "?", "", frozenset()))
                continue
            # We got the lock: nobody holds it, so the holder is gone. (A temporary file
            # is locked just after it is created: a young one may be a reader starting.)
            if reap and (is_lease or _age(fd) > _TEMPORARY_GRACE_S):
                path.unlink(missing_ok=True)
        finally:
            os.close(fd)
    return found
