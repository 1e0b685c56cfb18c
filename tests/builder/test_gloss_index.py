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
            assert _meta(conn).get("gloss_index") == "2", relative
            documents = conn.execute("SELECT count(*) FROM gloss_fts").fetchone()[0]
            glosses = conn.execute(
                "SELECT (SELECT count(*) FROM synsets WHERE gloss != '') + "
                "(SELECT count(*) FROM senses WHERE synset_id IS NULL AND gloss != '')"
            ).fetchone()[0]
            assert documents == glosses > 0, relative
            # A hit's rowid names a synset (negative) or a sense without one (positive).
            word = "dog" if relative == "en/lexical.sqlite" else "water"
            hits = conn.execute(
                "SELECT rowid FROM gloss_fts WHERE gloss_fts MATCH ? LIMIT 5",
                (f'{{gloss}} : "{word}"',),
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


def test_a_synset_document_holds_its_members_and_the_kinds_above_it(sample_dataset: Path) -> None:
    conn = sqlite3.connect(sample_dataset / "en/lexical.sqlite")
    try:
        # Every document that holds a hypernym's member among its kinds is below it.
        row = conn.execute(
            "SELECT r.src_synset_id, t.text FROM relations r"
            " JOIN senses s ON s.synset_id = r.dst_synset_id JOIN entries e ON e.id = s.entry_id"
            " JOIN terms t ON t.id = e.term_id JOIN synsets y ON y.id = r.src_synset_id"
            " WHERE r.relation = 'hypernym' AND y.gloss != '' AND t.text NOT LIKE '% %'"
            " ORDER BY r.id LIMIT 1"
        ).fetchone()
        assert row is not None
        synset, parent = row
        below = {
            r
            for (r,) in conn.execute(
                "SELECT rowid FROM gloss_fts WHERE gloss_fts MATCH ?", (f'{{kinds}} : "{parent}"',)
            )
        }
        assert -synset in below
        member = conn.execute(
            "SELECT t.text FROM senses s JOIN entries e ON e.id = s.entry_id"
            " JOIN terms t ON t.id = e.term_id WHERE s.synset_id = ? AND t.text NOT LIKE '% %'",
            (synset,),
        ).fetchone()[0]
        defined = {
            r
            for (r,) in conn.execute(
                "SELECT rowid FROM gloss_fts WHERE gloss_fts MATCH ?", (f'{{lemmas}} : "{member}"',)
            )
        }
        assert -synset in defined
    finally:
        conn.close()
