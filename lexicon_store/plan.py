"""Resolve --languages / --capabilities / --all-languages against a release's catalogue.

A selection never narrows silently: a language the release does not carry is an
error (``unknown_language``); a capability a named language lacks is reported as a
shortfall (``not_available_upstream``); a named language left with nothing at all is
an error too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .errors import SelectionError
from .manifest import SHARED, Component, Manifest
from .selection import CAPABILITIES

__all__ = [
    "SelectionPlan",
    "Shortfall",
    "components_for",
    "parse_list",
    "plan_selection",
]


@dataclass(frozen=True)
class Shortfall:
    language: str
    capability: str
    reason: str


@dataclass(frozen=True)
class SelectionPlan:
    installed: Mapping[str, frozenset[str]]
    components: tuple[Component, ...]
    shortfalls: tuple[Shortfall, ...]


def parse_list(value: str | Iterable[str] | None) -> list[str] | None:
    """'en, fr' or ['en', 'fr'] → ['en', 'fr']; None stays None."""
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else list(value)
    out: list[str] = []
    for item in items:
        item = item.strip()
        if item and item not in out:
            out.append(item)
    return out


def _check_capabilities(capabilities: list[str]) -> None:
    bad = [c for c in capabilities if c not in CAPABILITIES]
    if bad:
        raise SelectionError(
            f"unknown capability {', '.join(map(repr, bad))}; "
            f"choose from {', '.join(CAPABILITIES)}",
            fix="pass --capabilities lexical,semantic,wordplay (or a subset)",
            reason="invalid_capability",
        )


def components_for(
    manifest: Manifest, installed: Mapping[str, frozenset[str]]
) -> tuple[Component, ...]:
    """Shared components plus every component of an installed (language, capability)."""
    return tuple(
        c
        for c in manifest.components
        if c.capability == SHARED
        or (c.language is not None and c.capability in installed.get(c.language, frozenset()))
    )


def plan_selection(
    manifest: Manifest,
    *,
    languages: list[str] | None,
    capabilities: list[str] | None,
    all_languages: bool = False,
    base: Mapping[str, frozenset[str]] | None = None,
) -> SelectionPlan:
    """The selection to install: ``base`` (already installed) plus what was asked for."""
    if all_languages and languages:
        raise SelectionError(
            "--all-languages and --languages are exclusive", fix="pass only one of them"
        )
    if not all_languages and not languages:
        raise SelectionError(
            "no languages selected",
            fix=f"pass --languages {','.join(sorted(manifest.catalogue)[:3]) or 'en'} "
            "or --all-languages",
        )
    wanted_caps = list(capabilities) if capabilities else list(CAPABILITIES)
    _check_capabilities(wanted_caps)
    names = sorted(manifest.catalogue) if all_languages else list(languages or [])
    unknown = [code for code in names if code not in manifest.catalogue]
    if unknown:
        carried = sorted(manifest.catalogue)
        shown = ", ".join(carried[:20]) + (" ..." if len(carried) > 20 else "")
        raise SelectionError(
            f"release {manifest.dataset_version} does not carry language "
            f"{', '.join(map(repr, unknown))} (unknown_language); it carries: {shown}",
            fix="see `lexicon-data languages` and pick from the release's languages",
            reason="unknown_language",
        )
    installed: dict[str, frozenset[str]] = dict(base or {})
    shortfalls: list[Shortfall] = []
    empty: list[str] = []
    for code in names:
        have = manifest.catalogue[code]
        chosen = frozenset(c for c in wanted_caps if c in have)
        if capabilities:  # defaulted capabilities ("everything it has") cannot fall short
            shortfalls.extend(
                Shortfall(code, c, "not_available_upstream") for c in wanted_caps if c not in have
            )
        if not chosen:
            empty.append(code)
            continue
        installed[code] = installed.get(code, frozenset()) | chosen
    if empty and not all_languages:
        raise SelectionError(
            f"release {manifest.dataset_version} has no {', '.join(wanted_caps)} data for "
            f"{', '.join(empty)} (not_available_upstream)",
            fix="ask for a capability those languages have (see `lexicon-data languages`)",
            reason="not_available_upstream",
        )
    if not installed:
        raise SelectionError(
            f"nothing in release {manifest.dataset_version} matches that selection",
            fix="see `lexicon-data languages` for what each language carries",
            reason="not_available_upstream",
        )
    return SelectionPlan(
        installed=installed,
        components=components_for(manifest, installed),
        shortfalls=tuple(shortfalls),
    )
