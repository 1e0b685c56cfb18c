"""Provenance: the `sources` table of a database, and the sources one result cites."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from lexicon_server.corpus.connection import kept
from lexicon_server.models import Resolution

__all__ = ["Cited", "SourceTable", "cited_by", "resolution_data", "sources"]


@dataclass(frozen=True)
class SourceTable:
    """The `sources` table of one component database: key and description per row id."""

    keys: dict[int, str]
    infos: dict[int, str]  # the licence of each source, as the result's `sources` gives it
    by_key: dict[str, str]  # the same licences by key


class Cited:
    """The sources one result names: `key()` gives a fact's source key and remembers the
    source, `sources()` is the result's `sources` map. One instance per result; it can
    take source ids from several databases (keys are the same across a release)."""

    __slots__ = ("_used",)

    def __init__(self) -> None:
        self._used: dict[str, str] = {}

    def key(self, table: SourceTable, source_id: int) -> str:
        key = table.keys[source_id]
        if key not in self._used:
            self._used[key] = table.infos[source_id]
        return key

    def merge(self, infos: Mapping[str, str]) -> None:
        """Add sources another part of the query already cited (e.g. `Headwords.sources`)."""
        for key, info in infos.items():
            self._used.setdefault(key, info)

    def sources(self) -> dict[str, str]:
        return dict(sorted(self._used.items()))


def cited_by(resolutions: Iterable[Resolution], cited: Cited) -> dict[str, str]:
    """The sources of the resolutions kept (a dropped one's source is not cited)."""
    used = {r.source for r in resolutions if r.source}
    return {key: info for key, info in cited.sources().items() if key in used}


def _read_sources(conn: sqlite3.Connection) -> SourceTable:
    rows = conn.execute("SELECT id, name, licence FROM sources").fetchall()
    # An answer names each source's licence; titles and versions are in lexicon://manifest.
    infos = {row[0]: row[2] for row in rows}
    keys = {row[0]: row[1] for row in rows}
    return SourceTable(keys, infos, {keys[i]: info for i, info in infos.items()})


def sources(conn: sqlite3.Connection) -> SourceTable:
    """The `sources` table of one component database, read once per connection."""
    return kept(conn).fact(_read_sources, lambda: _read_sources(conn))


def resolution_data(resolutions: Iterable[Resolution]) -> list[dict[str, Any]]:
    """`resolutions` as plain data, each without the details it lacks."""
    return [r.model_dump(mode="json") for r in resolutions]
