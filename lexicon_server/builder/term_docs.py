"""Write and refresh a lexical component's `term_docs` (see lexicon_server/corpus/term_docs.py).

`write_term_docs` runs in the lexical writer, when every table is final. `refresh_term_docs`
runs after `translations.target_entry` is linked: it regenerates every document and
rewrites those whose flags changed. A flag is one digit, so a document keeps its size and
SQLite overwrites it in place: relinking stays byte-for-byte reproducible.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

from pydantic_core import to_json

from lexicon_server.builder.errors import BuildError
from lexicon_server.corpus.term_docs import (
    META_KEY,
    MIN_ZIPF,
    SENSES,
    TARGET_UNKNOWN,
    TRANSLATIONS,
    VERSION,
    in_language_turns,
)

__all__ = ["refresh_term_docs", "term_docs", "write_term_docs"]

# Streams ordered by term, of the terms in use only (`:zipf` is MIN_ZIPF); the per-sense
# rows are gathered in dictionaries first.
_IN_USE = "SELECT id FROM terms WHERE zipf >= :zipf"
_SENSES_IN_USE = (
    "SELECT s.id FROM terms t JOIN entries e ON e.term_id = t.id "
    "JOIN senses s ON s.entry_id = e.id WHERE t.zipf >= :zipf"
)
_SENSES = (
    "SELECT e.term_id, s.id, s.external_id, s.gloss, s.tags, s.source_id, e.id, e.pos, "
    "e.etymology, t.text, sy.external_id FROM entries e JOIN terms t ON t.id = e.term_id "
    "JOIN senses s ON s.entry_id = e.id LEFT JOIN synsets sy ON sy.id = s.synset_id "
    "WHERE t.zipf >= :zipf ORDER BY e.term_id, s.rank, e.id, s.id"
)
_EXAMPLES = (
    "SELECT sense_id, text, source_id FROM examples "
    f"WHERE sense_id IN ({_SENSES_IN_USE}) ORDER BY sense_id, id"
)
_SENSED = (
    "SELECT sense_id, target_language, target_text, target_norm, note, source_id, "
    f"target_entry FROM translations WHERE sense_id IN ({_SENSES_IN_USE}) "
    "ORDER BY sense_id, target_language, id"
)
_PRONUNCIATIONS = (
    "SELECT term_id, entry_id, notation, value, variant, source_id FROM pronunciations "
    f"WHERE term_id IN ({_IN_USE}) ORDER BY term_id, variant, notation, id"
)
_UNSENSED = (
    "SELECT term_id, target_language, target_text, target_norm, note, source_id, "
    f"target_entry, id FROM translations WHERE sense_id IS NULL AND term_id IN ({_IN_USE}) "
    "ORDER BY term_id, target_language, id"
)


def _flag(value: int | None) -> int:
    return TARGET_UNKNOWN if value is None else value


def _by_term(rows: Iterator[Any]) -> Iterator[tuple[int, list[Any]]]:
    """Group a term-ordered stream of rows (term id first) into (term id, rows)."""
    current: int | None = None
    group: list[Any] = []
    for row in rows:
        if row[0] != current:
            if current is not None:
                yield current, group
            current, group = row[0], []
        group.append(row)
    if current is not None:
        yield current, group


def _first_per_language(rows: list[Any]) -> Iterator[Any]:
    """One owner's translation rows (owner, language, text, norm, ...; language then id
    order) without repeated (language, norm) pairs, at most TRANSLATIONS per language:
    `in_language_turns` puts a language's 22nd row behind 21 others, so a list capped at
    TRANSLATIONS never shows it, and the rows past it (hundreds into German for common
    words) need no work."""
    language = None
    norms: set[str] = set()
    for row in rows:
        if row[1] != language:
            language, norms = row[1], set()
        if len(norms) < TRANSLATIONS and row[3] not in norms:
            norms.add(row[3])
            yield row


class _Groups:
    """A term-ordered stream of groups, taken by term id in increasing order."""

    def __init__(self, rows: Iterator[Any]) -> None:
        self._groups = _by_term(rows)
        self._head = next(self._groups, None)

    def take(self, term_id: int) -> list[Any]:
        while self._head is not None and self._head[0] < term_id:
            self._head = next(self._groups, None)
        if self._head is not None and self._head[0] == term_id:
            return self._head[1]
        return []


def term_docs(conn: sqlite3.Connection) -> Iterator[tuple[int, bytes]]:
    """(term id, document) for every term in use (Zipf >= MIN_ZIPF) with at least one
    sense, in term id order.

    The other terms are left to the tables: look-ups concentrate on words in use, which
    also have the most rows to gather, and documents for every term made the starter 40%
    larger instead of 11%."""
    in_use = {"zipf": MIN_ZIPF}
    examples: dict[int, list[list[Any]]] = {}
    for sense_id, text, source_id in conn.execute(_EXAMPLES, in_use):
        examples.setdefault(sense_id, []).append([text, source_id])
    sensed: dict[int, list[list[Any]]] = {}
    for sense_id, rows in _by_term(conn.execute(_SENSED, in_use)):
        sensed[sense_id] = [
            [lang, text, norm, note, source_id, _flag(entry)]
            for _, lang, text, norm, note, source_id, entry in _first_per_language(rows)
        ]
    prons = _Groups(conn.execute(_PRONUNCIATIONS, in_use))
    unsensed = _Groups(conn.execute(_UNSENSED, in_use))
    for term_id, sense_rows in _by_term(conn.execute(_SENSES, in_use)):
        senses = [
            [
                *row[1:],
                examples.get(row[1], []),
                in_language_turns(sensed.get(row[1], []))[:TRANSLATIONS],
            ]
            for row in sense_rows[:SENSES]
        ]
        shown = [
            [lang, text, norm, note, source_id, _flag(entry), row_id]
            for _, lang, text, norm, note, source_id, entry, row_id in _first_per_language(
                unsensed.take(term_id)
            )
        ]
        shown = in_language_turns(shown)[:TRANSLATIONS]
        document = [len(sense_rows), senses, [list(row[1:]) for row in prons.take(term_id)], shown]
        yield term_id, to_json(document)


def write_term_docs(conn: sqlite3.Connection) -> int:
    """Fill the empty `term_docs` table and mark the database as having it; returns the
    number of documents."""
    # Generated in full before inserting: the reads must not see the table they feed.
    docs = list(term_docs(conn))
    conn.executemany("INSERT INTO term_docs (term_id, doc) VALUES (?, ?)", docs)
    conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (META_KEY, VERSION))
    return len(docs)


def refresh_term_docs(conn: sqlite3.Connection) -> int:
    """Rewrite, in place, the documents whose translation flags changed; returns how many.

    Only flags can change after the writer, and a flag is one digit: a document of any
    other size means the tables changed under the documents, which is a builder bug."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (META_KEY,)).fetchone()
    if row is None:
        return 0  # a database written before term documents existed
    stored = dict(conn.execute("SELECT term_id, doc FROM term_docs"))
    changed = []
    for term_id, doc in term_docs(conn):
        old = stored.get(term_id)
        if old == doc:
            continue
        if old is None or len(old) != len(doc):
            raise BuildError(f"term_docs: document of term {term_id} no longer matches its rows")
        changed.append((doc, term_id))
    conn.executemany("UPDATE term_docs SET doc = ? WHERE term_id = ?", changed)
    return len(changed)
