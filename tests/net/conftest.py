"""Fixtures for network tests: a loopback HTTP server and a download policy without waits."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Iterator
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
