"""Decide whether a release's manifest may be installed (pins, explicit digest, opt-out),
and open a release that may: `open_release`, what install, add-language and fetch start with."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypedDict, Unpack

from .digests import digest_bytes, hex_of
from .errors import SourceError, TrustError
from .manifest import Manifest, parse_manifest
from .pins import PINNED_RELEASES
from .source import ReleaseSource, SourceSpec, opened_source

__all__ = [
    "OpenRelease",
    "ReleaseChoice",
    "check_choice",
    "check_trust",
    "open_release",
    "read_trusted_manifest",
]


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


class ReleaseChoice(TypedDict, total=False):
    """Which release a call opens and what vouches for it, as install, add-language and
    fetch take it: ``source`` (a release dir, manifest, URL or ``--from`` template; default
    LEXICON_MANIFEST_URL), the ``version`` and ``profile`` that fill a template and must
    match the manifest, and the trust arguments of `check_trust`: ``manifest_digest``
    (its ``expected_digest``), ``allow_unpinned``, ``pins``."""

    source: SourceSpec
    version: str | None
    profile: str | None
    manifest_digest: str | None
    allow_unpinned: bool
    pins: Mapping[str, str] | None


def check_choice(function: str, choice: ReleaseChoice) -> None:
    """Refuse, before anything is opened or written, a ``choice`` that ``function`` got
    with an argument no release choice has (a misspelt keyword)."""
    unknown = sorted(set(choice) - set(ReleaseChoice.__annotations__))
    if unknown:
        raise TypeError(f"{function}() got unexpected keyword arguments: {', '.join(unknown)}")


def read_trusted_manifest(
    source: ReleaseSource, choice: ReleaseChoice, *, check_profile: bool = True
) -> tuple[Manifest, bytes, str]:
    """Read and parse a release's manifest; check its version, profile (unless
    ``check_profile`` is off) and trust.

    Returns the manifest, its raw bytes and how it is trusted (see `check_trust`).
    """
    version = choice.get("version")
    profile = choice.get("profile") if check_profile else None
    data = source.read_manifest()
    digest = digest_bytes(data)
    manifest = parse_manifest(data, digest)
    if version is not None and manifest.dataset_version != version:
        raise SourceError(
            f"{source.description} holds dataset {manifest.dataset_version}, not {version}",
            fix=f"point --from at the {version} release, or pass --version "
            f"{manifest.dataset_version}",
        )
    if profile is not None and manifest.profile is not None and manifest.profile != profile:
        raise SourceError(
            f"{source.description} holds profile {manifest.profile!r}, not {profile!r}",
            fix=f"pass --profile {manifest.profile} or point --from at the {profile} release",
        )
    trust = check_trust(
        manifest.dataset_version,
        digest,
        expected_digest=choice.get("manifest_digest"),
        allow_unpinned=choice.get("allow_unpinned", False),
        pins=choice.get("pins"),
    )
    return manifest, data, trust


@dataclass(frozen=True)
class OpenRelease:
    """A release whose manifest is trusted: where its parts come from, the parsed manifest,
    its bytes exactly as published, and how it is trusted ('pinned', 'digest', 'unpinned')."""

    source: ReleaseSource
    manifest: Manifest
    data: bytes
    trust: str


@contextmanager
def open_release(
    *, check_profile: bool = True, **choice: Unpack[ReleaseChoice]
) -> Iterator[OpenRelease]:
    """Open the release ``choice`` names (see `opened_source`) and read its trusted
    manifest; the source is closed on leaving if it was opened here.

    ``version`` and ``profile`` fill a ``--from`` template and must match the manifest;
    with ``check_profile=False`` the profile only fills the template (add-language).
    """
    version, profile = choice.get("version"), choice.get("profile")
    with opened_source(choice.get("source"), version=version, profile=profile) as source:
        manifest, data, trust = read_trusted_manifest(source, choice, check_profile=check_profile)
        yield OpenRelease(source, manifest, data, trust)
