"""Where a release's bytes come from: a local directory, or (lexicon_store.http_source) HTTP.

The install logic only talks to ``ReleaseSource``. A local source hands out the part
files in place (nothing is copied, nothing touches the network); a remote source
downloads a part into a ``.partial`` path the store gives it, and the store verifies
the bytes before anything is built from them.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol, runtime_checkable

from .errors import SourceError
from .manifest import Part
from .progress import Progress

__all__ = [
    "LocalSource",
    "ReleaseSource",
    "SourceSpec",
    "expand_template",
    "is_remote",
    "open_source",
    "opened_source",
    "source_spec",
]

MANIFEST_NAME = "manifest.json"


@runtime_checkable
class ReleaseSource(Protocol):
    """Supplies one release: its manifest bytes and its parts."""

    @property
    def description(self) -> str:
        """Where the release comes from, for messages (a path or URL)."""
        ...

    def read_manifest(self) -> bytes:
        """The manifest bytes exactly as published (the store hashes and validates them)."""
        ...

    def local_part(self, part: Part) -> Path | None:
        """A file already on local disk holding ``part`` (unverified), or None."""
        ...

    def fetch_part(self, part: Part, dest_partial: Path, progress: Progress) -> None:
        """Put the part's bytes in ``dest_partial`` (resuming what is already there).

        Only called when ``local_part`` returned None. The store verifies size and digest
        afterwards and deletes ``dest_partial`` if they do not match.
        """
        ...

    def close(self) -> None: ...


class LocalSource:
    """A release directory (or a manifest.json inside one) on local disk. No network."""

    def __init__(self, directory: Path, manifest_name: str = MANIFEST_NAME) -> None:
        self.directory = Path(directory)
        self.manifest_name = manifest_name

    @property
    def description(self) -> str:
        return str(self.directory)

    def read_manifest(self) -> bytes:
        path = self.directory / self.manifest_name
        try:
            return path.read_bytes()
        except FileNotFoundError:
            raise SourceError(
                f"{path} does not exist: {self.directory} is not a complete release "
                "(the manifest is written last, so a half-copied mirror has none)",
                fix="copy the whole release directory again, or run "
                f"`lexicon-data fetch --dest {self.directory}` on a connected machine",
            ) from None
        except OSError as exc:
            raise SourceError(f"cannot read {path}: {exc}") from None

    def local_part(self, part: Part) -> Path:
        path = self.directory / part.path
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            raise SourceError(
                f"part {part.path!r} is missing from {self.directory}",
                fix=f"copy {part.path} into {self.directory} (or fetch the release again)",
            ) from None
        if not stat.S_ISREG(info.st_mode):
            raise SourceError(f"part {path} is not a regular file (links are refused)")
        # A link in a parent directory could lead outside the release: refuse that too.
        if path.resolve().parent != self.directory.resolve() / Path(part.path).parent:
            raise SourceError(f"part {path} resolves outside {self.directory}")
        return path

    def fetch_part(self, part: Part, dest_partial: Path, progress: Progress) -> None:
        raise SourceError(f"{self.description} is local; local_part() supplies every part")

    def close(self) -> None:
        return None


def source_spec(source: ReleaseSource) -> str | None:
    """What ``--from`` reopens ``source`` with (an absolute path or a URL), or None."""
    if isinstance(source, LocalSource):
        directory = source.directory.resolve()
        if source.manifest_name == MANIFEST_NAME:
            return str(directory)
        return str(directory / source.manifest_name)
    url = getattr(source, "manifest_url", None)
    return url if isinstance(url, str) else None


def is_remote(spec: str) -> bool:
    return spec.startswith(("http://", "https://"))


def expand_template(spec: str, version: str | None, profile: str | None) -> str:
    """Fill ``{version}`` and ``{profile}`` in a --from template."""
    if "{version}" in spec and not version:
        raise SourceError(
            f"--from {spec!r} is a template with {{version}}; pass --version too",
        )
    if "{profile}" in spec and not profile:
        raise SourceError(f"--from {spec!r} is a template with {{profile}}; pass --profile too")
    return spec.replace("{version}", version or "").replace("{profile}", profile or "")


def open_source(
    spec: str | os.PathLike[str] | None,
    *,
    version: str | None = None,
    profile: str | None = None,
) -> ReleaseSource:
    """A source for ``--from``: a directory, a manifest.json path, an http(s) URL or a template.

    Local paths never construct an HTTP client (the HTTP module is not even imported).
    """
    if spec is None:
        spec = os.environ.get("LEXICON_MANIFEST_URL")
        if not spec:
            raise SourceError(
                "no release source given",
                fix="pass --from DIR (a release directory or its manifest.json) or --from URL",
            )
    text = expand_template(os.fspath(spec), version, profile)
    if is_remote(text):
        # Imported here: httpx is loaded only when a release really comes over HTTP.
        from lexicon_store.http_source import HttpSource

        return HttpSource(text)
    path = Path(text).expanduser()
    if path.is_dir():
        return LocalSource(path)
    if path.suffix == ".json":
        if not path.is_file():
            raise SourceError(f"manifest {path} does not exist")
        return LocalSource(path.parent, path.name)
    raise SourceError(
        f"--from {text!r} is neither a release directory, a manifest.json, nor an http(s) URL"
    )


# What the library's operations take as a source: a ``--from`` spec (None: the default
# URL), or a source the caller opened and will close.
SourceSpec = str | os.PathLike[str] | ReleaseSource | None


@contextmanager
def opened_source(
    spec: SourceSpec, *, version: str | None = None, profile: str | None = None
) -> Iterator[ReleaseSource]:
    """The source ``spec`` names, opened here and closed on leaving; a ``ReleaseSource``
    given as ``spec`` is used as it is and left open for its owner to close."""
    if spec is not None and not isinstance(spec, (str, os.PathLike)):
        yield spec
        return
    source = open_source(spec, version=version, profile=profile)
    try:
        yield source
    finally:
        source.close()
