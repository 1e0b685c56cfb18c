"""Facts of one component database, read once per connection and kept with it: which
indexes, columns and relations it has, its meta rows, its `sources` table.

Everything here is kept by the connection `Corpus.db()` returns
(`lexicon_server.corpus.connection`), so it lives and dies with the connection and
`clear_caches(corpus)` empties all of it at once. Id lists are bound one way: as one
JSON array read by `ID_LIST`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from lexicon_server.corpus import term_docs
from lexicon_server.corpus.connection import kept

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

__all__ = [
    "ALL_RELATIONS",
    "ID_LIST",
    "SENSE_RELATIONS",
    "ConnectionMemo",
    "SourceTable",
    "clear_caches",
    "has_column",
    "has_index",
    "has_term_docs",
    "has_term_edges",
    "id_list",
    "meta_value",
    "relations_stored",
    "source_details",
    "sources",
]

_K = TypeVar("_K")
_V = TypeVar("_V")

# Id lists are bound as one JSON array, so each statement has a single text whatever the
# number of ids: IN lists of every length crowded the connection's statement cache (shared
# by all tools), and a statement compiled again costs ~80 µs.
ID_LIST = "(SELECT value FROM json_each(?))"


def id_list(ids: Iterable[int]) -> str:
    """Ids as the JSON array `ID_LIST` reads."""
    return "[" + ",".join(str(int(i)) for i in ids) + "]"


def clear_caches(corpus: Corpus) -> None:
    """Forget every fact and answer kept for the corpus's open connections (for measuring
    cold look-ups)."""
    corpus.forget()


class ConnectionMemo(Generic[_K, _V]):
    """Answers kept per database connection across calls, at most `size` per connection
    (oldest out first). For facts of installed objects, which never change, so a kept
    answer never goes stale. The answers live in the connection (`Connection.memo`)."""

    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        self.size = size

    def split(self, conn: sqlite3.Connection, keys: Iterable[_K]) -> tuple[dict[_K, _V], list[_K]]:
        """The kept answers among `keys`, and the keys still to be read."""
        return kept(conn).memo(self, self.size).split(keys)

    def keep(self, conn: sqlite3.Connection, fresh: Mapping[_K, _V]) -> None:
        kept(conn).memo(self, self.size).keep(fresh)


def has_index(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the database has index `name` (releases built before it was added lack it)."""

    def read() -> bool:
        sql = "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?"
        return conn.execute(sql, (name,)).fetchone() is not None

    return kept(conn).fact(("index", name), read)


def has_column(conn: sqlite3.Connection, table: str, column: str) -> bool:
    """Whether `table` has `column` (releases built before it was added lack it)."""

    def read() -> bool:
        sql = "SELECT 1 FROM pragma_table_info(?) WHERE name = ?"
        return conn.execute(sql, (table, column)).fetchone() is not None

    return kept(conn).fact(("column", table, column), read)


_META = "SELECT value FROM meta WHERE key = ?"


def meta_value(conn: sqlite3.Connection, key: str) -> str | None:
    """The database's `meta` row `key` (None when it has none), read once per connection."""

    def read() -> str | None:
        row = conn.execute(_META, (key,)).fetchone()
        return None if row is None else str(row[0])

    return kept(conn).fact(("meta", key), read)


def has_term_docs(conn: sqlite3.Connection) -> bool:
    """Whether the builder stored term documents of a layout this server reads
    (lexicon_server/corpus/term_docs.py); without them a look-up reads the tables."""
    return meta_value(conn, term_docs.META_KEY) == term_docs.VERSION


_ANY_TERM_EDGE = "SELECT 1 FROM relations WHERE src_term_id IS NOT NULL LIMIT 1"


def has_term_edges(conn: sqlite3.Connection) -> bool:
    """Whether the database has any term-to-term edge (ConceptNet's); without one, the
    unsensed statements are skipped. Read once per connection, from the index."""
    return kept(conn).fact(
        _ANY_TERM_EDGE, lambda: conn.execute(_ANY_TERM_EDGE).fetchone() is not None
    )


# Which relations a database has edges of: all of them (`ALL_RELATIONS`), and those with
# sense-to-sense edges (`SENSE_RELATIONS`). Read once per connection, keyed by statement.
ALL_RELATIONS = "SELECT DISTINCT relation FROM relations"
SENSE_RELATIONS = "SELECT DISTINCT relation FROM relations WHERE src_sense_id IS NOT NULL"


def relations_stored(conn: sqlite3.Connection, sql: str) -> frozenset[str]:
    """The relation names `sql` reads, kept per connection.

    `SENSE_RELATIONS` (one scan of the sense-edge index, ~8 ms, on first use) lets a tool
    skip a sense-edge statement for a relation the database has none of: WordNet stores
    hypernyms and most other relations only between synsets, and the starter has no
    sense-level synonym edges (each such statement is ~12 µs of index probes a call).
    `ALL_RELATIONS` is read only when a relations answer is empty, to tell "this word
    has none" from "these sources have none" (one index scan, some tens of ms)."""
    return kept(conn).fact(
        ("relations", sql), lambda: frozenset(row[0] for row in conn.execute(sql))
    )


@dataclass(frozen=True)
class SourceTable:
    """The `sources` table of one component database: key and description per row id."""

    keys: dict[int, str]
    infos: dict[int, str]  # the licence of each source, as the result's `sources` gives it
    by_key: dict[str, str]  # the same licences by key


def _read_sources(conn: sqlite3.Connection) -> SourceTable:
    rows = conn.execute("SELECT id, name, licence FROM sources").fetchall()
    # An answer names each source's licence; titles and versions are in lexicon://manifest.
    infos = {row[0]: row[2] for row in rows}
    keys = {row[0]: row[1] for row in rows}
    return SourceTable(keys, infos, {keys[i]: info for i, info in infos.items()})


def sources(conn: sqlite3.Connection) -> SourceTable:
    """The `sources` table of one component database, read once per connection."""
    return kept(conn).fact(_read_sources, lambda: _read_sources(conn))


def source_details(conn: sqlite3.Connection) -> list[tuple[str, str, str, str]]:
    """(name, title, version, licence) of every row of the `sources` table."""
    return conn.execute("SELECT name, title, version, licence FROM sources").fetchall()
