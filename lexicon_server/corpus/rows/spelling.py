"""Rows of the spelling index (`spelling_keys`, lexicon_server/corpus/spelling.py) and the
headword prefix scan the suggestion query reads."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import NamedTuple

from lexicon_server.corpus import spelling
from lexicon_server.corpus.rows.facts import meta_value

__all__ = ["SpellingRow", "completion_rows", "key_rows", "spelling_vocabulary"]


class SpellingRow(NamedTuple):
    term_id: int
    text: str
    norm: str
    zipf: float


def spelling_vocabulary(conn: sqlite3.Connection) -> str | None:
    """'zipf' or 'all' (which terms the index holds), or None when the database has no
    spelling index of a layout this server reads (a release built before it)."""
    if meta_value(conn, spelling.META_KEY) != spelling.VERSION:
        return None
    return meta_value(conn, spelling.VOCABULARY_KEY) or "zipf"


_BY_KEYS = (
    "SELECT DISTINCT t.id, t.text, t.norm, t.zipf "
    "FROM json_each(?) j JOIN spelling_keys k ON k.key = j.value "
    "JOIN terms t ON t.id = k.term_id"
)


def key_rows(conn: sqlite3.Connection, keys: Iterable[int]) -> list[SpellingRow]:
    """The terms stored under any of `keys` (32-bit integers, bound as one JSON array)."""
    array = "[" + ",".join(str(int(k)) for k in keys) + "]"
    return [SpellingRow(*row) for row in conn.execute(_BY_KEYS, (array,))]


# Covered by terms_norm (norm, rowid): the scan reads index pages only.
_PREFIX = "SELECT norm, id FROM terms WHERE norm >= ? AND norm < ? ORDER BY norm LIMIT ?"
# Which of those terms the spelling index holds as a word of its own: a norm's own key
# reaches exactly its representative term (a delete or folded form of another word equal
# to the norm would point at a term with another norm).
_INDEXED = (
    "SELECT t.id, t.text, t.norm, t.zipf FROM json_each(?) j "
    "JOIN spelling_keys k ON k.key = j.value ->> 0 AND k.term_id = j.value ->> 1 "
    "JOIN terms t ON t.id = k.term_id"
)


def completion_rows(conn: sqlite3.Connection, prefix: str, scan: int) -> list[SpellingRow]:
    """Suggestible words starting with `prefix` (a norm), among the first `scan` terms in
    norm order; the prefix is bound, never spliced into the statement."""
    found: list[tuple[str, int]] = conn.execute(
        _PREFIX, (prefix, prefix + "\U0010ffff", scan)
    ).fetchall()
    pairs = [
        (spelling.key_of(norm), term_id)
        for norm, term_id in found
        if norm != prefix and spelling.suggestible(norm)
    ]
    if not pairs:
        return []
    array = "[" + ",".join(f"[{key},{term_id}]" for key, term_id in pairs) + "]"
    return [SpellingRow(*row) for row in conn.execute(_INDEXED, (array,))]
