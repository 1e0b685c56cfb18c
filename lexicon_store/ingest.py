"""Parts from a release source → verified, read-only objects in the data dir.

Each object is built in this process's ingest dir: every part's compressed bytes are
hashed and checked against the manifest while they are decompressed, the output is
hashed and size-capped, and only a fully verified, fsynced, read-only file is renamed
to its content address. An object already present under its name is trusted (nothing
else ever puts a file there) if its size is right, and is not copied again. Nothing
here ever deletes an installed object: only ``prune`` does.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import mmap
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, cast

import zstandard

from .crash import crash_point
from .digests import digest_file, format_digest, hex_of, new_hasher
from .errors import IntegrityError, StoreError, os_error
from .fsutil import (
    ensure_dirs,
    fsync_dir,
    make_read_only,
    open_nofollow,
    regular_file,
    start_writeback,
)
from .layout import DataDir
from .manifest import Component, Part
from .progress import Progress, no_progress
from .source import ReleaseSource

__all__ = ["IngestStats", "ingest_components", "store_bytes"]

_READ = 1 << 20  # compressed bytes per read() zstandard asks of a part
_STEP = 2 << 20  # object bytes per buffer: small enough to stay in cache for hash + write
_ALIGN = 4096  # O_DIRECT writes: lengths in whole blocks
_BUFFERS = 4  # buffers per object: decompression runs at most this far ahead of writing
# Components are independent zstd streams, so up to this many are built at once (one
# decompressing thread each, plus its hashing thread): a single stream cannot use a
# second core, two streams can.
_MAX_WORKERS = 4


@dataclass
class IngestStats:
    """What an ingest did and where its time went (seconds, summed over threads)."""

    objects_copied: int = 0
    objects_reused: int = 0
    compressed_bytes: int = 0
    object_bytes: int = 0
    read_seconds: float = 0.0
    hash_seconds: float = 0.0
    decompress_seconds: float = 0.0
    write_seconds: float = 0.0
    fsync_seconds: float = 0.0
    copied: list[str] = field(default_factory=list)

    def add(self, other: IngestStats) -> None:
        """Fold in what another worker did."""
        for name in (
            "objects_copied",
            "objects_reused",
            "compressed_bytes",
            "object_bytes",
            "read_seconds",
            "hash_seconds",
            "decompress_seconds",
            "write_seconds",
            "fsync_seconds",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.copied.extend(other.copied)


class _Cancelled(StoreError):
    """Another worker failed: stop building this object (its error is the one reported)."""

    def __init__(self) -> None:
        super().__init__("cancelled: another worker failed")


class _PartReader:
    """A part file as zstandard reads it: every byte hashed and counted on the way.

    Never hands out more than ``limit`` bytes (a part larger than its manifest says is
    refused without reading it all); ``over`` tells that this happened.
    """

    def __init__(self, handle: BinaryIO, limit: int, stats: IngestStats) -> None:
        self.hasher = new_hasher()
        self.seen = 0
        self.spent = 0.0  # seconds in read() and hashing, which zstandard calls from readinto
        self.over = False
        self._handle = handle
        self._limit = limit
        self._stats = stats

    def read(self, size: int = -1) -> bytes:
        if self.over:
            return b""
        t0 = time.perf_counter()
        data = self._handle.read(size if size > 0 else _READ)
        t1 = time.perf_counter()
        self.seen += len(data)
        if self.seen > self._limit:
            self.over = True
            return b""
        self.hasher.update(data)
        t2 = time.perf_counter()
        self._stats.read_seconds += t1 - t0
        self._stats.hash_seconds += t2 - t1
        self.spent += t2 - t0
        return data

    def drain(self) -> None:
        """Hash what zstandard did not need (bytes after the frame count too)."""
        while self.read(_READ):
            pass

    def matches(self, part: Part) -> bool:
        self.drain()
        return (
            not self.over
            and self.seen == part.size
            and format_digest(self.hasher.hexdigest()) == part.digest
        )


class _ObjectFile:
    """The object under construction: a temporary file fed through a ring of buffers.

    zstd decompresses into one of a few reused, page-aligned 2 MiB buffers; a second
    thread hashes each full buffer and writes it (``os.write``, blake3 and zstandard all
    release the GIL, so the threads overlap). Where the file system allows, the file is
    opened with ``O_DIRECT``: full, aligned buffers go straight to the disk without being
    copied into the page cache, which costs a fraction of the CPU of a buffered write;
    the unaligned tail is written buffered. Otherwise every write is buffered and its
    writeback started at once, so the final fsync has little left to wait for.
    """

    def __init__(self, path: Path, size: int, stats: IngestStats, cancel: threading.Event) -> None:
        self.size = size
        self.pos = 0  # object bytes decompressed so far
        self.cancel = cancel
        self.hasher = new_hasher()
        self.error: BaseException | None = None
        self._stats = stats
        self._hash_seconds = 0.0  # the writer thread's own tallies, added to stats at the end
        self._write_seconds = 0.0
        # A new name in this process's own ingest dir: never a link, never another's file.
        flags = os.O_WRONLY | os.O_CREAT
        direct = getattr(os, "O_DIRECT", 0)
        self.fd = -1
        if direct:
            with contextlib.suppress(OSError):  # e.g. tmpfs refuses O_DIRECT
                self.fd = open_nofollow(path, flags | os.O_EXCL | direct, 0o644)
        self._direct = self.fd >= 0
        if self.fd < 0:
            # O_DIRECT may have been refused after the file was made: truncate, not O_EXCL.
            self.fd = open_nofollow(path, flags | os.O_TRUNC, 0o644)
        # Anonymous maps: page-aligned, as O_DIRECT requires of its buffers.
        self._free: queue.Queue[mmap.mmap] = queue.Queue()
        for _ in range(_BUFFERS):
            self._free.put(mmap.mmap(-1, _STEP))
        self._all = list(self._free.queue)
        self._current: mmap.mmap | None = None
        self._fill = 0
        self._full: queue.Queue[tuple[mmap.mmap, int] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._drain, name="lexicon-ingest-write")
        self._thread.start()

    def room(self) -> memoryview:
        """Where the next decompressed bytes go (never past the declared object size)."""
        if self.error is not None:
            raise self.error
        if self.cancel.is_set():
            raise _Cancelled
        if self._current is None:
            self._current = self._free.get()
            self._fill = 0
        end = min(_STEP, self._fill + self.size - self.pos)
        return memoryview(self._current)[self._fill : end]

    def advance(self, n: int) -> None:
        """``n`` more bytes were put in ``room()``; a full buffer goes to the writer."""
        self._fill += n
        self.pos += n
        if self._fill == _STEP:
            self._submit()

    def _submit(self) -> None:
        if self._current is not None:
            self._full.put((self._current, self._fill))
            self._current = None

    def _drain(self) -> None:
        while (job := self._full.get()) is not None:
            buffer, n = job
            if self.error is None:
                try:
                    with memoryview(buffer) as whole:
                        self._hash_and_write(whole[:n])
                except BaseException as exc:  # re-raised in the caller's thread
                    self.error = exc
            self._free.put(buffer)  # always: the producer may be waiting for one

    def _hash_and_write(self, data: memoryview) -> None:
        t0 = time.perf_counter()
        self.hasher.update(data)
        t1 = time.perf_counter()
        if self._direct:
            aligned = len(data) - len(data) % _ALIGN
            try:
                _write_all(self.fd, data[:aligned])
            except OSError as exc:
                if exc.errno != errno.EINVAL:
                    raise
                # Alignment rules stricter than ours: write this and the rest buffered.
                self._buffered()
                aligned = 0
            if aligned < len(data):
                self._buffered()  # only the object's last buffer has a ragged end
                _write_all(self.fd, data[aligned:])
        else:
            _write_all(self.fd, data)
            start_writeback(self.fd, 0, 0)
        self._hash_seconds += t1 - t0
        self._write_seconds += time.perf_counter() - t1

    def _buffered(self) -> None:
        if self._direct:
            flags = fcntl.fcntl(self.fd, fcntl.F_GETFL)
            fcntl.fcntl(self.fd, fcntl.F_SETFL, flags & ~os.O_DIRECT)
            self._direct = False

    def finish(self) -> str:
        """Write what is left and wait for every write; the hex digest of the whole file."""
        if self._thread.is_alive():
            self._submit()
            self._full.put(None)
            self._thread.join()
            self._stats.hash_seconds += self._hash_seconds
            self._stats.write_seconds += self._write_seconds
        if self.error is not None:
            raise self.error
        return self.hasher.hexdigest()

    def close(self) -> None:
        with contextlib.suppress(BaseException):
            self.finish()  # stop the thread; an error in flight wins
        for buffer in self._all:
            with contextlib.suppress(BufferError):  # a view kept by a traceback: GC frees it
                buffer.close()
        os.close(self.fd)


def _write_all(fd: int, data: memoryview) -> None:
    while data:
        data = data[os.write(fd, data) :]


def _present(data_dir: DataDir, digest: str, size: int) -> bool:
    """Whether the object is in place with ``size`` bytes (a link there is refused)."""
    info = regular_file(data_dir.object_path(digest))
    return info is not None and info.st_size == size


def _check_conflict(data_dir: DataDir, component: Component) -> None:
    """An object present under this digest with another size than the manifest says.

    Content addressing makes this a contradiction: either the installed object is
    damaged (it will be rebuilt, and replaced only once the new bytes verify), or the
    manifest lies about the size, and then the installed object, which other
    activations and running servers may use, is kept and the install refused.
    """
    path = data_dir.object_path(component.object.digest)
    info = regular_file(path)
    if info is None or info.st_size == component.object.size:
        return
    try:
        actual, _size = digest_file(path)
    except PermissionError:
        return  # unreadable: damaged, so rebuilt; nothing is removed before that
    if actual == component.object.digest:
        raise IntegrityError(
            f"component {component.id}: the manifest says object {component.object.digest} "
            f"has {component.object.size} bytes, but the installed object with that digest "
            f"has {info.st_size} bytes and verifies ({path}); the manifest is inconsistent",
            fix="the installed object is kept; get this release again from its publisher "
            "(or rebuild it), then rerun",
        )


def _part_file(source: ReleaseSource, data_dir: DataDir, part: Part, progress: Progress) -> Path:
    local = source.local_part(part)
    if local is not None:
        return local
    ensure_dirs(data_dir.root, "tmp/parts")
    source.fetch_part(part, _partial_path(data_dir, part), progress)
    return _partial_path(data_dir, part)


def _partial_path(data_dir: DataDir, part: Part) -> Path:
    return data_dir.parts / f"{hex_of(part.digest)}.partial"


def _mismatch(part: Part, component: Component, reader: _PartReader) -> IntegrityError:
    what = "digest" if reader.seen == part.size and not reader.over else "size"
    return IntegrityError(
        f"part {part.path} of {component.id} does not match the manifest "
        f"({what} differs: expected {part.size} bytes with {part.digest})",
        fix="copy or fetch this release again; the part was damaged or tampered with",
    )


def _decompress_part(
    path: Path,
    part: Part,
    component: Component,
    obj: _ObjectFile,
    stats: IngestStats,
    progress: Progress,
    total: int,
) -> None:
    """Decompress one part into ``obj``, after the bytes of the parts before it.

    The part's own digest is checked once its last byte is read, before the caller
    uses anything built from it (the object's digest, checked after the last part,
    covers the decompressed bytes).
    """
    reported = 0
    with os.fdopen(open_nofollow(path, os.O_RDONLY), "rb", buffering=0) as handle:
        reader = _PartReader(handle, part.size, stats)
        # zstandard only ever calls read() on its source; the stubs ask for a full file.
        stream = zstandard.ZstdDecompressor().stream_reader(
            cast("BinaryIO", reader), read_size=_READ
        )
        try:
            while True:
                t0 = time.perf_counter()
                inner = reader.spent
                if obj.pos < obj.size:
                    with obj.room() as region:
                        n = stream.readinto(region)
                elif stream.read(1):
                    raise IntegrityError(
                        f"component {component.id} decompresses to more than the "
                        f"{obj.size} bytes its manifest declares"
                    )
                else:
                    n = 0
                # read() and its hashing run inside readinto; count them once
                stats.decompress_seconds += time.perf_counter() - t0 - (reader.spent - inner)
                if reader.seen > reported:
                    progress("install", reader.seen - reported, total)
                    stats.compressed_bytes += reader.seen - reported
                    reported = reader.seen
                if not n:
                    break
                obj.advance(n)
                crash_point("ingest.partial")
        except zstandard.ZstdError as exc:
            if not reader.matches(part):
                raise _mismatch(part, component, reader) from None
            raise IntegrityError(
                f"part {part.path} of {component.id} is not valid zstd data ({exc})",
                fix="copy or fetch this release again",
            ) from None
        except IntegrityError:
            if not reader.matches(part):
                raise _mismatch(part, component, reader) from None
            raise
        if not reader.matches(part):
            raise _mismatch(part, component, reader)
    if reader.seen > reported:
        progress("install", reader.seen - reported, total)
        stats.compressed_bytes += reader.seen - reported


def _ingest_one(
    data_dir: DataDir,
    source: ReleaseSource,
    component: Component,
    work: Path,
    stats: IngestStats,
    progress: Progress,
    total: int,
    cancel: threading.Event,
) -> None:
    final = data_dir.object_path(component.object.digest)
    tmp = work / component.object.hex
    partials: list[Path] = []
    obj = _ObjectFile(tmp, component.object.size, stats, cancel)
    done = False
    try:
        for part in component.parts:
            if cancel.is_set():
                raise _Cancelled
            path = _part_file(source, data_dir, part, progress)
            if path.parent == data_dir.parts:
                partials.append(path)
            try:
                _decompress_part(path, part, component, obj, stats, progress, total)
            except IntegrityError:
                if path.parent == data_dir.parts:
                    path.unlink(missing_ok=True)  # never let a later run trust these bytes
                raise
        digest = format_digest(obj.finish())
        written = obj.pos
        if written != component.object.size or digest != component.object.digest:
            raise IntegrityError(
                f"component {component.id} decompressed to bytes that do not match its "
                f"manifest object ({written} bytes, expected {component.object.size} with "
                f"{component.object.digest})",
                fix="the release itself is inconsistent; fetch it again or rebuild it",
            )
        t0 = time.perf_counter()
        os.fsync(obj.fd)
        stats.fsync_seconds += time.perf_counter() - t0
        done = True
    finally:
        obj.close()
        if not done:
            tmp.unlink(missing_ok=True)  # a half-built object is of no use to anyone
    make_read_only(tmp)
    crash_point("ingest.before_rename")
    data_dir.shard(component.object.digest)
    regular_file(final)  # a link or directory planted there is refused, not replaced
    # Replaces only a damaged object of this digest (see _check_conflict), and only now
    # that the new bytes are verified; readers holding the old file keep their bytes.
    os.replace(tmp, final)
    t0 = time.perf_counter()
    fsync_dir(final.parent)
    stats.fsync_seconds += time.perf_counter() - t0
    crash_point("ingest.after_rename")
    for partial in partials:
        partial.unlink(missing_ok=True)
    stats.objects_copied += 1
    stats.object_bytes += written
    stats.copied.append(component.id)


def ingest_components(
    data_dir: DataDir,
    source: ReleaseSource,
    components: tuple[Component, ...] | list[Component],
    work: Path,
    *,
    progress: Progress = no_progress,
    force: frozenset[str] = frozenset(),
) -> IngestStats:
    """Make sure every component's object exists; copy only the missing ones.

    ``force`` names object digests to rebuild even if present (repair). The caller
    holds the writer lock.
    """
    stats = IngestStats()
    todo: list[Component] = []
    seen: set[str] = set()
    for component in components:
        digest = component.object.digest
        if digest in seen:
            continue
        seen.add(digest)
        if digest not in force and _present(data_dir, digest, component.object.size):
            stats.objects_reused += 1
        else:
            todo.append(component)
    # Checked for every object before any is built: a refused install writes nothing.
    for component in todo:
        _check_conflict(data_dir, component)
    total = sum(c.compressed_size for c in todo)
    # Largest first: the last object to start is a small one, so workers finish together.
    todo.sort(key=lambda c: c.object.size, reverse=True)
    announce = getattr(source, "prefetch", None)
    if announce is not None:
        # A remote source starts the next parts' downloads while earlier ones are built.
        announce([(p, _partial_path(data_dir, p)) for c in todo for p in c.parts])
    lock = threading.Lock()

    def report(task: str, advanced: int, task_total: int) -> None:
        with lock:  # callers' progress bars need not be thread-safe
            progress(task, advanced, task_total)

    def build(component: Component, cancel: threading.Event) -> IngestStats:
        own = IngestStats()
        try:
            _ingest_one(data_dir, source, component, work, own, report, total, cancel)
        except OSError as exc:
            raise os_error(
                exc,
                doing=f"installing component {component.id} into {data_dir.root}",
                data_dir=data_dir.root,
            ) from exc
        return own

    for own in _in_parallel(todo, build, min(_MAX_WORKERS, os.cpu_count() or 1)):
        stats.add(own)
    return stats


def _in_parallel(
    todo: list[Component],
    build: Callable[[Component, threading.Event], IngestStats],
    workers: int,
) -> list[IngestStats]:
    """Run ``build`` over ``todo`` on up to ``workers`` threads (this one included).

    The first failure cancels the others at their next step and is re-raised here;
    whatever they had finished stays (renamed objects are complete and verified).
    """
    pending = list(reversed(todo))
    lock = threading.Lock()
    cancel = threading.Event()
    results: list[IngestStats] = []
    errors: list[BaseException] = []

    def work() -> None:
        while not cancel.is_set():
            with lock:
                if not pending:
                    return
                component = pending.pop()
            try:
                own = build(component, cancel)
            except _Cancelled:
                return
            except BaseException as exc:  # re-raised by the calling thread below
                with lock:
                    errors.append(exc)
                cancel.set()
                return
            with lock:
                results.append(own)

    threads = [
        threading.Thread(target=work, name=f"lexicon-ingest-{i}")
        for i in range(1, min(workers, len(todo)))
    ]
    for thread in threads:
        thread.start()
    try:
        work()
        for thread in threads:
            thread.join()
    finally:
        cancel.set()  # only matters if this thread was interrupted: stop the others
        for thread in threads:
            thread.join()
    if errors:
        raise errors[0]
    return results


def store_bytes(
    data_dir: DataDir, digest: str, data: bytes, work: Path, *, force: bool = False
) -> None:
    """Store small already-verified bytes (a manifest) as an object, if not present
    (``force``: replace a damaged one, atomically)."""
    final = data_dir.object_path(digest)
    if _present(data_dir, digest, len(data)) and not force:
        return
    tmp = work / f"{hex_of(digest)}.small"
    with os.fdopen(open_nofollow(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL), "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    make_read_only(tmp)
    data_dir.shard(digest)
    os.replace(tmp, final)
    fsync_dir(final.parent)
