"""prune and forget: plan first, then delete under the writer lock.

A plain ``prune`` forgets no activation: it frees only objects that no retained
activation (current, pinned or merely kept for a rollback) references, plus stale
temporary files. Forgetting selections is a separate, explicit choice (``forget`` by
id, or ``prune --drop-activations --keep N``) that refuses the current activation and
pinned ones. Objects a running server serves (its reader lease) are kept too, whatever
the records say. Records are deleted before objects, so a crash part-way leaves only
unreferenced objects behind, which the next prune frees; a referenced object is never
deleted.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .activations import current_activation_id, list_activations, pinned_activations
from .commands import store_command
from .crash import crash_point
from .errors import NotInstalled, StoreError
from .fsutil import fsync_dir
from .layout import DataDir, open_data_dir
from .leases import ReaderLease, live_leases
from .selection import ActiveSelection

__all__ = ["Forget", "PrunePlan", "forget", "plan_prune", "prune", "reader_roots"]

_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class Forget:
    """Which retained activations to forget. The default forgets none (a plain prune).

    ``activations``: these ids, each of which must be retained, not current, not pinned.
    ``keep_recent``: forget every unpinned, non-current activation except the N most
    recent ones (``prune --drop-activations --keep N``).
    """

    activations: tuple[str, ...] = ()
    keep_recent: int | None = None


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


def _record_ids(dd: DataDir) -> set[str]:
    if not dd.activations.is_dir():
        return set()
    return {p.stem for p in dd.activations.glob("*.json")}


def _forgotten(
    dd: DataDir,
    retained: list[ActiveSelection],
    unreadable: set[str],
    wanted: Forget,
) -> set[str]:
    """The ids ``wanted`` forgets, after refusing the current and pinned ones."""
    current = current_activation_id(dd)
    pinned = pinned_activations(dd)
    known = {a.activation_id for a in retained} | unreadable
    dropped: set[str] = set()
    for activation_id in wanted.activations:
        if activation_id not in known:
            raise NotInstalled(
                f"activation {activation_id} is not retained in {dd.root}",
                fix=f"list the retained ones with `{store_command(dd.root, 'activations')}`",
            )
        if activation_id == current:
            raise StoreError(
                f"activation {activation_id} is the current one; forgetting it would leave "
                "nothing active",
                fix="activate another one first: "
                + store_command(dd.root, "activate", "--activation")
                + " <id>",
            )
        if activation_id in pinned:
            raise StoreError(
                f"activation {activation_id} is pinned, so it is kept whatever prune does",
                fix="unpin it first: "
                + store_command(dd.root, "pin", "--activation", activation_id, "--remove"),
            )
        dropped.add(activation_id)
    if wanted.keep_recent is not None:
        if wanted.keep_recent < 0:
            raise StoreError(
                f"--keep must be 0 or more, not {wanted.keep_recent}",
                fix=store_command(
                    dd.root, "prune", "--drop-activations", "--keep", "1", "--dry-run"
                ),
            )
        # Oldest first; current and pinned are never candidates.
        others = [
            a for a in retained if a.activation_id != current and a.activation_id not in pinned
        ]
        cut = len(others) - wanted.keep_recent
        dropped.update(a.activation_id for a in others[: max(cut, 0)])
    return dropped


def _referenced(kept: Iterable[ActiveSelection]) -> set[str]:
    """Object names (hex digests) the kept activations need: their components and manifests."""
    names: set[str] = set()
    for selection in kept:
        names.add(selection.manifest_digest.partition(":")[2])
        names.update(path.name for path in selection.files.values())
    return names


def _unreferenced_objects(dd: DataDir, referenced: set[str]) -> list[tuple[Path, int]]:
    objects: list[tuple[Path, int]] = []
    if not dd.objects.is_dir():
        return objects
    for shard in sorted(dd.objects.iterdir()):
        if not shard.is_dir():
            continue
        for obj in sorted(shard.iterdir()):
            name = obj.name
            # Only files named as we name objects; anything else is not ours to delete.
            ours = len(name) == 64 and set(name) <= _HEX and name[:2] == shard.name
            if ours and name not in referenced:
                objects.append((obj, os.lstat(obj).st_size))
    return objects


def plan_prune(dd: DataDir, forget: Forget | None = None) -> PrunePlan:
    """What a prune would delete: the activations ``forget`` names (none by default), then
    every object no remaining activation references, and stale temporary files."""
    retained = list_activations(dd)
    unreadable = _record_ids(dd) - {a.activation_id for a in retained}
    dropped = _forgotten(dd, retained, unreadable, forget or Forget())
    blind = sorted(unreadable - dropped)
    if blind:
        # Without the record we cannot know what it references: deleting objects could
        # break it, so refuse rather than guess.
        raise StoreError(
            f"cannot read activation record {dd.record_path(blind[0])}, so prune cannot "
            "tell which objects it needs",
            fix="restore that file, or forget it: "
            + store_command(dd.root, "forget", "--activation", blind[0]),
        )
    kept = [a for a in retained if a.activation_id not in dropped]
    objects = _unreferenced_objects(dd, _referenced(kept))
    temporary = [(p, _size(p)) for p in _stale_temporaries(dd)]
    readers, leased = reader_roots(dd)
    return PrunePlan(
        tuple(sorted(a.activation_id for a in kept)),
        tuple(sorted(dropped)),
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


def _execute(dd: DataDir, plan: PrunePlan) -> None:
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


def prune(
    data_dir: Path | None = None, *, forget: Forget | None = None, dry_run: bool = False
) -> PrunePlan:
    """Free what no retained activation references; forget only what ``forget`` names."""
    dd = open_data_dir(data_dir)
    if not dd.root.exists():
        if forget is not None and forget.activations:
            raise NotInstalled(
                f"activation {forget.activations[0]} is not retained in {dd.root}",
                fix=f"list the retained ones with `{store_command(dd.root, 'activations')}`",
            )
        return PrunePlan((), (), (), ())
    with dd.writer_lock():
        plan = plan_prune(dd, forget)
        if dry_run:
            return plan
        _execute(dd, plan)
    return dataclasses.replace(plan, executed=True)


def forget(
    activation_ids: Iterable[str], data_dir: Path | None = None, *, dry_run: bool = False
) -> PrunePlan:
    """Forget these retained activations, then free what only they referenced."""
    return prune(data_dir, forget=Forget(activations=tuple(activation_ids)), dry_run=dry_run)
