"""Reading a word's rows for dictionary_lookup, before any budget is dealt.

The senses, examples, pronunciations and translations of a word's terms come from its
term document when the release has one that covers the request
(lexicon_server/corpus/term_docs.py), else from the normalised tables; both give the
same rows. `sense_rows`, `installed_targets` and `target_entry_column` serve the synonym
and translation tools too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from pydantic_core import from_json

from lexicon_server.corpus import term_docs
from lexicon_server.corpus.connection import kept
from lexicon_server.corpus.term_docs import in_language_turns
from lexicon_server.query.facts import has_index
from lexicon_server.query.headwords import (
    entry_filter,
    term_order,
    term_order_args,
)
from lexicon_server.query.senses import SenseRow, sense_rows
from lexicon_server.query.targets import installed_targets, target_entry_column

if TYPE_CHECKING:
    import sqlite3


__all__ = [
    "Rows",
    "SenseRow",
    "TranslationRow",
    "installed_targets",
    "language_key",
    "read_documents",
    "read_tables",
    "sense_rows",
    "target_entry_column",
]


def _marks(count: int) -> str:
    return ",".join("?" * count)


_SENSE_SELECT = (
    "SELECT s.id, s.external_id, s.gloss, s.tags, s.source_id, e.id, e.pos, e.etymology, "
    "t.text, sy.external_id, s.synset_id{extra} "
    "FROM entries e JOIN terms t ON t.id = e.term_id JOIN senses s ON s.entry_id = e.id "
    "LEFT JOIN synsets sy ON sy.id = s.synset_id "
    "WHERE e.term_id IN ({marks}){entries} ORDER BY {first}e.term_id, e.id, s.rank, s.id LIMIT ?"
)


# --- whether a translation's target word has its own entry ------------------------------


_SQL_TEMPLATES = {
    # The chosen senses, each row also carrying the total: SQLite runs an uncorrelated
    # subquery once per statement, so a polysemous word needs no second statement.
    "senses": _SENSE_SELECT.replace(
        "{extra}",
        ", (SELECT count(*) FROM entries e2 JOIN senses s2 ON s2.entry_id = e2.id "
        "WHERE e2.term_id IN ({marks}){entries2})",
    ),
    "rows": _SENSE_SELECT.replace("{extra}", ""),
    "examples": "SELECT sense_id, text, source_id FROM examples WHERE sense_id IN ({marks}) "
    "ORDER BY sense_id, id",
    "pronunciations": "SELECT entry_id, notation, value, variant, source_id FROM pronunciations "
    "WHERE term_id IN ({marks}) ORDER BY {first}term_id, variant, notation, id",
}
# Translation rows: target_language, target_text, target_norm, note, source_id,
# target_entry (NULL from a database without the column), then sense_id for sensed ones.
_TRANSLATION_COLUMNS = "target_language, target_text, target_norm, note, source_id, {entry}"
_SENSED = {
    # The returned senses belong to these terms: read only their translations, not every
    # translation of a polysemous word.
    "indexed": "WHERE sense_id IN ({smarks})",
    # A release built before the translations_sense index.
    "unindexed": "WHERE term_id IN ({marks}) AND sense_id IN ({smarks})",
}


def _translation_sql() -> dict[str, str]:
    out = {}
    for entry, column in (("col", "target_entry"), ("nocol", "NULL")):
        columns = _TRANSLATION_COLUMNS.replace("{entry}", column)
        for plan, where in _SENSED.items():
            out[f"sensed-{plan}-{entry}"] = (
                f"SELECT {columns}, sense_id FROM translations {where} ORDER BY target_language, id"
            )
        # One term's unsensed rows, each with its id (as the documents hold them), in
        # (term, target language, id) key order: turns need every language's first rows.
        out[f"unsensed-{entry}"] = (
            f"SELECT {columns}, id FROM translations WHERE term_id = ? AND sense_id IS NULL"
        )
    return out


_SQL_TEMPLATES.update(_translation_sql())
_SQL_TEMPLATES["documents-of"] = "SELECT term_id, doc FROM term_docs WHERE term_id IN ({marks})"
_SQL_TEMPLATES["documents"] = (
    "SELECT doc FROM term_docs WHERE term_id IN ({marks}) ORDER BY {first}term_id"
)
# Statements over several terms start their ORDER BY with the best-matching term (see
# headwords.term_order), bound after the term ids.
_TERM_COLUMN = {
    "senses": "e.term_id",
    "rows": "e.term_id",
    "pronunciations": "term_id",
    "documents": "term_id",
}
# Statements by kind and number of bound ids, formatted once (the joins and formats showed
# in profiles). Few distinct shapes exist: ids come in small counts.
_SQL_CACHE: dict[tuple[str, int, int, int], str] = {}


def _sql(kind: str, marks: int, smarks: int = 0, parts: int = 0) -> str:
    """The statement `kind` for `marks` term ids, `smarks` sense ids and, for senses,
    `parts` (term, part of speech) entries to keep (see headwords.entry_filter)."""
    key = (kind, marks, smarks, parts)
    sql = _SQL_CACHE.get(key)
    if sql is None:
        column = _TERM_COLUMN.get(kind)
        sql = _SQL_TEMPLATES[kind].format(
            marks=_marks(marks),
            smarks=_marks(smarks),
            first=term_order(column, marks, parts) if column else "",
            entries=entry_filter("e", parts),
            entries2=entry_filter("e2", parts),
        )
        _SQL_CACHE[key] = sql
    return sql


# --- reading a term's rows: from the tables, or from its term document ---------------------


@dataclass(slots=True)
class Rows:
    """What a look-up read for its terms, before the budgets are dealt."""

    # Sense rows; [:10] = id, external_id, gloss, tags, source_id, entry_id, pos,
    # etymology, word, synset.
    chosen: list[Any]
    total_senses: int
    examples: dict[int, list[Any]]  # sense id -> example rows ending (text, source_id)
    example_count: int
    pronunciations: Sequence[Sequence[Any]]  # entry_id, notation, value, variant, source_id
    # Translation rows (see _TRANSLATION_COLUMNS), at most budget + 1 per group, without
    # duplicates.
    by_sense: dict[int, list[TranslationRow]]
    unsensed: list[TranslationRow]
    from_column: bool  # whether target_entry (or a document's flag) is known


def read_tables(
    conn: sqlite3.Connection,
    term_ids: tuple[int, ...],
    limit: int,
    tr_budget: int,
    entries: tuple[int | str, ...] = (),
    documented: bool = False,
) -> Rows:
    """The rows from the normalised tables: only the senses shown are read (a polysemous
    word such as 'set' has dozens more), of the (term, part of speech) pairs flattened in
    `entries` only, when given (see headwords.entry_filter). With `documented` (the release
    has term documents), a term's unsensed translations come from its document when it
    has one."""
    if not term_ids:
        return Rows([], 0, {}, 0, [], {}, [], False)
    nterms = len(term_ids)
    best = term_order_args(term_ids)
    params = (*term_ids, *entries, *term_ids, *entries, *best, limit)
    chosen = conn.execute(_sql("senses", nterms, 0, len(entries) // 2), params).fetchall()
    total_senses = chosen[0][11] if chosen else 0
    ids = [row[0] for row in chosen]
    examples: dict[int, list[Any]] = {}
    example_count = 0
    if ids:
        rows = conn.execute(_sql("examples", len(ids)), ids).fetchall()
        example_count = len(rows)
        for ex_row in rows:
            have = examples.get(ex_row[0])
            if have is None:
                examples[ex_row[0]] = [ex_row]
            else:
                have.append(ex_row)
    prons = conn.execute(_sql("pronunciations", nterms), (*term_ids, *best)).fetchall()
    from_column = target_entry_column(conn)
    by_sense, unsensed = _translations(conn, term_ids, ids, tr_budget, from_column, documented)
    return Rows(
        chosen, total_senses, examples, example_count, prons, by_sense, unsensed, from_column
    )


def read_documents(
    conn: sqlite3.Connection, term_ids: tuple[int, ...], limit: int, tr_budget: int
) -> Rows | None:
    """The same rows from the terms' documents: one record per term instead of five
    statements over some thirty pages. The documents already hold each group without
    duplicates, in the tables' order. None when a term has no document (no sense) or the
    look-up asks for more than a document holds."""
    cap = tr_budget + 1
    if limit > term_docs.SENSES or cap > term_docs.TRANSLATIONS:
        return None
    best = term_order_args(term_ids)
    found = conn.execute(_sql("documents", len(term_ids)), (*term_ids, *best)).fetchall()
    if len(found) != len(term_ids):
        return None
    # Strings are not interned: few repeat within a document, and the cache costs time.
    docs = [from_json(row[0], cache_strings=False) for row in found]
    if len(docs) == 1:
        total, senses, prons, unsensed = docs[0]
        unsensed = unsensed[:cap]
    else:  # several terms (e.g. 'be' and 'Be'): merge as the tables' ORDER BY does
        total = sum([doc[0] for doc in docs])
        senses = [sense for doc in docs for sense in doc[1]]
        prons = [pron for doc in docs for pron in doc[2]]
        unsensed = _dealt([row for doc in docs for row in doc[3]], cap)
    chosen = senses[:limit]
    examples = {row[0]: row[10] for row in chosen if row[10]}
    by_sense = {row[0]: row[11][:cap] for row in chosen if row[11]}
    example_count = sum([len(items) for items in examples.values()])
    return Rows(chosen, total, examples, example_count, prons, by_sense, unsensed, True)


# Sort keys of translation rows (C-level, which matters at ~20 rows a look-up).
language_key = itemgetter(0)
_language_then_id = itemgetter(0, 6)


TranslationRow = tuple[Any, ...]  # see _TRANSLATION_COLUMNS


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


def _translations(
    conn: sqlite3.Connection,
    term_ids: tuple[int, ...],
    sense_ids: list[int],
    budget: int,
    from_column: bool,
    documented: bool = False,
) -> tuple[dict[int, list[TranslationRow]], list[TranslationRow]]:
    """Translations per returned sense, and unsensed ones, without duplicates (same
    target word in the same language), each list in language turns and cut to `budget`
    + 1 (no group shows more; the extra row tells that it was cut)."""
    by_sense: dict[int, list[TranslationRow]] = {}
    if not term_ids:
        return by_sense, []
    cap = budget + 1
    if sense_ids and _has_sensed(conn):
        entry = "col" if from_column else "nocol"
        if has_index(conn, "translations_sense"):
            kind, params = f"sensed-indexed-{entry}", tuple(sense_ids)
        else:
            kind, params = f"sensed-unindexed-{entry}", (*term_ids, *sense_ids)
        seen: set[tuple[int, str, str]] = set()
        for row in conn.execute(_sql(kind, len(term_ids), len(sense_ids)), params).fetchall():
            key = (row[6], row[0], row[2])
            if key not in seen:
                seen.add(key)
                by_sense.setdefault(row[6], []).append(row)
        by_sense = {sid: in_language_turns(rows)[:cap] for sid, rows in by_sense.items()}
    sql = _SQL_TEMPLATES["unsensed-col" if from_column else "unsensed-nocol"]
    held = _held_unsensed(conn, term_ids) if documented and cap <= term_docs.TRANSLATIONS else {}
    return by_sense, _unsensed_rows(conn, sql, term_ids, cap, held)


def _unsensed_rows(
    conn: sqlite3.Connection,
    sql: str,
    term_ids: tuple[int, ...],
    cap: int,
    held: dict[int, list[TranslationRow]],
) -> list[TranslationRow]:
    """The terms' first `cap` unsensed translations in language turns, as the documents
    hold them: from `held` (a term's document's list) where given, else every row of the
    term is read and dealt here (about 0.6 µs a row; a per-language LIMIT in SQL cost
    more than it saved)."""
    rows: list[TranslationRow] = []
    for term_id in term_ids:
        have = held.get(term_id)
        rows += have if have is not None else conn.execute(sql, (term_id,)).fetchall()
    return _dealt(rows, cap)


def _held_unsensed(
    conn: sqlite3.Connection, term_ids: tuple[int, ...]
) -> dict[int, list[TranslationRow]]:
    """The unsensed translations the terms' documents hold (their first TRANSLATIONS in
    turns, which deal again to the same order), for the terms that have one: an inflected
    form's look-up reads its senses from the tables, but a frequent lemma's translations
    (up to 180 rows) are cheaper to take from its document."""
    found = conn.execute(_sql("documents-of", len(term_ids)), term_ids).fetchall()
    return {term_id: from_json(doc, cache_strings=False)[3] for term_id, doc in found}


def _dealt(rows: list[TranslationRow], cap: int) -> list[TranslationRow]:
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
