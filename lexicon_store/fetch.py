"""``fetch``: mirror a release (or a selection of it) into a directory, for ``--from`` later.

The mirror has the exact published layout: one file per part and ``manifest.json``,
written last, so a mirror cut short has no manifest and ``install --from`` refuses it.
Each part is verified against the manifest before it gets its final name; a rerun keeps
the parts that verify and resumes the rest. The data dir is never touched.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Unpack

from .digests import digest_bytes, file_digest, format_digest, new_hasher
from .download import (
    DigestMismatch,
    Downloader,
    DownloadItem,
    DownloadPolicy,
    DownloadProgress,
    partial_path,
    stale_partials,
)
from .errors import SourceError
from .fsutil import atomic_write_bytes, ensure_dirs, fsync_dir, open_nofollow, regular_file
from .manifest import Manifest, Part
from .plan import plan_selection
from .progress import Progress, no_progress
from .source import MANIFEST_NAME, LocalSource, ReleaseSource
from .trust import ReleaseChoice, check_choice, open_release

__all__ = ["FetchResult", "fetch_release"]

_COPY_BLOCK = 4 << 20


@dataclass(frozen=True)
class FetchResult:
    """What a fetch left in ``dest``."""

    dest: Path
    dataset_version: str
    manifest_digest: str
    trust: str
    parts: int
    parts_reused: int
    bytes_received: int
    total_bytes: int


def _select_parts(
    manifest: Manifest,
    languages: list[str] | None,
    capabilities: list[str] | None,
    all_languages: bool,
) -> list[Part]:
    if languages or all_languages:
        components = plan_selection(
            manifest, languages=languages, capabilities=capabilities, all_languages=all_languages
        ).components
    else:
        components = manifest.components  # a profile: the whole release
    parts: dict[str, Part] = {}
    for component in components:
        for part in component.parts:
            parts.setdefault(part.path, part)
    return list(parts.values())


def _check_existing_manifest(dest: Path, data: bytes) -> None:
    existing = dest / MANIFEST_NAME
    if regular_file(existing) is None:
        return
    current = existing.read_bytes()
    if current != data:
        raise SourceError(
            f"{dest} already holds another release (its manifest.json differs from "
            f"{digest_bytes(data)})",
            fix="fetch into an empty directory, or delete the old mirror first",
        )


def _progress_adapter(progress: Progress) -> Callable[[DownloadProgress], None]:
    """Cumulative per-part reports → the store's (task, advanced, total) deltas, plus a total."""
    seen: dict[str, int] = {}

    def report(event: DownloadProgress) -> None:
        delta = event.part.done - seen.get(event.name, 0)
        seen[event.name] = event.part.done
        if delta:
            progress(f"download {event.name}", delta, event.part.total)
            progress("fetch", delta, event.overall.total)

    return report


def _copy_verified(src: Path, part: Part, dest: Path, progress: Progress, total: int) -> bool:
    """Copy a local part through its digest; returns False if ``dest`` was already valid."""
    present = regular_file(dest)  # a link where the part belongs is an error naming it
    if present is not None and present.st_size == part.size and file_digest(dest) == part.digest:
        progress("fetch", part.size, total)
        return False
    hasher = new_hasher()
    tmp = partial_path(dest)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    size = 0
    with src.open("rb") as fin, os.fdopen(open_nofollow(tmp, flags), "wb") as fout:
        while block := fin.read(_COPY_BLOCK):
            hasher.update(block)
            fout.write(block)
            size += len(block)
            progress("fetch", len(block), total)
        fout.flush()
        os.fsync(fout.fileno())
    digest = format_digest(hasher.hexdigest())
    if size != part.size or digest != part.digest:
        tmp.unlink(missing_ok=True)
        raise DigestMismatch(
            f"{src} ({size} bytes, {digest}) is not part {part.path} of the manifest "
            f"({part.size} bytes, {part.digest})",
            fix="copy that part from the publisher again",
        )
    os.replace(tmp, dest)
    return True


def fetch_release(
    dest: Path,
    *,
    languages: list[str] | None = None,
    capabilities: list[str] | None = None,
    all_languages: bool = False,
    policy: DownloadPolicy | None = None,
    progress: Progress = no_progress,
    **choice: Unpack[ReleaseChoice],
) -> FetchResult:
    """Mirror the release ``choice`` names (see `ReleaseChoice`) into ``dest``. Trust is
    checked before a single part is fetched."""
    check_choice("fetch_release", choice)
    dest = Path(dest)
    with open_release(**choice) as release:
        manifest, data = release.manifest, release.data
        parts = _select_parts(manifest, languages, capabilities, all_languages)
        dest.mkdir(parents=True, exist_ok=True)
        _check_existing_manifest(dest, data)
        total = sum(p.size for p in parts)
        for part in parts:  # made one level at a time: a planted link is refused, not followed
            ensure_dirs(dest, Path(part.path).parent)
        received, reused = _mirror_parts(release.source, parts, dest, policy, progress, total)
        _remove_leftovers(dest)
        fsync_dir(dest)
        # The manifest goes last: its presence is what says the mirror is complete.
        atomic_write_bytes(dest / MANIFEST_NAME, data)
    return FetchResult(
        dest=dest,
        dataset_version=manifest.dataset_version,
        manifest_digest=manifest.digest,
        trust=release.trust,
        parts=len(parts),
        parts_reused=reused,
        bytes_received=received,
        total_bytes=total,
    )


def _remove_leftovers(dest: Path) -> None:
    """Partials no process holds (an earlier, wider fetch) and our own stray temp files."""
    for path in stale_partials(dest):
        path.unlink(missing_ok=True)
    for path in dest.glob(f".{MANIFEST_NAME}.*.tmp"):
        if not _writer_alive(path):
            path.unlink(missing_ok=True)


def _writer_alive(tmp: Path) -> bool:
    """Whether the process named in an atomic-write temp file (``.<name>.<pid>.<hex>.tmp``)
    still runs: a concurrent fetch may be about to rename it into place."""
    fields = tmp.name.split(".")
    try:
        pid = int(fields[-3])
    except (IndexError, ValueError):
        return False
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _mirror_parts(
    src: ReleaseSource,
    parts: list[Part],
    dest: Path,
    policy: DownloadPolicy | None,
    progress: Progress,
    total: int,
) -> tuple[int, int]:
    """Put every part under ``dest``; returns (bytes received over the network, parts kept)."""
    if isinstance(src, LocalSource):
        copied = sum(
            _copy_verified(src.local_part(p), p, dest / p.path, progress, total) for p in parts
        )
        return 0, len(parts) - copied
    from .http_source import HttpSource

    if not isinstance(src, HttpSource):
        raise SourceError(f"cannot mirror from {src.description}: it is neither local nor HTTP")
    items = [DownloadItem(src.part_url(p), dest / p.path, p.size, p.digest, p.path) for p in parts]
    downloader = Downloader(
        policy or src.policy, client=src.client, progress=_progress_adapter(progress)
    )
    results = downloader.download(items)
    return sum(r.bytes_received for r in results), sum(r.reused for r in results)
