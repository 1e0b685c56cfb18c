"""Small real releases for the store tests: built dirs in tmp_path, packaged by our packager."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from _support.processes import environ_without, run_module

from lexicon_store.package import PackageResult, package_release

PART_SIZE = 4096  # small, so the bigger components are split into several parts


def _bytes(seed: int, size: int) -> bytes:
    """Deterministic, mildly compressible bytes that differ with ``seed``."""
    words = [f"w{seed}-{i}-{(i * 7919 + seed) % 1000}".encode() for i in range(size // 8 + 1)]
    return b" ".join(words)[:size]


LAYOUT = {
    # component id: (language, capability, path, size, seed)
    "en.lexical": ("en", "lexical", "en/lexical.sqlite", 20_000, 1),
    "en.wordplay": ("en", "wordplay", "en/wordplay.sqlite", 6_000, 2),
    "en.semantic.vocab": ("en", "semantic", "en/semantic.sqlite", 3_000, 3),
    "en.semantic.vectors": ("en", "semantic", "en/semantic.f16.npy", 9_000, 4),
    "fr.lexical": ("fr", "lexical", "fr/lexical.sqlite", 7_000, 5),
    "de.lexical": ("de", "lexical", "de/lexical.sqlite", 5_000, 6),
    "shared.licenses": (None, "shared", "DATA_LICENSES.md", 500, 7),
}


def make_built_dir(
    root: Path,
    version: str = "test-1.0.0",
    seeds: dict[str, int] | None = None,
    profile: str = "test",
) -> Path:
    """A built dataset dir in the docs/architecture.md section 1 format."""
    root.mkdir(parents=True, exist_ok=True)
    components = []
    for cid, (lang, cap, path, size, seed) in LAYOUT.items():
        seed = (seeds or {}).get(cid, seed)
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(_bytes(seed, size))
        components.append({"id": cid, "language": lang, "capability": cap, "path": path})
    dataset = {
        "format": 1,
        "dataset_version": version,
        "profile": profile,
        "schemas": {"lexical": 1, "wordplay": 1, "semantic": 1},
        "languages": {
            "en": {"name": "English", "capabilities": ["lexical", "semantic", "wordplay"]},
            "fr": {"name": "French", "capabilities": ["lexical"]},
            "de": {"name": "German", "capabilities": ["lexical"]},
        },
        "components": components,
    }
    (root / "dataset.json").write_text(json.dumps(dataset, indent=1))
    return root


@dataclass(frozen=True)
class Release:
    dir: Path
    digest: str
    result: PackageResult

    @property
    def manifest(self) -> dict:  # type: ignore[type-arg]
        return json.loads((self.dir / "manifest.json").read_text())

    def write_manifest(self, body: dict) -> str:  # type: ignore[type-arg]
        from lexicon_store.digests import digest_bytes

        data = json.dumps(body).encode()
        (self.dir / "manifest.json").write_bytes(data)
        return digest_bytes(data)


@pytest.fixture
def make_release(tmp_path: Path) -> Callable[..., Release]:
    counter = iter(range(1, 1000))

    def make(version: str = "test-1.0.0", seeds: dict[str, int] | None = None) -> Release:
        n = next(counter)
        built = make_built_dir(tmp_path / f"built{n}", version, seeds)
        result = package_release(built, tmp_path / f"release{n}", part_size=PART_SIZE)
        return Release(result.release_dir, result.manifest_digest, result)

    return make


@pytest.fixture(scope="session")
def _pristine_release(tmp_path_factory: pytest.TempPathFactory) -> Release:
    root = tmp_path_factory.mktemp("pristine")
    built = make_built_dir(root / "built0")
    result = package_release(built, root / "release0", part_size=PART_SIZE)
    return Release(result.release_dir, result.manifest_digest, result)


@pytest.fixture
def release(_pristine_release: Release, tmp_path: Path) -> Release:
    """A fresh copy of the standard test release (tests may damage it)."""
    shutil.copytree(_pristine_release.dir.parent / "built0", tmp_path / "built0")
    shutil.copytree(_pristine_release.dir, tmp_path / "release0")
    return Release(tmp_path / "release0", _pristine_release.digest, _pristine_release.result)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


def run_cli(
    *args: str, env: dict[str, str] | None = None, check: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run lexicon-data in a fresh process (as users do)."""
    full_env = environ_without(lambda name: name == "LEXICON_CRASH_AT") | (env or {})
    return run_module("lexicon_store.cli", *args, env=full_env, check=check, timeout=60)


def snapshot(data_dir: Path) -> dict[str, bytes]:
    """Every file of a data dir except the lock and tmp/, by relative path."""
    out: dict[str, bytes] = {}
    for path in sorted(data_dir.rglob("*")):
        rel = path.relative_to(data_dir).as_posix()
        if path.is_file() and rel != "lock" and not rel.startswith("tmp/"):
            out[rel] = path.read_bytes()
    return out


@pytest.fixture
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    return run_cli


@pytest.fixture
def snap() -> Callable[[Path], dict[str, bytes]]:
    return snapshot


@pytest.fixture
def built_factory(tmp_path: Path) -> Callable[..., Path]:
    counter = iter(range(1, 1000))

    def make(version: str = "test-1.0.0", seeds: dict[str, int] | None = None) -> Path:
        return make_built_dir(tmp_path / f"b{next(counter)}", version, seeds)

    return make
