"""The builder writes the definitions' full-text index into English lexical components
(WordNet's and GCIDE's) and nowhere else (lexicon_server/builder/gloss_index.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def _meta(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT key, value FROM meta").fetchall())


def test_english_components_carry_the_gloss_index(sample_dataset: Path) -> None:
    for relative in ("en/lexical.sqlite", "en/gcide.sqlite"):
        conn = sqlite3.connect(sample_dataset / relative)
        try:
            assert _meta(conn).get("gloss_index") == "1", relative
            documents = conn.execute("SELECT count(*) FROM gloss_fts").fetchone()[0]
            glosses = conn.execute(
                "SELECT (SELECT count(*) FROM synsets WHERE gloss != '') + "
                "(SELECT count(*) FROM senses WHERE synset_id IS NULL AND gloss != '')"
            ).fetchone()[0]
            assert documents == glosses > 0, relative
            # A hit's rowid names a synset (negative) or a sense without one (positive).
            word = "dog" if relative == "en/lexical.sqlite" else "water"
            hits = conn.execute(
                "SELECT rowid FROM gloss_fts WHERE gloss_fts MATCH ? LIMIT 5", (f'"{word}"',)
            ).fetchall()
            assert hits, relative
            for (rowid,) in hits:
                table, key = ("synsets", -rowid) if rowid < 0 else ("senses", rowid)
                gloss = conn.execute(f"SELECT gloss FROM {table} WHERE id = ?", (key,)).fetchone()
                assert gloss is not None and word[:3] in gloss[0].lower(), (relative, rowid)
        finally:
            conn.close()


def test_other_languages_have_none(sample_dataset: Path) -> None:
    conn = sqlite3.connect(sample_dataset / "fr/lexical.sqlite")
    try:
        assert "gloss_index" not in _meta(conn)
        assert not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'gloss_fts'").fetchone()
    finally:
        conn.close()
