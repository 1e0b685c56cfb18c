"""Decide whether a release's manifest may be installed (pins, explicit digest, opt-out)."""

from __future__ import annotations

from collections.abc import Mapping

from .digests import hex_of
from .errors import TrustError
from .pins import PINNED_RELEASES

__all__ = ["check_trust"]


def check_trust(
    version: str,
    digest: str,
    *,
    expected_digest: str | None = None,
    allow_unpinned: bool = False,
    pins: Mapping[str, str] | None = None,
) -> str:
    """Return how the manifest was trusted ('pinned', 'digest', 'unpinned') or raise TrustError."""
    table = PINNED_RELEASES if pins is None else pins
    if expected_digest is not None:
        hex_of(expected_digest, "--manifest-digest")
        if expected_digest != digest:
            raise TrustError(
                f"the manifest of {version} has digest {digest}, not the {expected_digest} "
                "you asked for; refusing it",
                fix="check where the release came from, or pass the digest its publisher gave",
            )
    pinned = table.get(version)
    if pinned is not None:
        if pinned != digest:
            raise TrustError(
                f"dataset {version} is pinned to manifest {pinned}, but this source serves "
                f"{digest}; the mirror or copy does not hold the published release",
                fix="fetch the release again from its publisher (`lexicon-data fetch`)",
            )
        return "pinned"
    if expected_digest is not None:
        return "digest"
    if allow_unpinned:
        return "unpinned"
    raise TrustError(
        f"dataset {version} is not a release this version of Lexicon pins, and no expected "
        f"digest was given (its manifest is {digest})",
        fix="if you built it or its publisher gave you its digest, rerun with "
        "--manifest-digest blake3:<hex> (the digest above must match), or --allow-unpinned",
    )
