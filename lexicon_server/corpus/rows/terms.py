"""Terms and headwords: the rows a word's spelling reaches, and the SQL fragments that keep
a resolution's term order and entries in every statement over senses or pronunciations."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence

from lexicon_server.corpus.rows.facts import ID_LIST, id_list

__all__ = [
    "ENTRY_BATCH",
    "bare_terms",
    "entry_filter",
    "entry_filter_args",
    "entry_parts",
    "exact_terms",
    "has_entry",
    "inflections",
    "lemma_entries",
    "norm_zipf",
    "norms_with_entries",
    "term_norms",
    "term_order",
    "term_order_args",
    "term_text",
    "term_texts",
]

# Parts of speech in the order WordNet (and NLTK's `wn.synsets()`) lists them.
_POS_RANK = (
    "CASE {alias}.pos WHEN 'noun' THEN 0 WHEN 'verb' THEN 1 WHEN 'adj' THEN 2 "
    "WHEN 'adv' THEN 3 ELSE 4 END, "
)


def term_order(column: str, count: int, parts: int = 0) -> str:
    """The start of an ORDER BY that keeps the order a resolution gave `count` terms: the
    first (the best match, see `query.headwords.best_first`) before the others, which
    follow by id. Put it before `column` in the ORDER BY and bind `term_order_args` after
    the term ids. One term needs nothing, so the usual statement keeps reading in index
    order.

    With `parts` kept entries (a form that reached lemmas, see Headwords.entries) and an
    entries column (`e.term_id`), parts of speech come first, as `wn.synsets()` lists
    them: 'running' gives its own nouns, then the verb 'run', then its own adjectives, so
    a small `limit` still shows the lemma."""
    if count < 2:
        return ""
    alias, dot, _name = column.rpartition(".")
    rank = _POS_RANK.format(alias=alias) if parts and dot else ""
    return f"{rank}{column} <> ?, "


def entry_filter(alias: str, count: int) -> str:
    """A condition for a WHERE over entries (`alias`) keeping `count` bound (term id, part
    of speech) pairs, `entry_filter_args`; nothing when `count` is 0."""
    if not count:
        return ""
    return f" AND ({alias}.term_id, {alias}.pos) IN (VALUES {', '.join(['(?, ?)'] * count)})"


def entry_filter_args(entries: Sequence[tuple[int, str]]) -> tuple[int | str, ...]:
    """The parameters of `entry_filter` for `entries` (see Headwords.entries), flattened."""
    return tuple(value for pair in entries for value in pair)


def term_order_args(term_ids: Sequence[int]) -> tuple[int, ...]:
    """The parameter `term_order` binds: the first term's id, when there are several."""
    return (term_ids[0],) if len(term_ids) > 1 else ()


_EXACT = (
    "SELECT t.id, t.text FROM terms t WHERE t.norm = ? "
    "AND EXISTS (SELECT 1 FROM entries e WHERE e.term_id = t.id) ORDER BY t.id"
)
_BARE = "SELECT id, text FROM terms WHERE norm = ? ORDER BY id"
_INFLECTIONS = (
    "SELECT lemma_term_id, pos, source_id FROM inflections WHERE form_norm = ? "
    "ORDER BY lemma_term_id, pos"
)
_LEMMA_ENTRIES = (
    "SELECT DISTINCT t.id, t.text, t.norm, e.pos FROM terms t JOIN entries e ON e.term_id = t.id "
    f"WHERE t.norm IN {ID_LIST} ORDER BY t.id"
)
_ENTRY_PARTS = (
    f"SELECT DISTINCT term_id, pos FROM entries WHERE term_id IN {ID_LIST} ORDER BY term_id, pos"
)
_TEXTS = f"SELECT id, text FROM terms WHERE id IN {ID_LIST}"
_NORMS = f"SELECT norm FROM terms WHERE id IN {ID_LIST}"
_HAS_ENTRY = "SELECT 1 FROM terms t JOIN entries e ON e.term_id = t.id WHERE t.norm = ? LIMIT 1"
# Norms are bound as one JSON array too (`ID_LIST` reads any JSON values), at most
# ENTRY_BATCH a statement.
ENTRY_BATCH = 200
_WITH_ENTRIES = (
    f"SELECT DISTINCT t.norm FROM terms t WHERE t.norm IN {ID_LIST} "
    "AND EXISTS (SELECT 1 FROM entries e WHERE e.term_id = t.id)"
)


_ZIPF = "SELECT max(zipf) FROM terms WHERE norm = ? AND zipf > 0"


def norm_zipf(conn: sqlite3.Connection, norm: str) -> float | None:
    """The wordfreq Zipf value of the terms spelled `norm` (None: unknown)."""
    row = conn.execute(_ZIPF, (norm,)).fetchone()
    return None if row is None or row[0] is None else float(row[0])


def exact_terms(conn: sqlite3.Connection, norm: str) -> list[tuple[int, str]]:
    """(id, text) of the terms spelled `norm` that have an entry, by id."""
    return conn.execute(_EXACT, (norm,)).fetchall()


def bare_terms(conn: sqlite3.Connection, norm: str) -> list[tuple[int, str]]:
    """(id, text) of every term spelled `norm`, with an entry or not, by id."""
    return conn.execute(_BARE, (norm,)).fetchall()


def inflections(conn: sqlite3.Connection, norm: str) -> list[tuple[int, str, int]]:
    """(lemma term id, part of speech or '', source id) of the inflection rows of form
    `norm`, by lemma then part of speech."""
    return conn.execute(_INFLECTIONS, (norm,)).fetchall()


def lemma_entries(
    conn: sqlite3.Connection, norms: Iterable[str]
) -> list[tuple[int, str, str, str]]:
    """(term id, text, norm, part of speech) of each entry of the terms spelled one of
    `norms`, by term id."""
    return conn.execute(_LEMMA_ENTRIES, (json.dumps(sorted(norms)),)).fetchall()


def entry_parts(conn: sqlite3.Connection, term_ids: Iterable[int]) -> list[tuple[int, str]]:
    """The distinct (term id, part of speech) of the terms' entries, in that order."""
    return conn.execute(_ENTRY_PARTS, (id_list(term_ids),)).fetchall()


def term_text(conn: sqlite3.Connection, term_id: int) -> str:
    """The text of one term ('' when there is none)."""
    row = conn.execute("SELECT text FROM terms WHERE id = ?", (term_id,)).fetchone()
    return str(row[0]) if row else ""


def term_texts(conn: sqlite3.Connection, term_ids: Iterable[int]) -> dict[int, str]:
    """Term id -> text, for the terms that exist."""
    return dict(conn.execute(_TEXTS, (id_list(term_ids),)))


def term_norms(conn: sqlite3.Connection, term_ids: Iterable[int]) -> list[str]:
    """The norms of the terms."""
    return [row[0] for row in conn.execute(_NORMS, (id_list(term_ids),))]


def has_entry(conn: sqlite3.Connection, norm: str) -> bool:
    """Whether a term spelled `norm` has an entry."""
    return conn.execute(_HAS_ENTRY, (norm,)).fetchone() is not None


def norms_with_entries(conn: sqlite3.Connection, norms: Sequence[str]) -> set[str]:
    """Those of `norms` that some term with an entry is spelled."""
    # A few hundred in one statement: the per-statement cost (bind, step, Python row
    # objects) was most of a probe, not the index search itself.
    hits: set[str] = set()
    for start in range(0, len(norms), ENTRY_BATCH):
        chunk = json.dumps(list(norms[start : start + ENTRY_BATCH]))
        hits.update(row[0] for row in conn.execute(_WITH_ENTRIES, (chunk,)))
    return hits
