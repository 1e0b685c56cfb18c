"""A word's rows for a look-up, before any budget is dealt: its senses, examples,
pronunciations and translations, from its term documents when the release has ones that
cover the request (lexicon_server/corpus/term_docs.py), else from the normalised tables;
both give the same rows."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic_core import from_json

from lexicon_server.corpus import term_docs
from lexicon_server.corpus.rows.facts import ID_LIST, id_list
from lexicon_server.corpus.rows.senses import counted_sense_rows, examples, pronunciations
from lexicon_server.corpus.rows.terms import term_order, term_order_args
from lexicon_server.corpus.rows.translations import (
    TranslationRow,
    dealt,
    held_unsensed,
    sensed_translations,
    target_entry_column,
    unsensed_translations,
)

__all__ = ["Rows", "read_documents", "read_tables"]


@dataclass(slots=True)
class Rows:
    """What a look-up read for its terms, before the budgets are dealt."""

    # Sense rows: a SenseRow, or a document's list; [:10] = id, external_id, gloss, tags,
    # source_id, entry_id, pos, etymology, word, synset.
    chosen: list[Any]
    total_senses: int
    examples: dict[int, list[Any]]  # sense id -> example rows ending (text, source_id)
    example_count: int
    pronunciations: Sequence[Sequence[Any]]  # entry_id, notation, value, variant, source_id
    # Translation rows (see corpus.rows.translations), at most budget + 1 per group,
    # without duplicates.
    by_sense: dict[int, list[TranslationRow]]
    unsensed: list[TranslationRow]
    from_column: bool  # whether target_entry (or a document's flag) is known


def read_tables(
    conn: sqlite3.Connection,
    term_ids: tuple[int, ...],
    limit: int,
    tr_budget: int,
    entries: Sequence[tuple[int, str]] = (),
    documented: bool = False,
) -> Rows:
    """The rows from the normalised tables: only the senses shown are read (a polysemous
    word such as 'set' has dozens more), of the (term, part of speech) `entries` only,
    when given (see Headwords.entries). With `documented` (the release has term
    documents), a term's unsensed translations come from its document when it has one."""
    if not term_ids:
        return Rows([], 0, {}, 0, [], {}, [], False)
    chosen, total_senses = counted_sense_rows(conn, term_ids, limit, entries)
    ids = [row.id for row in chosen]
    by_sense_examples: dict[int, list[Any]] = {}
    example_count = 0
    if ids:
        rows = examples(conn, ids)
        example_count = len(rows)
        for ex_row in rows:
            have = by_sense_examples.get(ex_row[0])
            if have is None:
                by_sense_examples[ex_row[0]] = [ex_row]
            else:
                have.append(ex_row)
    prons = pronunciations(conn, term_ids)
    cap = tr_budget + 1
    by_sense = sensed_translations(conn, term_ids, ids, cap)
    held = held_unsensed(conn, term_ids) if documented and cap <= term_docs.TRANSLATIONS else {}
    unsensed = unsensed_translations(conn, term_ids, cap, held)
    from_column = target_entry_column(conn)
    return Rows(
        chosen, total_senses, by_sense_examples, example_count, prons, by_sense, unsensed,
        from_column,
    )  # fmt: skip


_DOCUMENTS = f"SELECT doc FROM term_docs WHERE term_id IN {ID_LIST} ORDER BY {{first}}term_id"


@functools.lru_cache(maxsize=8)
def _documents_sql(terms: int) -> str:
    return _DOCUMENTS.format(first=term_order("term_id", terms))


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
    sql = _documents_sql(len(term_ids))
    found = conn.execute(sql, (id_list(term_ids), *term_order_args(term_ids))).fetchall()
    if len(found) != len(term_ids):
        return None
    # Strings are not interned: few repeat within a document, and the cache costs time.
    docs = [from_json(row[0], cache_strings=False) for row in found]
    # Each pronunciation names its term, as the tables' rows do (a document's senses all
    # carry the term's text).
    prons = [(*pron, doc[1][0][8]) for doc in docs if doc[1] for pron in doc[2]]
    if len(docs) == 1:
        total, senses, _, unsensed = docs[0]
        unsensed = unsensed[:cap]
    else:  # several terms (e.g. 'be' and 'Be'): merge as the tables' ORDER BY does
        total = sum([doc[0] for doc in docs])
        senses = [sense for doc in docs for sense in doc[1]]
        unsensed = dealt([row for doc in docs for row in doc[3]], cap)
    chosen = senses[:limit]
    by_sense_examples = {row[0]: row[10] for row in chosen if row[10]}
    by_sense = {row[0]: row[11][:cap] for row in chosen if row[11]}
    example_count = sum([len(items) for items in by_sense_examples.values()])
    return Rows(chosen, total, by_sense_examples, example_count, prons, by_sense, unsensed, True)
