"""The definitions' full-text index of a lexical component (`gloss_fts`), which the
reverse dictionary searches (lexicon_server/query/describe.py).

One FTS5 document per distinct definition: a synset's gloss once (rowid `-synsets.id`,
it defines every member), and each sense without a synset (rowid `senses.id`, GCIDE's,
Wiktionary's). The table is contentless: the text stays in `synsets` and `senses`, the
index holds only the postings (about 6 MB for WordNet's 118k glosses, 10 MB for
GCIDE's 173k). Tokens are Unicode words, diacritics folded, stemmed by Porter, so
`sleeps` finds `sleep`; stopwords are indexed (FTS5 has no stopword filter of its own)
and left out of queries instead. Written after the bulk load, before ANALYZE and VACUUM.
"""

from __future__ import annotations

import sqlite3

from lexicon_server.corpus.rows.glosses import GLOSS_INDEX_META

__all__ = ["TOKENIZER", "write_gloss_index"]

TOKENIZER = "porter unicode61 remove_diacritics 2"

_DOCUMENTS = (
    "SELECT -id, gloss FROM synsets WHERE gloss != '' "
    "UNION ALL SELECT id, gloss FROM senses WHERE synset_id IS NULL AND gloss != '' "
    "ORDER BY 1"
)


def write_gloss_index(conn: sqlite3.Connection) -> int:
    """Create and fill `gloss_fts` and mark the component (`meta` `gloss_index`); returns
    the number of documents. Run inside the writer's transaction."""
    conn.execute(
        f"CREATE VIRTUAL TABLE gloss_fts USING fts5(gloss, content='', tokenize='{TOKENIZER}')"
    )
    conn.execute(f"INSERT INTO gloss_fts (rowid, gloss) {_DOCUMENTS}")
    # One b-tree segment: fewer pages read per query, and the same bytes every build.
    conn.execute("INSERT INTO gloss_fts (gloss_fts) VALUES ('optimize')")
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", GLOSS_INDEX_META)
    return int(conn.execute("SELECT count(*) FROM gloss_fts").fetchone()[0])
