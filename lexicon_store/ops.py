"""The store's mutations and reports: install, add/remove a language, activate, status.

Every mutation follows one pattern under the writer lock: prepare immutable objects,
write the activation record, then switch the ``current`` pointer (the only commit
point). Each returns a frozen result the CLI renders.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Unpack

from .activations import (
    RecordedComponent,
    current_activation_id,
    list_activations,
    load_record,
    pinned_activations,
    record_components,
    set_pinned,
    switch_pointer,
    write_record,
)
from .commands import repair_command, store_command
from .crash import crash_point
from .errors import IntegrityError, NotInstalled, SelectionError, StoreError
from .gc import plan_prune, reader_roots
from .ingest import IngestStats, ingest_components, store_bytes
from .layout import DataDir, open_data_dir
from .leases import ReaderLease
from .manifest import Manifest
from .plan import SelectionPlan, Shortfall, plan_selection
from .progress import Progress, no_progress
from .selection import ActiveSelection, install_command
from .source import source_spec
from .space import check_space, space_needed
from .trust import OpenRelease, ReleaseChoice, check_choice, open_release

__all__ = [
    "ActivateResult",
    "InstallResult",
    "LanguageRow",
    "Status",
    "activate",
    "add_language",
    "install",
    "languages",
    "pin",
    "pinned",
    "remove_language",
    "retained_activations",
    "status",
]


@dataclass(frozen=True)
class InstallResult:
    activation_id: str
    previous_activation: str | None
    dataset_version: str
    manifest_digest: str
    trust: str
    installed: Mapping[str, frozenset[str]]
    shortfalls: tuple[Shortfall, ...]
    stats: IngestStats = field(compare=False)


@dataclass(frozen=True)
class ActivateResult:
    activation_id: str
    previous_activation: str | None
    dataset_version: str
    installed: Mapping[str, frozenset[str]]


def _commit(
    data_dir: DataDir,
    manifest: Manifest,
    installed: Mapping[str, frozenset[str]],
    recorded: list[RecordedComponent],
    crash_prefix: str,
    source: str | None,
) -> tuple[str, str | None]:
    previous = current_activation_id(data_dir)
    crash_point(f"{crash_prefix}.before_record")
    activation_id = write_record(
        data_dir,
        dataset_version=manifest.dataset_version,
        manifest_digest=manifest.digest,
        profile=manifest.profile,
        language_names=manifest.language_names,
        catalogue=manifest.catalogue,
        installed=installed,
        components=recorded,
        source=source,
    )
    crash_point(f"{crash_prefix}.before_pointer")
    switch_pointer(data_dir, activation_id)
    crash_point(f"{crash_prefix}.after_pointer")
    return activation_id, previous


def _install_selection(
    data_dir: DataDir,
    release: OpenRelease,
    plan: SelectionPlan,
    progress: Progress,
    crash_prefix: str,
) -> InstallResult:
    """Ingest what ``plan`` chose, record it and make it current (install, add-language)."""
    source, manifest, manifest_bytes = release.source, release.manifest, release.data
    chosen = plan.components
    # Before anything is written: the manifest says how big every object is.
    check_space(data_dir, space_needed(data_dir, source, chosen, extra=len(manifest_bytes)))
    data_dir.ensure()
    with data_dir.ingest_dir() as work:
        stats = ingest_components(data_dir, source, chosen, work, progress=progress)
        # The manifest object goes in last so a refused release leaves nothing behind.
        store_bytes(data_dir, manifest.digest, manifest_bytes, work)
        activation_id, previous = _commit(
            data_dir,
            manifest,
            plan.installed,
            record_components(manifest, list(chosen)),
            crash_prefix,
            source_spec(source),
        )
    return InstallResult(
        activation_id,
        previous,
        manifest.dataset_version,
        manifest.digest,
        release.trust,
        plan.installed,
        plan.shortfalls,
        stats,
    )


def install(
    *,
    data_dir: Path | None = None,
    languages: list[str] | None = None,
    capabilities: list[str] | None = None,
    all_languages: bool = False,
    progress: Progress = no_progress,
    **choice: Unpack[ReleaseChoice],
) -> InstallResult:
    """Install (and activate) a selection of the release ``choice`` names (see
    `ReleaseChoice`). Copies only missing objects."""
    check_choice("install", choice)
    dd = open_data_dir(data_dir)
    with dd.writer_lock():
        crash_point("install.after_lock")
        with open_release(**choice) as release:
            plan = plan_selection(
                release.manifest,
                languages=languages,
                capabilities=capabilities,
                all_languages=all_languages,
            )
            return _install_selection(dd, release, plan, progress, "install")


def _active(dd: DataDir) -> tuple[ActiveSelection, dict[str, object]]:
    current = current_activation_id(dd)
    if current is None:
        raise NotInstalled(f"nothing is installed in {dd.root}", fix=install_command(dd.root))
    return load_record(dd, current)


def add_language(
    *,
    languages: list[str],
    capabilities: list[str] | None = None,
    data_dir: Path | None = None,
    progress: Progress = no_progress,
    **choice: Unpack[ReleaseChoice],
) -> InstallResult:
    """Add languages to the active selection of the same release; fetches only new objects.

    Capabilities default to those the active selection already uses; ``choice`` finds the
    active release (its version, profile and digest are the active selection's unless given).
    """
    check_choice("add_language", choice)
    dd = open_data_dir(data_dir)
    with dd.writer_lock():
        active, _ = _active(dd)
        version = choice.get("version")
        if version is not None and version != active.dataset_version:
            raise SelectionError(
                f"the active dataset is {active.dataset_version}, not {version}; add-language "
                "extends the active release",
                fix=f"lexicon-data install --version {version} --languages ...",
            )
        caps = capabilities or sorted(set().union(*active.installed.values()))
        # The active release, found through the template with its own version and profile.
        active_release: ReleaseChoice = {
            **choice,
            "version": active.dataset_version,
            "profile": choice.get("profile") or active.profile,
            "manifest_digest": choice.get("manifest_digest") or active.manifest_digest,
        }
        with open_release(check_profile=False, **active_release) as release:
            plan = plan_selection(
                release.manifest, languages=languages, capabilities=caps, base=active.installed
            )
            return _install_selection(dd, release, plan, progress, "add_language")


def remove_language(*, languages: list[str], data_dir: Path | None = None) -> ActivateResult:
    """A new activation without ``languages``; writes no object, deletes nothing (see prune)."""
    dd = open_data_dir(data_dir)
    with dd.writer_lock():
        active, body = _active(dd)
        unknown = [code for code in languages if code not in active.catalogue]
        if unknown:
            raise SelectionError(
                f"cannot remove {', '.join(map(repr, unknown))}: release "
                f"{active.dataset_version} does not carry it (unknown_language)",
                fix="see `lexicon-data languages`",
                reason="unknown_language",
            )
        if not any(code in active.installed for code in languages):
            # Already gone (for instance a rerun after an interruption): nothing to do.
            return ActivateResult(
                active.activation_id,
                active.activation_id,
                active.dataset_version,
                active.installed,
            )
        installed = {k: v for k, v in active.installed.items() if k not in languages}
        if not installed:
            raise SelectionError(
                "removing every installed language would leave nothing to serve",
                fix="keep at least one language, or install another selection first",
                reason="language_not_installed",
            )
        raw_components = body["components"]
        assert isinstance(raw_components, list)
        recorded = [
            RecordedComponent(
                c["id"], c["language"], c["capability"], c["path"], c["object"], c["size"]
            )
            for c in raw_components
            if c["language"] not in languages
        ]
        manifest = _manifest_view(active)
        activation_id, previous = _commit(
            dd, manifest, installed, recorded, "remove_language", _recorded_source(body)
        )
    return ActivateResult(activation_id, previous, active.dataset_version, installed)


def _manifest_view(active: ActiveSelection) -> Manifest:
    """Enough of a manifest (identity and catalogue) to write a sibling activation record."""
    return Manifest(
        dataset_version=active.dataset_version,
        profile=active.profile,
        schemas={},
        language_names=active.language_names,
        catalogue=active.catalogue,
        components=(),
        digest=active.manifest_digest,
        raw={},
    )


def activate(activation_id: str, *, data_dir: Path | None = None) -> ActivateResult:
    """Point ``current`` at a retained activation. Writes no object; checks they exist."""
    dd = open_data_dir(data_dir)
    with dd.writer_lock():
        selection, body = load_record(dd, activation_id)
        raw_components = body["components"]
        assert isinstance(raw_components, list)
        source = _recorded_source(body)
        for c in raw_components:
            path = dd.object_path(c["object"])
            try:
                size = path.stat().st_size
            except FileNotFoundError:
                size = -1
            if size != c["size"]:
                raise IntegrityError(
                    f"activation {activation_id} needs {c['path']} ({c['object']}), which is "
                    f"{'missing' if size < 0 else 'damaged'} in {dd.root}",
                    fix=f"{repair_command(dd.root, source, selection.dataset_version)}, then "
                    f"{store_command(dd.root, 'activate', '--activation', activation_id)}",
                )
        previous = current_activation_id(dd)
        crash_point("activate.before_pointer")
        switch_pointer(dd, activation_id)
    return ActivateResult(activation_id, previous, selection.dataset_version, selection.installed)


def _recorded_source(body: Mapping[str, object]) -> str | None:
    source = body.get("source")
    return source if isinstance(source, str) else None


def pin(activation_id: str, *, data_dir: Path | None = None, pinned: bool = True) -> None:
    """Make ``prune`` keep a retained activation (or stop keeping it)."""
    dd = open_data_dir(data_dir)
    with dd.writer_lock():
        set_pinned(dd, activation_id, pinned)


def retained_activations(data_dir: Path | None = None) -> tuple[list[ActiveSelection], str | None]:
    """All retained activations (oldest first) and the id of the current one."""
    dd = open_data_dir(data_dir)
    return list_activations(dd), current_activation_id(dd)


def pinned(data_dir: Path | None = None) -> set[str]:
    """Ids of the activations prune keeps whatever --keep says."""
    return pinned_activations(open_data_dir(data_dir))


@dataclass(frozen=True)
class LanguageRow:
    code: str
    name: str
    available: frozenset[str]
    installed: frozenset[str]


def languages(data_dir: Path | None = None) -> tuple[ActiveSelection, list[LanguageRow]]:
    """What the active release carries, and what this install serves, per language."""
    dd = open_data_dir(data_dir)
    active, _ = _active(dd)
    rows = [
        LanguageRow(
            code,
            active.language_names.get(code, code),
            active.catalogue[code],
            active.installed.get(code, frozenset()),
        )
        for code in sorted(active.catalogue)
    ]
    return active, rows


@dataclass(frozen=True)
class Status:
    data_dir: Path
    active: ActiveSelection | None
    active_bytes: int
    retained_activations: int
    object_count: int
    object_bytes: int
    temporary_bytes: int
    reclaimable_bytes: int  # what a plain `prune` (every retained activation kept) would free
    readers: tuple[ReaderLease, ...] = ()  # running servers and what they serve


def _tree_usage(path: Path) -> tuple[int, int]:
    count = size = 0
    if not path.exists():
        return 0, 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            try:
                size += os.lstat(os.path.join(root, name)).st_size
                count += 1
            except FileNotFoundError:
                continue
    return count, size


def status(data_dir: Path | None = None) -> Status:
    dd = open_data_dir(data_dir)
    try:
        active: ActiveSelection | None = _active(dd)[0]
    except (NotInstalled, StoreError):
        active = None
    active_bytes = 0
    if active is not None:
        seen: set[Path] = set()
        for path in active.files.values():
            if path not in seen:
                seen.add(path)
                with contextlib.suppress(FileNotFoundError):
                    active_bytes += path.stat().st_size
    count, size = _tree_usage(dd.objects)
    _tc, tmp_size = _tree_usage(dd.tmp)
    readers: tuple[ReaderLease, ...] = ()
    reclaimable = 0
    if dd.root.exists():
        try:
            plan = plan_prune(dd)
            reclaimable, readers = plan.freed_bytes, plan.readers
        except StoreError:
            # An unreadable record: prune itself refuses and says why; the readers are
            # still worth listing.
            readers = reader_roots(dd)[0]
    return Status(
        dd.root,
        active,
        active_bytes,
        len(list_activations(dd)),
        count,
        size,
        tmp_size,
        reclaimable,
        readers,
    )
