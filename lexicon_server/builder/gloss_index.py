"""The definitions' full-text index of a lexical component (`gloss_fts`), which the
reverse dictionary searches (lexicon_server/query/describe.py).

One FTS5 document per distinct definition: a synset (rowid `-synsets.id`, its gloss
defines every member), and each sense without a synset (rowid `senses.id`, GCIDE's,
Wiktionary's). Three columns: `gloss`, the definition; `lemmas`, the words it defines (a
synset's members: dentist's "tooth doctor"); `kinds`, the words of every synset above it
by hypernymy (dentist: "medical practitioner", ..., "person"), which the reader uses only
to keep the documents of a kind ("a person who ..."). The table is contentless: the text
stays in `synsets`, `senses` and `relations`; the index holds only the postings. Tokens
are Unicode words, diacritics folded, stemmed by Porter (`TOKENIZER`); stopwords are
indexed (FTS5 has no stopword filter of its own) and left out of queries instead.
Written after the bulk load, before ANALYZE and VACUUM.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Iterator

from lexicon_server.corpus.rows.glosses import GLOSS_COLUMNS, GLOSS_INDEX_META, TOKENIZER

__all__ = ["write_gloss_index"]

_MEMBERS = (
    "SELECT s.synset_id, t.text FROM senses s JOIN entries e ON e.id = s.entry_id"
    " JOIN terms t ON t.id = e.term_id WHERE s.synset_id IS NOT NULL ORDER BY s.synset_id, s.id"
)
_PARENTS = (
    "SELECT src_synset_id, dst_synset_id FROM relations WHERE scope = 'synset'"
    " AND relation IN ('hypernym', 'instance_hypernym') AND dst_synset_id IS NOT NULL ORDER BY id"
)
_SYNSETS = "SELECT id, gloss FROM synsets WHERE gloss != '' ORDER BY id"
_SENSES = (
    "SELECT s.id, s.gloss, t.text FROM senses s JOIN entries e ON e.id = s.entry_id"
    " JOIN terms t ON t.id = e.term_id WHERE s.synset_id IS NULL AND s.gloss != '' ORDER BY s.id"
)


def _grouped(conn: sqlite3.Connection, sql: str) -> dict[int, list]:
    out: dict[int, list] = defaultdict(list)
    for key, value in conn.execute(sql):
        out[key].append(value)
    return out


def _above(synset: int, parents: dict[int, list[int]], kept: dict[int, list[int]]) -> list[int]:
    """Every synset above `synset` by hypernymy, nearest first (kept per synset: the
    hierarchy is shared by thousands of synsets)."""
    held = kept.get(synset)
    if held is None:
        kept[synset] = []  # a cycle (none in WordNet) stops here instead of recursing
        held = []
        for parent in parents.get(synset, ()):
            for s in [parent, *_above(parent, parents, kept)]:
                if s not in held:
                    held.append(s)
        kept[synset] = held
    return held


def _documents(conn: sqlite3.Connection) -> Iterator[tuple[int, str, str, str]]:
    """(rowid, gloss, lemmas, kinds) of every document, by rowid within each kind."""
    members = _grouped(conn, _MEMBERS)
    parents = _grouped(conn, _PARENTS)
    kept: dict[int, list[int]] = {}
    for synset, gloss in conn.execute(_SYNSETS):
        kinds = " ; ".join(t for s in _above(synset, parents, kept) for t in members.get(s, ()))
        yield -synset, gloss, " ; ".join(members.get(synset, ())), kinds
    for sense, gloss, text in conn.execute(_SENSES):
        yield sense, gloss, text, ""


def write_gloss_index(conn: sqlite3.Connection) -> int:
    """Create and fill `gloss_fts` and mark the component (`meta` `gloss_index`); returns
    the number of documents. Run inside the writer's transaction."""
    columns = ", ".join(GLOSS_COLUMNS)
    conn.execute(
        f"CREATE VIRTUAL TABLE gloss_fts USING fts5({columns}, content='', tokenize='{TOKENIZER}')"
    )
    conn.executemany(
        f"INSERT INTO gloss_fts (rowid, {columns}) VALUES (?, ?, ?, ?)", list(_documents(conn))
    )
    # One b-tree segment: fewer pages read per query, and the same bytes every build.
    conn.execute("INSERT INTO gloss_fts (gloss_fts) VALUES ('optimize')")
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", GLOSS_INDEX_META)
    return int(conn.execute("SELECT count(*) FROM gloss_fts").fetchone()[0])
