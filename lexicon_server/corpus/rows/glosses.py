"""The definitions' full-text index (`gloss_fts`, FTS5, BM25): documents matching a
description, and the headwords those documents define.

A document's rowid says what it defines (docs/corpus-format.md, `gloss_fts`): a negative
rowid is a synset (`-synsets.id`, its gloss defines every member sense), a positive one is
a sense without a synset (`senses.id`, GCIDE's). User text reaches FTS5 only through
`match_expression`, which quotes every token, so no FTS5 syntax is ever read from it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from typing import NamedTuple

from lexicon_server.corpus.connection import kept
from lexicon_server.corpus.rows.facts import ID_LIST, ConnectionMemo, id_list, meta_value

__all__ = [
    "GLOSS_COLUMNS",
    "GLOSS_INDEX_META",
    "TOKENIZER",
    "DefinedTerm",
    "broader_documents",
    "defined_terms",
    "document_counts",
    "document_total",
    "gloss_hits",
    "has_gloss_index",
    "headword_forms",
    "index_stems",
    "lemma_norms",
    "match_expression",
    "norm_frequencies",
    "noun_norms",
    "word_parts_of_speech",
]

# The meta row a component with the index carries: `gloss_index` = the layout's version
# (1: one `gloss` column, before the reader learnt kinds; read as no index).
GLOSS_INDEX_META = ("gloss_index", "2")
# The index's columns: the definition, the words it defines, the words of its hypernyms.
GLOSS_COLUMNS = ("gloss", "lemmas", "kinds")
# How the index splits and stems text (and how `index_stems` does, the same by construction).
TOKENIZER = "porter unicode61 remove_diacritics 2"

_HITS = (
    "SELECT rowid, bm25(gloss_fts{weights}) AS score FROM gloss_fts WHERE gloss_fts MATCH ?"
    " ORDER BY score LIMIT ?"
)
_COLUMNS = "t.id, t.text, t.norm, t.zipf, e.pos, s.rank, s.source_id"
# Members of the synsets hit (rowid < 0) and the senses hit (rowid > 0), one statement each.
_BY_SYNSET = (
    f"SELECT -s.synset_id, {_COLUMNS}, y.gloss FROM senses s JOIN synsets y ON y.id = s.synset_id"
    " JOIN entries e ON e.id = s.entry_id JOIN terms t ON t.id = e.term_id"
    f" WHERE s.synset_id IN {ID_LIST}"
)
_BY_SENSE = (
    f"SELECT s.id, {_COLUMNS}, s.gloss FROM senses s"
    " JOIN entries e ON e.id = s.entry_id JOIN terms t ON t.id = e.term_id"
    f" WHERE s.id IN {ID_LIST}"
)


class DefinedTerm(NamedTuple):
    """A headword a matched document defines, with that document's gloss."""

    document: int  # the gloss_fts rowid
    term_id: int
    text: str
    norm: str
    zipf: float
    pos: str
    rank: int  # the sense's rank among the term's senses (0 = most used)
    source_id: int
    gloss: str


def has_gloss_index(conn: sqlite3.Connection) -> bool:
    """Whether the component carries the gloss index of a layout this server reads
    (releases built before issue 30 have none), read once per connection."""
    if meta_value(conn, GLOSS_INDEX_META[0]) != GLOSS_INDEX_META[1]:
        return False
    sql = "SELECT 1 FROM sqlite_master WHERE name = 'gloss_fts'"
    return kept(conn).fact(("table", "gloss_fts"), lambda: bool(conn.execute(sql).fetchone()))


def _quoted(token: str) -> str:
    return '"' + token.replace('"', '""') + '"'


def match_expression(
    required: Sequence[str], optional: Sequence[str] = (), kind: str | None = None
) -> str:
    """An FTS5 query matching the documents whose definition or words hold any of
    `required` (and, given `kind`, whose hypernyms' words hold it), scored by BM25 over
    `required` and `optional` alike. Every token is quoted as an FTS5 string (an embedded
    double quote doubled), so operators, column filters and prefixes in user text are
    plain words. With `optional` tokens, the required ones appear twice in the expression
    (`(r1 OR r2) AND (r1 OR r2 OR o1)`), which FTS5's bm25() counts twice: the frequent
    words then weigh less still than their IDF alone would make them."""
    anyone = " OR ".join(_quoted(t) for t in required)
    if optional:
        anyone = f"({anyone}) AND ({anyone} OR {' OR '.join(_quoted(t) for t in optional)})"
    searched = f"{{gloss lemmas}} : ({anyone})"
    return searched if kind is None else f"{{kinds}} : {_quoted(kind)} AND {searched}"


_COUNT = "SELECT count(*) FROM gloss_fts WHERE gloss_fts MATCH ?"
# A word counts where the reader searches it: definitions and the words they define.
_SEARCHED = "{{gloss lemmas}} : {}"
_COUNTS: ConnectionMemo[str, int] = ConnectionMemo(4096)


def document_counts(conn: sqlite3.Connection, tokens: Sequence[str]) -> dict[str, int]:
    """How many documents hold each token (its stem) in their definition or words, kept
    per connection."""
    counts, missing = _COUNTS.split(conn, tokens)
    fresh = {
        t: int(conn.execute(_COUNT, (_SEARCHED.format(_quoted(t)),)).fetchone()[0]) for t in missing
    }
    _COUNTS.keep(conn, fresh)
    return {**counts, **fresh}


def document_total(conn: sqlite3.Connection) -> int:
    """How many documents the index holds, read once per connection."""
    sql = "SELECT count(*) FROM gloss_fts"
    return kept(conn).fact(sql, lambda: int(conn.execute(sql).fetchone()[0]))


_FORMS = (
    f"SELECT norm, text, zipf FROM terms WHERE norm IN {ID_LIST} "
    "AND EXISTS (SELECT 1 FROM entries e WHERE e.term_id = terms.id) ORDER BY zipf DESC, id"
)


def headword_forms(conn: sqlite3.Connection, norms: Sequence[str]) -> dict[str, tuple[str, float]]:
    """norm -> (written form, Zipf frequency) of the most frequent headword with that
    norm, for the `norms` that are headwords here."""
    out: dict[str, tuple[str, float]] = {}
    rows = conn.execute(_FORMS, (json.dumps(list(norms), ensure_ascii=False),)).fetchall()
    for key, text, zipf in rows:
        out.setdefault(key, (text, float(zipf)))
    return out


_FREQUENCIES = f"SELECT norm, max(zipf) FROM terms WHERE norm IN {ID_LIST} GROUP BY norm"


def norm_frequencies(conn: sqlite3.Connection, norms: Sequence[str]) -> dict[str, float]:
    """norm -> the highest wordfreq Zipf value of the terms spelled so (0: unknown)."""
    rows = conn.execute(_FREQUENCIES, (json.dumps(list(norms), ensure_ascii=False),))
    return {str(key): float(zipf) for key, zipf in rows}


_BROADER = (
    "SELECT -src_synset_id, -dst_synset_id FROM relations WHERE relation IN ('hypernym', 'similar')"
    f" AND src_synset_id IN {ID_LIST} AND dst_synset_id IS NOT NULL ORDER BY id"
)


def broader_documents(conn: sqlite3.Connection, documents: Sequence[int]) -> list[tuple[int, int]]:
    """(document, broader document) for the synset documents among `documents`: their
    hypernyms, and for an adjective the adjectives it is similar to (`dusty`: `dirty`)."""
    synsets = [-d for d in documents if d < 0]
    if not synsets:  # senses without a synset (GCIDE's) have no relations here
        return []
    return [(int(a), int(b)) for a, b in conn.execute(_BROADER, (id_list(synsets),)).fetchall()]


_NOUNS = (
    f"SELECT DISTINCT t.norm FROM terms t JOIN entries e ON e.term_id = t.id"
    f" WHERE t.norm IN {ID_LIST} AND e.pos = 'noun'"
)


def noun_norms(conn: sqlite3.Connection, norms: Sequence[str]) -> set[str]:
    """The `norms` that are a noun's headword here."""
    rows = conn.execute(_NOUNS, (json.dumps(list(norms), ensure_ascii=False),))
    return {str(key) for (key,) in rows}


_PARTS = "SELECT DISTINCT e.pos FROM terms t JOIN entries e ON e.term_id = t.id WHERE t.norm = ?"


def word_parts_of_speech(conn: sqlite3.Connection, norm: str) -> set[str]:
    """The parts of speech of the headwords spelled `norm` here (empty: none)."""
    return {str(pos) for (pos,) in conn.execute(_PARTS, (norm,)).fetchall()}


_LEMMAS = (
    "SELECT DISTINCT i.form_norm, t.norm FROM inflections i JOIN terms t ON t.id = i.lemma_term_id"
    f" WHERE i.form_norm IN {ID_LIST} AND t.norm != i.form_norm ORDER BY 1, 2"
)


def lemma_norms(conn: sqlite3.Connection, norms: Sequence[str]) -> dict[str, list[str]]:
    """norm -> the norms of the lemmas it inflects (`teeth` -> `tooth`), for the `norms`
    that are an inflected form of another headword."""
    out: dict[str, list[str]] = {}
    rows = conn.execute(_LEMMAS, (json.dumps(list(norms), ensure_ascii=False),)).fetchall()
    for form, lemma in rows:
        out.setdefault(form, []).append(lemma)
    return out


def gloss_hits(
    conn: sqlite3.Connection, expression: str, limit: int, weights: Sequence[float] = ()
) -> list[tuple[int, float]]:
    """(document, BM25 score: lower is better) of the best `limit` documents matching
    `expression` (from `match_expression`), each column's score times its weight."""
    sql = _HITS.format(weights="".join(f", {float(w)!r}" for w in weights))
    return [(int(r[0]), float(r[1])) for r in conn.execute(sql, (expression, limit)).fetchall()]


def defined_terms(conn: sqlite3.Connection, documents: Sequence[int]) -> list[DefinedTerm]:
    """Every headword the `documents` define (a synset's members, a sense's term), in no
    particular order."""
    synsets = [-d for d in documents if d < 0]
    senses = [d for d in documents if d > 0]
    rows: list[DefinedTerm] = []
    for sql, ids in ((_BY_SYNSET, synsets), (_BY_SENSE, senses)):
        if ids:
            # fetchall: one read through the connection's error wrapper, not one a row.
            rows.extend(DefinedTerm(*row) for row in conn.execute(sql, (id_list(ids),)).fetchall())
    return rows


_STEMMER = threading.local()
_STEMS: dict[str, tuple[str, ...]] = {}
_STEMS_KEPT = 20_000


def _tokens(words: list[str]) -> dict[str, tuple[str, ...]]:
    conn = getattr(_STEMMER, "conn", None)
    if conn is None:  # one in-memory table per thread: sqlite3 connections are not shared
        conn = sqlite3.connect(":memory:", isolation_level=None)
        conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize='{TOKENIZER}')")
        conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
        _STEMMER.conn = conn
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO t (rowid, x) VALUES (?, ?)", enumerate(words))
    found: dict[str, list[str]] = {w: [] for w in words}
    for doc, term in conn.execute("SELECT doc, term FROM v ORDER BY doc, offset"):
        found[words[doc]].append(term)
    conn.execute("ROLLBACK")
    return {w: tuple(t) for w, t in found.items()}


def index_stems(words: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """word -> the index's tokens for it (Porter stems: `doctoral` -> `doctor`), read by
    FTS5 itself through an in-memory table with the same tokenizer; kept process-wide."""
    out = {w: _STEMS.get(w) for w in words}
    missing = [w for w, stems in out.items() if stems is None]
    if missing:
        fresh = _tokens(missing)
        if len(_STEMS) > _STEMS_KEPT:
            _STEMS.clear()
        _STEMS.update(fresh)
        out.update(fresh)
    return out  # type: ignore[return-value]
