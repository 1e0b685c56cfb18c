"""Where a build finds each source's files: the fetched cache, or paths given on the command line.

A source is either an unpacked registry artefact (files named by the members the
catalogue lists) or a local path given with `--source name=path`: a file for a
single-file source, or a directory holding the members under their base names (which is
how the committed test fixtures are laid out).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from lexicon_server.builder.catalogue import SourceSpec, source_spec
from lexicon_server.builder.config import BuildConfig, exclusive
from lexicon_server.builder.errors import BuildError, SourceMismatch, SourceUnavailable
from lexicon_server.builder.lexical_writer import SourceRow
from lexicon_server.builder.sources import SourceLock, extracted_dir, fetch_sources, file_sha256

__all__ = ["Inputs", "SourceInput", "debian_stanza", "parse_overrides", "resolve_inputs"]


@dataclass(frozen=True)
class SourceInput:
    spec: SourceSpec
    root: Path  # an unpacked artefact's root, a directory given by hand, or a single file
    fingerprint: str  # artefact sha256, or a cheap identity of a local path
    from_artefact: bool

    def file(self, role: str) -> Path:
        """The path of one of the source's files (see `SourceSpec.files`)."""
        if self.root.is_file():
            return self.root
        member = self.spec.files.get(role, role)
        path = self.root / member if self.from_artefact else self.root / Path(member).name
        if not path.exists() and path.name.startswith("large_"):
            # wordfreq ships 'small_' lists for every language and 'large_' for some.
            path = path.with_name("small_" + path.name.removeprefix("large_"))
        if not path.exists():
            raise SourceUnavailable(
                f"source {self.spec.name!r} has no {role!r} file at {path}; "
                "check the path given with --source"
            )
        return path

    def has(self, role: str) -> bool:
        try:
            self.file(role)
        except SourceUnavailable:
            return False
        return True

    def notice_files(self) -> list[Path]:
        if not self.from_artefact:
            # A hand-made directory (such as a test fixture) keeps notices beside the data:
            # LICENSE/NOTICE/THIRD-PARTY files, and '<file stem>.copyright' for FreeDict.
            if not self.root.is_dir():
                return []
            stems = {Path(m).name.split(".")[0] for m in self.spec.files.values()}
            return [
                p
                for p in sorted(self.root.iterdir())
                if p.is_file()
                and (
                    p.name.startswith(("LICENSE", "NOTICE", "THIRD-PARTY"))
                    or p.name == "copyright"  # a Debian copyright file kept whole
                    or (p.suffix == ".copyright" and p.name.split(".")[0] in stems)
                )
            ]
        return [self.root / n for n in self.spec.notices if (self.root / n).is_file()]

    def licence(self) -> str:
        """The catalogue's licence, or the one the artefact's Debian copyright stanza states."""
        if self.spec.notice_stanza:
            for path in self.notice_files():
                text = path.read_text(encoding="utf-8", errors="replace")
                stanza = debian_stanza(text, self.spec.notice_stanza) or ""
                for line in stanza.splitlines():
                    if line.startswith("License:"):
                        return line.removeprefix("License:").strip()
        return self.spec.licence

    def row(self) -> SourceRow:
        s = self.spec
        return SourceRow(s.name, s.title, s.version, self.licence(), s.homepage)


def debian_stanza(text: str, pattern: str) -> str | None:
    """The paragraph of a machine-readable Debian copyright file whose `Files:` is `pattern`."""
    for paragraph in text.split("\n\n"):
        lines = paragraph.strip().splitlines()
        if lines and lines[0].strip() == f"Files: {pattern}":
            return "\n".join(lines)
    return None


@dataclass(frozen=True)
class Inputs:
    sources: Mapping[str, SourceInput]

    def get(self, name: str) -> SourceInput | None:
        return self.sources.get(name)

    def require(self, name: str) -> SourceInput:
        found = self.sources.get(name)
        if found is None:
            raise BuildError(
                f"this build needs source {name!r}; give it with `--source {name}=PATH`"
            )
        return found


def parse_overrides(pairs: list[str]) -> dict[str, Path]:
    """`name=path` strings (from --source) -> {name: path}, checking names and paths."""
    out: dict[str, Path] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name or not raw:
            raise BuildError(f"--source takes NAME=PATH, got {pair!r}")
        source_spec(name)  # raises on an unknown name
        path = Path(raw).expanduser()
        if not path.exists():
            raise BuildError(f"--source {name}: {path} does not exist")
        out[name] = path.resolve()
    return out


def _check_pinned_dump(name: str, path: Path, lock: SourceLock) -> None:
    """An english/full dump must be the bytes the lock pins (when it pins any)."""
    entry = lock.entry(name)
    if entry.sha256 is None or not path.is_file():
        return
    size = path.stat().st_size
    if entry.size is not None and size != entry.size:
        raise SourceMismatch(name, "size", entry.size, size, str(path))
    actual = file_sha256(path)
    if actual != entry.sha256:
        raise SourceMismatch(name, "sha256", entry.sha256, actual, str(path))


def _local_fingerprint(path: Path) -> str:
    # Content hashes of multi-GiB dumps would dominate a resume check; identity is enough
    # here because verify-sources checks the content against the lock.
    digest = hashlib.sha256()
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for f in files:
        st = f.stat()
        digest.update(f"{f}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return "local:" + digest.hexdigest()


def resolve_inputs(
    names: list[str],
    overrides: Mapping[str, Path],
    config: BuildConfig,
    lock: SourceLock | None,
    *,
    fetch: bool = True,
    optional: frozenset[str] = frozenset(),
    progress: object = None,
) -> Inputs:
    """Every named source as a `SourceInput`: overrides as given, the rest from the cache.

    Registry sources missing from the cache are fetched (one batch per client) when
    `fetch` is true. Names in `optional` that are neither given nor fetchable are left out.
    """
    found: dict[str, SourceInput] = {}
    to_fetch: list[str] = []
    for name in names:
        spec = source_spec(name)
        if name in overrides:
            path = overrides[name]
            if spec.registry == "local" and lock is not None and name in lock.entries:
                _check_pinned_dump(name, path, lock)
            found[name] = SourceInput(spec, path, _local_fingerprint(path), from_artefact=False)
        elif spec.registry == "local":
            if name not in optional:
                raise BuildError(f"source {name!r} must be given with `--source {name}=PATH`")
        else:
            to_fetch.append(name)
    if to_fetch:
        if lock is None:
            raise BuildError("no sources.lock.json to fetch the registry sources against")
        if fetch:
            say = progress if callable(progress) else None
            with exclusive(config.cache_dir / ".fetch.lock"):
                artefacts = fetch_sources(config, lock, to_fetch, progress=say)
        else:
            artefacts = {}
            for name in to_fetch:
                path = config.downloads / lock.entry(name).filename
                if path.is_file():
                    artefacts[name] = path
                elif name not in optional:
                    raise SourceUnavailable(
                        f"source {name!r} is not in the cache; run `lexicon-build fetch-sources`"
                    )
        with exclusive(config.cache_dir / ".fetch.lock"):
            for name, artefact in artefacts.items():
                spec = source_spec(name)
                sha = lock.entry(name).sha256 or ""
                root = extracted_dir(config, spec, artefact, sha or name)
                found[name] = SourceInput(spec, root, sha, from_artefact=True)
    return Inputs({n: found[n] for n in names if n in found})
