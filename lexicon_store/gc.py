"""prune: forget old activations, then delete what no kept activation references.

Plan first (``plan_prune``, also the dry run), then execute under the writer lock.
Records are deleted before objects, so a crash part-way leaves only unreferenced
objects behind, which the next prune frees; a referenced object is never deleted.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from .activations import current_activation_id, list_activations, pinned_activations
from .crash import crash_point
from .fsutil import fsync_dir
from .layout import DataDir, open_data_dir
from .leases import ReaderLease, live_leases

__all__ = ["PrunePlan", "plan_prune", "prune", "reader_roots"]

_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class PrunePlan:
    kept_activations: tuple[str, ...]
    dropped_activations: tuple[str, ...]
    objects: tuple[tuple[Path, int], ...]  # unreferenced objects and their sizes
    temporary: tuple[tuple[Path, int], ...]  # stale temporary files/dirs and their sizes
    executed: bool = False
    # Live readers (running servers), and the objects kept only because one serves them.
    readers: tuple[ReaderLease, ...] = ()
    kept_for_readers: tuple[tuple[Path, int], ...] = ()

    @property
    def kept_for_readers_bytes(self) -> int:
        return sum(s for _p, s in self.kept_for_readers)

    @property
    def freed_bytes(self) -> int:
        return sum(s for _p, s in self.objects) + sum(s for _p, s in self.temporary)


def _size(path: Path) -> int:
    if path.is_dir() and not path.is_symlink():
        return sum(
            os.lstat(os.path.join(root, name)).st_size
            for root, _d, files in os.walk(path)
            for name in files
        )
    return os.lstat(path).st_size


def _stale_temporaries(dd: DataDir) -> list[Path]:
    """Everything under tmp/ plus leftover atomic-write temp files (the lock is held)."""
    found: list[Path] = []
    if dd.tmp.is_dir():
        found.extend(sorted(dd.tmp.iterdir()))
    for folder in (dd.root, dd.activations):
        if folder.is_dir():
            found.extend(sorted(p for p in folder.glob(".*.tmp") if p.is_file()))
    return found


def plan_prune(dd: DataDir, keep: int = 0) -> PrunePlan:
    """Keep the current activation, pinned ones and the ``keep`` most recent others."""
    current = current_activation_id(dd)
    retained = list_activations(dd)
    others = [a for a in retained if a.activation_id != current]
    # Pinned activations are kept anyway; --keep counts the unpinned ones.
    others = [a for a in others if a.activation_id not in pinned_activations(dd)]
    kept_others = others[len(others) - keep :] if keep > 0 else []
    pinned = pinned_activations(dd)
    kept = [a for a in retained if a.activation_id == current or a.activation_id in pinned] + [
        a for a in kept_others if a.activation_id not in pinned
    ]
    kept_ids = {a.activation_id for a in kept}
    dropped = (
        sorted(p.stem for p in dd.activations.glob("*.json") if p.stem not in kept_ids)
        if dd.activations.is_dir()
        else []
    )
    referenced: set[str] = set()
    for selection in kept:
        referenced.add(selection.manifest_digest.partition(":")[2])
        referenced.update(path.name for path in selection.files.values())
    objects: list[tuple[Path, int]] = []
    if dd.objects.is_dir():
        for shard in sorted(dd.objects.iterdir()):
            if not shard.is_dir():
                continue
            for obj in sorted(shard.iterdir()):
                name = obj.name
                # Only files named as we name objects; anything else is not ours to delete.
                ours = len(name) == 64 and set(name) <= _HEX and name[:2] == shard.name
                if ours and name not in referenced:
                    objects.append((obj, os.lstat(obj).st_size))
    temporary = [(p, _size(p)) for p in _stale_temporaries(dd)]
    readers, leased = reader_roots(dd)
    return PrunePlan(
        tuple(sorted(kept_ids)),
        tuple(dropped),
        tuple((p, s) for p, s in objects if p.name not in leased),
        tuple(temporary),
        readers=readers,
        kept_for_readers=tuple((p, s) for p, s in objects if p.name in leased),
    )


def reader_roots(dd: DataDir) -> tuple[tuple[ReaderLease, ...], frozenset[str]]:
    """The live readers' leases and every object name they reference: GC roots that
    last exactly as long as the reader process (see lexicon_store/leases.py)."""
    readers = tuple(live_leases(dd.root))
    names: set[str] = set()
    for lease in readers:
        names.update(lease.objects)
    return readers, frozenset(names)


def prune(data_dir: Path | None = None, *, keep: int = 0, dry_run: bool = False) -> PrunePlan:
    """Delete unreferenced objects, stale temporary files and activations beyond ``keep``."""
    dd = open_data_dir(data_dir)
    if not dd.root.exists():
        return PrunePlan((), (), (), ())
    with dd.writer_lock():
        plan = plan_prune(dd, keep)
        if dry_run:
            return plan
        crash_point("prune.before_records")
        for activation_id in plan.dropped_activations:
            dd.record_path(activation_id).unlink(missing_ok=True)
        if plan.dropped_activations:
            fsync_dir(dd.activations)
        crash_point("prune.after_records")
        shards: set[Path] = set()
        for index, (path, _) in enumerate(plan.objects):
            path.unlink(missing_ok=True)
            shards.add(path.parent)
            if index == 0:
                crash_point("prune.mid_objects")
        for shard in shards:
            fsync_dir(shard)
        crash_point("prune.after_objects")
        for path, _ in plan.temporary:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
        live_leases(dd.root, reap=True)  # lease files of readers that have died
    return dataclasses.replace(plan, executed=True)
