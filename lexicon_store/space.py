"""Free space is checked before anything is written: the manifest gives every size.

An install that would fill the file system is refused up front, with the bytes it needs
and the bytes free, rather than failing once the disk is at 100%.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .errors import InsufficientSpace
from .layout import DataDir
from .manifest import Component
from .source import ReleaseSource

__all__ = ["SpaceNeeded", "check_space", "space_needed"]

# Room for what is written besides objects (records, the pointer, SQLite never writes here).
_RESERVE = 1 << 20


@dataclass(frozen=True)
class SpaceNeeded:
    objects: int  # bytes of the objects still to build
    downloads: int  # bytes of parts still to download into tmp/parts (remote sources)
    free: int  # bytes the data dir's file system has free for this user

    @property
    def total(self) -> int:
        return self.objects + self.downloads + _RESERVE


def _present(dd: DataDir, component: Component) -> bool:
    try:
        return os.lstat(dd.object_path(component.object.digest)).st_size == component.object.size
    except FileNotFoundError:
        return False


def _existing_root(path: Path) -> Path:
    while not path.exists() and path.parent != path:
        path = path.parent
    return path


def space_needed(
    dd: DataDir,
    source: ReleaseSource,
    components: Iterable[Component],
    *,
    force: frozenset[str] = frozenset(),
    extra: int = 0,
) -> SpaceNeeded:
    """What building ``components`` would write, and what is free."""
    objects = extra
    downloads = 0
    seen: set[str] = set()
    for component in components:
        digest = component.object.digest
        if digest in seen or (digest not in force and _present(dd, component)):
            continue
        seen.add(digest)
        objects += component.object.size
        for part in component.parts:
            if source.local_part(part) is not None:
                continue
            partial = dd.parts / f"{part.digest.partition(':')[2]}.partial"
            have = partial.stat().st_size if partial.is_file() else 0
            downloads += max(0, part.size - have)
    free = shutil.disk_usage(_existing_root(dd.root)).free
    return SpaceNeeded(objects, downloads, free)


def _mb(size: int) -> str:
    return f"{size / 1e6:,.1f} MB"


def check_space(dd: DataDir, need: SpaceNeeded) -> SpaceNeeded:
    """Raise InsufficientSpace unless the file system can hold what the plan writes
    (`need`, from `space_needed`)."""
    if need.total > need.free:
        short = need.total - need.free
        detail = f"{need.objects} bytes of objects"
        if need.downloads:
            detail += f" + {need.downloads} bytes of downloads"
        raise InsufficientSpace(
            f"not enough free space in {dd.root}: this needs {need.total} bytes "
            f"({_mb(need.total)}: {detail} + {_RESERVE} reserve), and the file system has "
            f"{need.free} bytes ({_mb(need.free)}) free",
            fix=f"free at least {short} bytes ({_mb(short)}) there, choose fewer "
            "--languages/--capabilities, or use --data-dir on a larger file system",
            needed=need.total,
            free=need.free,
        )
    return need
