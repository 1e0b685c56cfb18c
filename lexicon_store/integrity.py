"""Verify the active selection's objects, and repair the damaged ones from a release source."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from .activations import current_activation_id, load_record, switch_pointer
from .commands import repair_command
from .digests import digest_bytes, format_digest, new_hasher
from .errors import NotInstalled, SourceError
from .fsutil import make_read_only, open_nofollow, regular_file
from .ingest import IngestStats, ingest_components, store_bytes
from .layout import DataDir, open_data_dir
from .manifest import parse_manifest
from .progress import Progress, no_progress
from .selection import install_command
from .source import SourceSpec, opened_source
from .space import check_space, space_needed

__all__ = ["Problem", "RepairResult", "VerifyReport", "repair", "verify"]

_CHUNK = 4 << 20


@dataclass(frozen=True)
class Problem:
    component: str  # component id, or "manifest"
    path: str  # dataset-relative path
    object: str
    kind: str  # missing | truncated | oversized | corrupt | unreadable | not_a_file


@dataclass(frozen=True)
class VerifyReport:
    activation_id: str
    dataset_version: str
    checked: int
    checked_bytes: int
    problems: tuple[Problem, ...]
    fix: str = ""  # the repair command for this data dir, from the source the install used

    @property
    def ok(self) -> bool:
        return not self.problems


# The store writes objects 0444; a file some user cannot read is damage a server meets.
_READABLE = stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH


def _check(path: Path, digest: str, size: int | None, progress: Progress, total: int) -> str | None:
    """What is wrong with the object at ``path`` (None: nothing); ``size`` None: any."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return "missing"
    if not stat.S_ISREG(info.st_mode):
        return "not_a_file"
    if size is not None and info.st_size < size:
        return "truncated"
    if size is not None and info.st_size > size:
        return "oversized"
    if info.st_mode & _READABLE != _READABLE:
        return "unreadable"
    hasher = new_hasher()
    try:
        with os.fdopen(open_nofollow(path, os.O_RDONLY), "rb", buffering=0) as handle:
            while chunk := handle.read(_CHUNK):
                hasher.update(chunk)
                progress("verify", len(chunk), total)
    except PermissionError:
        return "unreadable"
    return None if format_digest(hasher.hexdigest()) == digest else "corrupt"


def _verify(dd: DataDir, progress: Progress) -> VerifyReport:
    current = current_activation_id(dd)
    if current is None:
        raise NotInstalled(f"nothing is installed in {dd.root}", fix=install_command(dd.root))
    selection, body = load_record(dd, current)
    entries: list[tuple[str, str, str, int]] = [
        (c["id"], c["path"], c["object"], int(c["size"])) for c in body["components"]
    ]
    problems: list[Problem] = []
    manifest_kind = _check(
        dd.object_path(selection.manifest_digest), selection.manifest_digest, None, no_progress, 0
    )
    if manifest_kind is not None:
        problems.append(
            Problem("manifest", "manifest.json", selection.manifest_digest, manifest_kind)
        )
    total = sum(size for *_rest, size in entries)
    done: dict[str, str | None] = {}
    for cid, path, digest, size in entries:
        if digest not in done:
            done[digest] = _check(dd.object_path(digest), digest, size, progress, total)
        found = done[digest]
        if found is not None:
            problems.append(Problem(cid, path, digest, found))
    source = body.get("source")
    fix = repair_command(
        dd.root, source if isinstance(source, str) else None, selection.dataset_version
    )
    return VerifyReport(
        current, selection.dataset_version, len(entries) + 1, total, tuple(problems), fix
    )


def _restore_modes(dd: DataDir, report: VerifyReport) -> bool:
    """Give unreadable objects back the store's mode (0444); whether any was changed.

    Their bytes are then hashed again by the caller: only those that verify are kept
    as they are, the others are rebuilt from the source.
    """
    changed = False
    for problem in report.problems:
        if problem.kind == "unreadable":
            path = dd.object_path(problem.object)
            if regular_file(path) is not None:
                make_read_only(path)
                changed = True
    return changed


def verify(data_dir: Path | None = None, *, progress: Progress = no_progress) -> VerifyReport:
    """Hash every object the active selection references (and nothing else)."""
    return _verify(open_data_dir(data_dir), progress)


@dataclass(frozen=True)
class RepairResult:
    before: VerifyReport
    after: VerifyReport
    stats: IngestStats


def repair(
    *,
    source: SourceSpec,
    data_dir: Path | None = None,
    progress: Progress = no_progress,
) -> RepairResult:
    """Re-install the damaged objects of the active selection from ``source``.

    The source must hold the very release that is active (same manifest digest), which
    is how its bytes are trusted.
    """
    dd = open_data_dir(data_dir)
    with dd.writer_lock():
        before = _verify(dd, progress)
        if before.ok:
            return RepairResult(before, before, IngestStats())
        if _restore_modes(dd, before):
            mended = _verify(dd, progress)
            if mended.ok:  # only modes were wrong: no source needed
                switch_pointer(dd, before.activation_id)
                return RepairResult(before, mended, IngestStats())
        selection, _ = load_record(dd, before.activation_id)
        with opened_source(
            source, version=selection.dataset_version, profile=selection.profile
        ) as src:
            data = src.read_manifest()
            digest = digest_bytes(data)
            if digest != selection.manifest_digest:
                raise SourceError(
                    f"{src.description} holds manifest {digest}, but the active dataset "
                    f"{selection.dataset_version} was installed from {selection.manifest_digest}",
                    fix=f"point --from at the {selection.dataset_version} release that was "
                    "installed",
                )
            manifest = parse_manifest(data, digest)
            bad = {p.object for p in before.problems}
            todo_check = [c for c in manifest.components if c.object.digest in bad]
            check_space(
                dd, space_needed(dd, src, todo_check, force=frozenset(bad), extra=len(data))
            )
            dd.ensure()
            with dd.ingest_dir() as work:
                if selection.manifest_digest in bad:
                    store_bytes(dd, digest, data, work, force=True)
                todo = [c for c in manifest.components if c.object.digest in bad]
                stats = ingest_components(
                    dd, src, todo, work, progress=progress, force=frozenset(bad)
                )
        after = _verify(dd, progress)
        if current_activation_id(dd) == selection.activation_id:
            # Rewrite the pointer (same target, new file): running servers watch it, so they
            # reopen the repaired objects instead of serving the damaged ones they hold open.
            switch_pointer(dd, selection.activation_id)
    return RepairResult(before, after, stats)
