"""Parts from a release source → verified, read-only objects in the data dir.

Each object is built in this process's ingest dir: every part's compressed bytes are
hashed and checked against the manifest while they are decompressed, the output is
hashed and size-capped, and only a fully verified, fsynced, read-only file is renamed
to its content address. An object already present under its name is trusted (nothing
else ever puts a file there) if its size is right, and is not copied again.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import blake3
import zstandard

from .crash import crash_point
from .digests import format_digest, hex_of
from .errors import IntegrityError, SourceError
from .fsutil import fsync_dir, make_read_only
from .layout import DataDir
from .manifest import Component, Part
from .progress import Progress, no_progress
from .source import ReleaseSource

__all__ = ["IngestStats", "ingest_components", "store_bytes"]

_CHUNK = 4 << 20


@dataclass
class IngestStats:
    """What an ingest did and where its time went (seconds)."""

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


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class _Sink:
    """Hashes and writes decompressed chunks on a second thread.

    Writing into the page cache blocks whenever the kernel throttles dirty pages; with
    the writes on their own thread (``os.write`` and blake3 release the GIL) the main
    thread keeps reading and decompressing meanwhile. The queue is bounded, so memory
    stays at a few chunks.
    """

    def __init__(self, fd: int, stats: IngestStats) -> None:
        self.fd = fd
        self.hasher = blake3.blake3()
        self.stats = stats
        self.error: BaseException | None = None
        self._queue: queue.Queue[bytes | None] = queue.Queue(maxsize=4)
        self._thread = threading.Thread(target=self._run, name="lexicon-ingest-writer")
        self._thread.start()

    def _run(self) -> None:
        while (data := self._queue.get()) is not None:
            if self.error is not None:
                continue  # keep draining so the producer never blocks forever
            try:
                t0 = time.perf_counter()
                self.hasher.update(data)
                t1 = time.perf_counter()
                _write_all(self.fd, data)
                self.stats.hash_seconds += t1 - t0
                self.stats.write_seconds += time.perf_counter() - t1
            except BaseException as exc:  # re-raised in the caller's thread by close()
                self.error = exc

    def put(self, data: bytes) -> None:
        if self.error is not None:
            raise self.error
        self._queue.put(data)

    def close(self) -> str:
        """Wait for every write; the hex digest of everything written."""
        self._queue.put(None)
        self._thread.join()
        if self.error is not None:
            raise self.error
        return self.hasher.hexdigest()


def _present(data_dir: DataDir, digest: str, size: int) -> bool:
    path = data_dir.object_path(digest)
    try:
        return path.stat().st_size == size
    except FileNotFoundError:
        return False


def _part_file(source: ReleaseSource, data_dir: DataDir, part: Part, progress: Progress) -> Path:
    local = source.local_part(part)
    if local is not None:
        return local
    data_dir.parts.mkdir(parents=True, exist_ok=True)
    partial = data_dir.parts / f"{hex_of(part.digest)}.partial"
    source.fetch_part(part, partial, progress)
    return partial


def _decompress_part(
    path: Path,
    part: Part,
    component: Component,
    sink: _Sink,
    written: int,
    stats: IngestStats,
    progress: Progress,
    total: int,
) -> int:
    """Stream one part into ``out``; returns the object bytes written so far."""
    part_hasher = blake3.blake3()
    dobj = zstandard.ZstdDecompressor().decompressobj()
    seen = 0
    limit = component.object.size
    # One reused input buffer: a fresh 4 MiB bytes object per read would cost an mmap,
    # page faults and an munmap each time.
    buffer = bytearray(_CHUNK)
    view = memoryview(buffer)
    with open(path, "rb", buffering=0) as handle:
        while True:
            t0 = time.perf_counter()
            n = handle.readinto(buffer)
            t1 = time.perf_counter()
            stats.read_seconds += t1 - t0
            if not n:
                break
            chunk = view[:n]
            seen += n
            if seen > part.size:
                break
            part_hasher.update(chunk)
            t2 = time.perf_counter()
            try:
                data = dobj.decompress(chunk)
            except zstandard.ZstdError as exc:
                raise IntegrityError(
                    f"part {part.path} of {component.id} is not valid zstd data ({exc})",
                    fix="copy or fetch this release again",
                ) from None
            t3 = time.perf_counter()
            written += len(data)
            if written > limit:
                raise IntegrityError(
                    f"component {component.id} decompresses to more than the "
                    f"{limit} bytes its manifest declares"
                )
            sink.put(data)
            stats.hash_seconds += t2 - t1
            stats.decompress_seconds += t3 - t2
            stats.compressed_bytes += n
            progress("install", n, total)
            crash_point("ingest.partial")
    if seen != part.size or format_digest(part_hasher.hexdigest()) != part.digest:
        raise IntegrityError(
            f"part {part.path} of {component.id} does not match the manifest "
            f"({'size' if seen != part.size else 'digest'} differs: expected {part.size} bytes "
            f"with {part.digest})",
            fix="copy or fetch this release again; the part was damaged or tampered with",
        )
    if not dobj.eof:
        raise IntegrityError(f"part {part.path} of {component.id} ends mid-frame")
    return written


def _ingest_one(
    data_dir: DataDir,
    source: ReleaseSource,
    component: Component,
    work: Path,
    stats: IngestStats,
    progress: Progress,
    total: int,
) -> None:
    final = data_dir.object_path(component.object.digest)
    tmp = work / component.object.hex
    written = 0
    partials: list[Path] = []
    out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    sink = _Sink(out, stats)
    digest: str | None = None
    try:
        for part in component.parts:
            path = _part_file(source, data_dir, part, progress)
            if path.parent == data_dir.parts:
                partials.append(path)
            try:
                written = _decompress_part(
                    path, part, component, sink, written, stats, progress, total
                )
            except IntegrityError:
                if path.parent == data_dir.parts:
                    path.unlink(missing_ok=True)  # never let a later run trust these bytes
                raise
        digest = format_digest(sink.close())
        if written != component.object.size or digest != component.object.digest:
            raise IntegrityError(
                f"component {component.id} decompressed to bytes that do not match its "
                f"manifest object ({written} bytes, expected {component.object.size} with "
                f"{component.object.digest})",
                fix="the release itself is inconsistent; fetch it again or rebuild it",
            )
        t0 = time.perf_counter()
        os.fsync(out)
        stats.fsync_seconds += time.perf_counter() - t0
    finally:
        if digest is None:
            with contextlib.suppress(BaseException):
                sink.close()  # stop the writer thread; the error in flight wins
        os.close(out)
    make_read_only(tmp)
    crash_point("ingest.before_rename")
    final.parent.mkdir(parents=True, exist_ok=True)
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
    total = sum(c.compressed_size for c in todo)
    for component in todo:
        final = data_dir.object_path(component.object.digest)
        if final.exists():
            final.unlink()  # wrong size or being repaired: it is not the promised bytes
        try:
            _ingest_one(data_dir, source, component, work, stats, progress, total)
        except OSError as exc:
            raise SourceError(f"cannot install component {component.id}: {exc}") from exc
    return stats


def store_bytes(data_dir: DataDir, digest: str, data: bytes, work: Path) -> None:
    """Store small already-verified bytes (a manifest) as an object, if not present."""
    final = data_dir.object_path(digest)
    if _present(data_dir, digest, len(data)):
        return
    tmp = work / f"{hex_of(digest)}.small"
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    make_read_only(tmp)
    final.parent.mkdir(parents=True, exist_ok=True)
    os.replace(tmp, final)
    fsync_dir(final.parent)
