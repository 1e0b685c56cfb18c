"""Reading and writing the glossary file safely.

Reads are cheap and never block: the parsed file is cached and reused while the file's
identity (device, inode, size, mtime, ctime) is unchanged. Like git's index, a file
whose mtime is within the timestamp granularity of the moment it was read may still
change without a visible stat change, so such "racy" files are compared by content.

Writes take an exclusive `flock` on the glossary's directory (a lock file next to the
glossary would show up in `git status`), re-read the file under the lock, apply the
change to what is really on disk, and replace the file atomically: temp file in the
same directory, fsync, `os.replace`, fsync of the directory. A change made by anyone
else before the lock was taken is therefore kept, never overwritten.
"""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
import stat
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from lexicon_server.glossary.errors import GlossaryError, GlossaryReadOnly
from lexicon_server.glossary.fileformat import ParsedFile, parse
from lexicon_server.glossary.index import Snapshot

__all__ = ["GlossaryFile"]

T = TypeVar("T")

_RACY_SECONDS = 2.0  # generous upper bound on file system timestamp granularity


@dataclass(frozen=True)
class _Cached:
    identity: tuple[int, ...] | None  # None: the file did not exist
    data: bytes
    read_at: float
    snapshot: Snapshot


class GlossaryFile:
    """One glossary file on disk; thread-safe, and safe against other processes that lock."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._cached: _Cached | None = None
        self._lock = threading.Lock()  # flock is per open file: threads need their own lock

    def snapshot(self) -> Snapshot:
        """The current contents, re-read only when the file changed since the last call."""
        with self._lock:
            return self._current()

    def update(self, change: Callable[[Snapshot], tuple[ParsedFile | None, T]]) -> T:
        """Run `change` on a fresh read under the lock; write the file it returns, if any.

        `change` returns (the new parsed file, or None for no write; a value to hand
        back); it may raise to abort without writing. The new file is kept as the cache,
        so a write never parses the whole file again.
        """
        with self._lock, self._locked_directory():
            self._remove_stale_temp_files()
            current = self._current(trust_stat=False)  # under the lock, trust only the bytes
            new, value = change(current)
            if new is not None:
                data = new.text.encode("utf-8")
                self._refuse_read_only()
                self._write(data)
                self._cached = _Cached(_identity(self._target()), data, time.time(), Snapshot(new))
            return value

    def _current(self, trust_stat: bool = True) -> Snapshot:
        target = self._target()
        identity = _identity(target)
        cached = self._cached
        # A missing file stays missing; otherwise trust stat unless the mtime is racy.
        if (
            trust_stat
            and cached is not None
            and cached.identity == identity
            and (identity is None or identity[3] / 1e9 < cached.read_at - _RACY_SECONDS)
        ):
            return cached.snapshot
        data = b""
        if identity is not None:
            try:
                data = target.read_bytes()
            except FileNotFoundError:  # removed between stat and read
                identity = None
        if cached is not None and cached.data == data:
            snapshot = cached.snapshot
        else:
            snapshot = Snapshot(parse(data, self.path))
        self._cached = _Cached(identity, data, time.time(), snapshot)
        return snapshot

    def _remove_stale_temp_files(self) -> None:
        # Temp files are only made under the lock, so while we hold it any that exist
        # were left by a writer that crashed; they would otherwise litter `git status`.
        target = self._target()
        for stale in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
            with contextlib.suppress(FileNotFoundError):
                stale.unlink()

    def _refuse_read_only(self) -> None:
        """Raise GlossaryReadOnly if the file may not be changed; a missing file may be made.

        No write bit at all counts as read-only even for a user (root) whom the system
        would let write: the mark is the owner's decision. The rename would replace the
        file regardless of its mode, so this is checked before anything is written.
        """
        target = self._target()
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            return
        if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(
            target, os.W_OK
        ):
            raise GlossaryReadOnly(self.path, mode)

    def _target(self) -> Path:
        # Write through a symlink to the file it names rather than replacing the link.
        return Path(os.path.realpath(self.path))

    @contextlib.contextmanager
    def _locked_directory(self) -> Iterator[None]:
        try:
            import fcntl
        except ImportError:  # Windows: no flock, and unlocked writes could lose edits
            raise GlossaryError(
                f"cannot write {self.path}: writing a glossary needs POSIX file locks "
                "(Linux or macOS); edit the file by hand, then run `lexicon-glossary check`"
            ) from None
        directory = self._target().parent
        directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(directory, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing the descriptor releases the lock

    def _write(self, data: bytes) -> None:
        target = self._target()
        try:
            mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            mode = None  # a new file: 0o666 through the umask, like any editor would create
        temp = target.parent / f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            if mode is not None:
                os.chmod(temp, mode)  # keep the file's own permissions (git tracks the x bit)
            os.replace(temp, target)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp)
            raise
        directory = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


def _identity(target: Path) -> tuple[int, ...] | None:
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
