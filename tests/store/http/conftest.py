"""Fixtures for network tests: a loopback HTTP server and a download policy without waits."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from lexicon_store.download import DownloadItem, DownloadPolicy, file_digest

_spec = importlib.util.spec_from_file_location(
    "lexicon_tests_net_loopback", Path(__file__).with_name("loopback.py")
)
assert _spec is not None and _spec.loader is not None
loopback = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = loopback
_spec.loader.exec_module(loopback)

LoopbackServer = loopback.LoopbackServer


@dataclass
class Sleeps:
    """Records requested back-off delays instead of sleeping, so tests run fast."""

    calls: list[float] = field(default_factory=list)

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def policy(sleeps: Sleeps) -> DownloadPolicy:
    return DownloadPolicy(
        parallel=3,
        connect_timeout=5.0,
        read_timeout=0.5,
        max_attempts=4,
        max_total_attempts=20,
        backoff_base=0.01,
        backoff_max=0.05,
        retry_after_cap=3.0,
        sleep=sleeps,
    )


@pytest.fixture
def served(tmp_path: Path) -> Path:
    root = tmp_path / "served"
    root.mkdir()
    return root


@pytest.fixture
def server(served: Path) -> Iterator[Any]:
    with LoopbackServer(served) as srv:
        yield srv


class Files:
    """Creates served files and the download items that fetch them into ``dest``."""

    def __init__(self, server: Any, served: Path, dest: Path) -> None:
        self.server = server
        self.served = served
        self.dest = dest

    def add(self, name: str, size: int, seed: int = 0) -> DownloadItem:
        """Serve ``size`` pseudo-random (incompressible) bytes as ``name``."""
        path = self.served / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(random.Random(f"{name}:{seed}").randbytes(size))
        return self.item(name)

    def item(self, name: str) -> DownloadItem:
        src = self.served / name
        return DownloadItem(
            url=f"{self.server.url}/{name}",
            dest=self.dest / name,
            size=src.stat().st_size,
            digest=file_digest(src),
            name=name,
        )


@pytest.fixture
def files(server: Any, served: Path, tmp_path: Path) -> Files:
    return Files(server, served, tmp_path / "dest")


# --- real releases, packaged by our packager and served over loopback -----------------------

PART_SIZE = 64 * 1024  # small, so components split into several parts

LAYOUT = {
    # component id: (language, capability, dataset path, size)
    "en.lexical": ("en", "lexical", "en/lexical.sqlite", 300_000),
    "en.wordplay": ("en", "wordplay", "en/wordplay.sqlite", 90_000),
    "fr.lexical": ("fr", "lexical", "fr/lexical.sqlite", 150_000),
    "shared.licenses": (None, "shared", "DATA_LICENSES.md", 2_000),
}


@dataclass(frozen=True)
class Release:
    """A packaged release under the served root, and how to reach it."""

    name: str
    dir: Path
    digest: str
    version: str
    url: str
    built: Path

    @property
    def manifest_url(self) -> str:
        return f"{self.url}/manifest.json"

    @property
    def part_bytes(self) -> int:
        manifest = json.loads((self.dir / "manifest.json").read_bytes())
        return sum(p["size"] for c in manifest["components"] for p in c["parts"])

    def parts_of(self, *component_ids: str) -> list[dict[str, Any]]:
        manifest = json.loads((self.dir / "manifest.json").read_bytes())
        return [p for c in manifest["components"] if c["id"] in component_ids for p in c["parts"]]


def make_built(root: Path, version: str, seed: int) -> Path:
    """A built dataset dir (docs/architecture.md section 1) of incompressible bytes."""
    rng = random.Random(seed)
    components = []
    for cid, (lang, cap, rel, size) in LAYOUT.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(rng.randbytes(size))
        components.append({"id": cid, "language": lang, "capability": cap, "path": rel})
    dataset = {
        "format": 1,
        "dataset_version": version,
        "profile": "test",
        "schemas": {"lexical": 1, "wordplay": 1, "semantic": 1},
        "languages": {
            "en": {"name": "English", "capabilities": ["lexical", "wordplay"]},
            "fr": {"name": "French", "capabilities": ["lexical"]},
        },
        "components": components,
    }
    (root / "dataset.json").write_text(json.dumps(dataset))
    return root


@pytest.fixture
def make_release(server: Any, served: Path, tmp_path: Path) -> Callable[..., Release]:
    from lexicon_store.package import package_release

    def make(version: str = "net-1.0.0", seed: int = 1) -> Release:
        name = f"{version}-{seed}"
        built = make_built(tmp_path / "built" / name, version, seed)
        result = package_release(built, served / name, part_size=PART_SIZE, level=1)
        return Release(
            name, served / name, result.manifest_digest, version, f"{server.url}/{name}", built
        )

    return make


@pytest.fixture
def release(make_release: Callable[..., Release]) -> Release:
    return make_release()


@dataclass
class Upgrade:
    """Release `old` installed from disk in `data`; `new` served, not installed yet."""

    old: Release
    new: Release
    data: Path


@pytest.fixture
def upgrade(make_release: Callable[..., Release], tmp_path: Path) -> Upgrade:
    from lexicon_store import ops

    old = make_release("net-1.0.0", seed=1)
    new = make_release("net-1.1.0", seed=2)
    data = tmp_path / "data"
    ops.install(data_dir=data, source=old.dir, all_languages=True, manifest_digest=old.digest)
    return Upgrade(old, new, data)


@pytest.fixture(autouse=True)
def _close_http_sources(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Close every HttpSource a test made (as the store does for sources it opens itself),
    so read-ahead downloads never outlive their test."""
    from lexicon_store.http_source import HttpSource

    opened: list[HttpSource] = []
    original = HttpSource.__init__

    def tracking_init(self: HttpSource, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        opened.append(self)

    monkeypatch.setattr(HttpSource, "__init__", tracking_init)
    yield
    for source in opened:
        source.close()


@pytest.fixture(autouse=True)
def _loopback_bypasses_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine with HTTP(S)_PROXY set must still reach the loopback server directly
    (child processes inherit this too)."""
    for name in ("NO_PROXY", "no_proxy"):
        existing = [h for h in (os.environ.get(name) or "").split(",") if h.strip()]
        monkeypatch.setenv(name, ",".join([*existing, "127.0.0.1", "localhost"]))
