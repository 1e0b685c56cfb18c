"""Install a release served on loopback through the store's HTTP source."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lexicon_store import ops
from lexicon_store.download import DownloadPolicy
from lexicon_store.http_source import HttpSource

__all__ = ["install_all_over_http"]


def install_all_over_http(data: Path, release: Any, policy: DownloadPolicy) -> Any:
    """Every language of the served `release` into `data`, pinned to its manifest digest."""
    return ops.install(
        data_dir=data,
        source=HttpSource(release.manifest_url, policy=policy),
        all_languages=True,
        manifest_digest=release.digest,
    )
