"""Translations: a word's rows per sense and unsensed (from the tables or its term
documents), and its rows into one target language.

A translation row is (target_language, target_text, target_norm, note, source_id,
target_entry), then the sense id for a sensed row or the row id for an unsensed one;
target_entry is NULL from a database without the column (see `target_entry_column`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from pydantic_core import from_json

from lexicon_server.corpus.connection import kept
from lexicon_server.corpus.rows.facts import ID_LIST, has_column, has_index, id_list, meta_value
from lexicon_server.corpus.term_docs import in_language_turns

__all__ = [
    "TranslationRow",
    "dealt",
    "held_unsensed",
    "language_key",
    "pair_sizes",
    "sensed_translations",
    "target_entry_column",
    "translation_order",
    "translations_into",
    "unsensed_translations",
]

TranslationRow = tuple[Any, ...]  # see the module's docstring

# Sort keys of translation rows (C-level, which matters at ~20 rows a look-up).
language_key = itemgetter(0)
_language_then_id = itemgetter(0, 6)

_COLUMNS = "target_language, target_text, target_norm, note, source_id, {entry}"


def _statements(template: str) -> dict[bool, str]:
    """`template` for a database with the target_entry column (True) and without."""
    return {
        column: template.replace(
            "{columns}", _COLUMNS.replace("{entry}", "target_entry" if column else "NULL")
        )
        for column in (True, False)
    }


# The returned senses belong to these terms: read only their translations, not every
# translation of a polysemous word (by the translations_sense index, or without it, a
# release built before it, by term too).
_SENSED_INDEXED = _statements(
    f"SELECT {{columns}}, sense_id FROM translations WHERE sense_id IN {ID_LIST} "
    "ORDER BY target_language, id"
)
_SENSED_UNINDEXED = _statements(
    f"SELECT {{columns}}, sense_id FROM translations WHERE term_id IN {ID_LIST} "
    f"AND sense_id IN {ID_LIST} ORDER BY target_language, id"
)
# One term's unsensed rows, each with its id (as the documents hold them), in (term,
# target language, id) key order: turns need every language's first rows.
_UNSENSED = _statements(
    "SELECT {columns}, id FROM translations WHERE term_id = ? AND sense_id IS NULL"
)
_INTO = _statements(
    f"SELECT {{columns}}, sense_id FROM translations WHERE term_id IN {ID_LIST} "
    "AND target_language = ? ORDER BY id"
)
# The same rows with one term's first: a merged list (builder mark `merged`) is best
# first within each term, and the word asked for leads its inflection's lemma.
_INTO_TERM_FIRST = _statements(
    f"SELECT {{columns}}, sense_id FROM translations WHERE term_id IN {ID_LIST} "
    "AND target_language = ? ORDER BY term_id <> ?, id"
)
_DOCUMENTS_OF = f"SELECT term_id, doc FROM term_docs WHERE term_id IN {ID_LIST}"


def target_entry_column(conn: sqlite3.Connection) -> bool:
    """Whether the builder recorded `translations.target_entry` in this database (releases
    built before it was added lack the column, and are answered by probing instead)."""
    return has_column(conn, "translations", "target_entry")


# Whether a database has any sense-attached translation (the starter's FreeDict ones are
# all unsensed): when it has none, the per-sense statement is not run at all. Read once
# per connection and kept in it.
def _has_sensed(conn: sqlite3.Connection) -> bool:
    return kept(conn).fact(_has_sensed, lambda: _read_has_sensed(conn))


def _read_has_sensed(conn: sqlite3.Connection) -> bool:
    if has_index(conn, "translations_sense"):
        # The partial index holds exactly the sensed rows: one step answers.
        row = conn.execute(
            "SELECT 1 FROM translations INDEXED BY translations_sense "
            "WHERE sense_id IS NOT NULL LIMIT 1"
        ).fetchone()
        return row is not None
    return True  # without the index the question costs a scan: just ask per look-up


def sensed_translations(
    conn: sqlite3.Connection, term_ids: Sequence[int], sense_ids: Sequence[int], cap: int
) -> dict[int, list[TranslationRow]]:
    """The senses' translations by sense, without duplicates (same target word in the same
    language), each list in language turns and cut to `cap`."""
    by_sense: dict[int, list[TranslationRow]] = {}
    if not sense_ids or not _has_sensed(conn):
        return by_sense
    column = target_entry_column(conn)
    if has_index(conn, "translations_sense"):
        rows = conn.execute(_SENSED_INDEXED[column], (id_list(sense_ids),))
    else:
        rows = conn.execute(_SENSED_UNINDEXED[column], (id_list(term_ids), id_list(sense_ids)))
    seen: set[tuple[int, str, str]] = set()
    for row in rows.fetchall():
        key = (row[6], row[0], row[2])
        if key not in seen:
            seen.add(key)
            by_sense.setdefault(row[6], []).append(row)
    return {sid: in_language_turns(rows)[:cap] for sid, rows in by_sense.items()}


def unsensed_translations(
    conn: sqlite3.Connection,
    term_ids: Sequence[int],
    cap: int,
    held: dict[int, list[TranslationRow]],
) -> list[TranslationRow]:
    """The terms' first `cap` unsensed translations in language turns, as the documents
    hold them: from `held` (a term's document's list, see `held_unsensed`) where given,
    else every row of the term is read and dealt here (about 0.6 µs a row; a
    per-language LIMIT in SQL cost more than it saved)."""
    sql = _UNSENSED[target_entry_column(conn)]
    rows: list[TranslationRow] = []
    for term_id in term_ids:
        have = held.get(term_id)
        rows += have if have is not None else conn.execute(sql, (term_id,)).fetchall()
    return dealt(rows, cap)


def held_unsensed(
    conn: sqlite3.Connection, term_ids: Sequence[int]
) -> dict[int, list[TranslationRow]]:
    """The unsensed translations the terms' documents hold (their first TRANSLATIONS in
    turns, which deal again to the same order), for the terms that have one: an inflected
    form's look-up reads its senses from the tables, but a frequent lemma's translations
    (up to 180 rows) are cheaper to take from its document."""
    found = conn.execute(_DOCUMENTS_OF, (id_list(term_ids),)).fetchall()
    return {term_id: from_json(doc, cache_strings=False)[3] for term_id, doc in found}


def dealt(rows: list[TranslationRow], cap: int) -> list[TranslationRow]:
    """Unsensed rows of one or several terms (each with its id last): the first `cap` of
    them in language turns, duplicates dropped."""
    return in_language_turns(_unique(rows))[:cap]


def _unique(rows: list[TranslationRow]) -> list[TranslationRow]:
    """`rows` in language then id order, without repeats of a (language, norm)."""
    unique: list[TranslationRow] = []
    pairs: set[tuple[str, str]] = set()
    for row in sorted(rows, key=_language_then_id):
        if (row[0], row[2]) not in pairs:
            pairs.add((row[0], row[2]))
            unique.append(row)
    return unique


def translation_order(conn: sqlite3.Connection) -> str | None:
    """The builder's `translation_order` mark (builder/translation_rank.py): None (rows in
    the source's order), `evidence` (sense-tied rows ranked) or `merged` (one best-first
    list per word and target language)."""
    return meta_value(conn, "translation_order")


def translations_into(
    conn: sqlite3.Connection,
    term_ids: Sequence[int],
    language: str,
    first_term: int | None = None,
) -> list[TranslationRow]:
    """Every translation of the terms into `language` (sense id last, NULL for an
    unsensed row), by row id; `first_term`'s rows first when it is given."""
    column = target_entry_column(conn)
    if first_term is None:
        return conn.execute(_INTO[column], (id_list(term_ids), language)).fetchall()
    args = (id_list(term_ids), language, first_term)
    return conn.execute(_INTO_TERM_FIRST[column], args).fetchall()


# The builder's count of the component's terms per target language
# (builder/lexical_finish.py TRANSLATION_TERMS_META).
_PAIR_SIZES_META = "translation_terms"
_PAIR_SIZES = (
    "SELECT target_language, count(*) FROM "
    "(SELECT DISTINCT term_id, target_language FROM translations) GROUP BY target_language"
)


def pair_sizes(conn: sqlite3.Connection) -> dict[str, int]:
    """Target language -> how many of the component's terms translate into it (the
    builder's meta row; a release built before it is counted by one scan of the
    translations' key), read once per connection."""

    def read() -> dict[str, int]:
        value = meta_value(conn, _PAIR_SIZES_META)
        rows = json.loads(value).items() if value is not None else conn.execute(_PAIR_SIZES)
        return {str(k): int(v) for k, v in rows}

    return kept(conn).fact(pair_sizes, read)
