"""Every environment variable the builder reads, in one place, passed down as one object."""

from __future__ import annotations

import fcntl
import os
import signal
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

__all__ = ["BuildConfig", "crash_point", "exclusive", "load_build_config"]


@dataclass(frozen=True)
class BuildConfig:
    cache_dir: Path  # downloaded sources, extracted files and cached starter builds

    @property
    def downloads(self) -> Path:
        return self.cache_dir / "downloads"

    @property
    def extracted(self) -> Path:
        return self.cache_dir / "extracted"

    @property
    def builds(self) -> Path:
        return self.cache_dir / "builds"

    @property
    def releases(self) -> Path:
        return self.cache_dir / "releases"


def load_build_config(environ: Mapping[str, str] | None = None) -> BuildConfig:
    """LEXICON_BUILD_CACHE, else $XDG_CACHE_HOME/lexicon/sources, else ~/.cache/lexicon/sources."""
    env = os.environ if environ is None else environ
    explicit = env.get("LEXICON_BUILD_CACHE")
    if explicit:
        return BuildConfig(cache_dir=Path(explicit).expanduser())
    xdg = env.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return BuildConfig(cache_dir=base / "lexicon" / "sources")


def crash_point(name: str) -> None:
    """Kill this process with SIGKILL when LEXICON_BUILD_KILL_AT names this point.

    Resumption tests use it to stop a build exactly between two durable steps, the way a
    power cut or the OOM killer would; nothing else sets the variable.
    """
    if os.environ.get("LEXICON_BUILD_KILL_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)


@contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on `path` (created if needed) for the block.

    Two builds into the same directory, or two fetches into the same cache (several test
    runs at once, say), wait for each other instead of interleaving their writes.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
