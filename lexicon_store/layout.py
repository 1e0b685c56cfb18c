"""The data dir's paths and its single-writer lock (see docs/release-format.md section 2)."""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .digests import hex_of
from .errors import LockBusy, StoreError
from .fsutil import ensure_dirs, open_nofollow
from .leases import try_exclusive_lock
from .selection import default_data_dir

__all__ = ["DataDir", "open_data_dir"]


class _Below:
    """A path of the data dir, named once by where it lies below the root."""

    def __init__(self, relative: str) -> None:
        self.relative = relative

    def __get__(self, data_dir: DataDir, owner: type[DataDir]) -> Path:
        return data_dir.root / self.relative


@dataclass(frozen=True)
class DataDir:
    """The data dir's layout (docs/release-format.md section 2) and its writer lock."""

    root: Path

    objects = _Below("objects/blake3")  # objects/blake3/<2 hex>/<hex>
    activations = _Below("activations")  # <activation id>.json records
    current = _Below("current")  # the pointer to the active record
    lock_path = _Below("lock")
    tmp = _Below("tmp")
    # Downloaded parts awaiting verification (``<part hex>.partial``), stable across runs.
    parts = _Below("tmp/parts")
    # ``pinned/<activation id>``: empty files marking activations prune must keep.
    pinned = _Below("pinned")

    def object_path(self, digest: str) -> Path:
        hexdigest = hex_of(digest)
        return self.objects / hexdigest[:2] / hexdigest

    def record_path(self, activation_id: str) -> Path:
        return self.activations / f"{activation_id}.json"

    def ensure(self) -> None:
        for relative in ("objects/blake3", "activations", "tmp"):
            ensure_dirs(self.root, relative)

    def shard(self, digest: str) -> Path:
        """The directory an object goes in, made (without following links) if need be."""
        return ensure_dirs(self.root, Path("objects/blake3") / hex_of(digest)[:2])

    @contextmanager
    def writer_lock(self) -> Iterator[None]:
        """Hold the exclusive writer lock; fail at once (LockBusy) if another process has it."""
        self.root.mkdir(parents=True, exist_ok=True)
        fd = open_nofollow(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            if not try_exclusive_lock(fd):
                holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "?"
                raise LockBusy(
                    f"another lexicon-data process (pid {holder}) is changing {self.root}",
                    fix="wait for it to finish, then run the command again",
                )
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode("ascii"), 0)
            yield
        finally:
            os.close(fd)  # closing the descriptor releases the flock

    @contextmanager
    def ingest_dir(self) -> Iterator[Path]:
        """A private temporary dir for this process; removed afterwards, or by prune."""
        ensure_dirs(self.root, "tmp")
        path = self.tmp / f"ingest-{os.getpid()}-{secrets.token_hex(4)}"
        path.mkdir()
        try:
            yield path
        finally:
            shutil.rmtree(path, ignore_errors=True)


def open_data_dir(root: Path | None = None) -> DataDir:
    path = Path(root) if root is not None else default_data_dir()
    if path.exists() and not path.is_dir():
        raise StoreError(f"data dir {path} exists and is not a directory")
    return DataDir(path.expanduser())
