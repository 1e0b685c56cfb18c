"""Data releases this code release trusts: {dataset_version: manifest digest}.

A pinned version is installed only if its manifest hashes to the pinned digest, so a
mirror cannot substitute other bytes. Versions not listed here (a starter corpus built
locally, a private build) need the expected digest from the user (``--manifest-digest``)
or an explicit ``--allow-unpinned``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["DEFAULT_VERSION", "PINNED_RELEASES", "pinned_digest"]

# The dataset version suggested by error messages (and by lexicon_store.selection).
DEFAULT_VERSION = "starter-2026.11.0"

# No data release has been published yet; `lexicon-build publish` prints the line to add
# here (docs/releasing.md).
PINNED_RELEASES: Mapping[str, str] = MappingProxyType({})


def pinned_digest(version: str, pins: Mapping[str, str] | None = None) -> str | None:
    return (PINNED_RELEASES if pins is None else pins).get(version)
