"""The passes `LexicalWriter.finish` runs over the staged rows before publishing: resolve
sense ranks, WordNet pointers, frequencies and inflections, rank translations, and move
the clustered tables into key order."""

from __future__ import annotations

import math
import re
import sqlite3

from lexicon_server.builder import translation_rank
from lexicon_server.builder.lexical_layout import CLUSTERED

__all__ = ["cluster", "phrase_frequencies", "rank_translations", "resolve"]

_TOKEN = re.compile(r"\w+(?:'\w+)?")


def rank_translations(conn: sqlite3.Connection) -> None:
    """New translation ids, best evidence first (see `translation_rank`); without any
    staged evidence `_translation_order` stays empty and ids stay as they are."""
    translation_rank.rank_translations(conn, "_translation_order")


def cluster(conn: sqlite3.Connection) -> None:
    """Move the staged rows into the clustered tables in key order, ids unchanged
    unless `_translation_order` renumbers translations."""
    for table, key in CLUSTERED.items():
        names = [row[1] for row in conn.execute(f"SELECT * FROM pragma_table_info('{table}')")]
        columns = ", ".join(names)
        renumbered = (
            table == "translations"
            and conn.execute("SELECT 1 FROM _translation_order LIMIT 1").fetchone()
        )
        if renumbered:
            # New ids follow the key order, so ordering by them is ordering by the key.
            picked = ", ".join("o.new" if name == "id" else f"t.{name}" for name in names)
            conn.execute(
                f"INSERT INTO {table} ({columns}) SELECT {picked} FROM _{table} t "
                "JOIN _translation_order o ON o.old = t.id ORDER BY o.new"
            )
        else:
            conn.execute(
                f"INSERT INTO {table} ({columns}) SELECT {columns} FROM _{table} ORDER BY {key}"
            )
        conn.execute(f"DROP TABLE _{table}")


def phrase_frequencies(conn: sqlite3.Connection) -> None:
    """Zipf of multi-word terms the way wordfreq combines tokens: 1/f = sum of 1/f_i.

    A phrase with any token wordfreq does not list stays at 0 (unknown).
    """
    updates: list[tuple[float, int]] = []
    rows = conn.execute("SELECT id, norm FROM terms WHERE zipf = 0 AND norm GLOB '*[ -]*'")
    lookup = conn.cursor()
    for term_id, key in rows.fetchall():
        tokens = _TOKEN.findall(key)
        if len(tokens) < 2:
            continue
        inverse = 0.0
        for token in tokens:
            found = lookup.execute("SELECT zipf FROM _freq WHERE norm = ?", (token,)).fetchone()
            if found is None:
                break
            inverse += 1.0 / 10 ** (found[0] - 9)
        else:
            updates.append((round(math.log10(1.0 / inverse) + 9, 2), term_id))
    conn.executemany("UPDATE terms SET zipf = ? WHERE id = ?", updates)


def resolve(conn: sqlite3.Connection, language: str) -> None:
    # Sense order within an entry: index.sense numbers first, then file order.
    conn.execute("CREATE INDEX _senses_key ON senses (external_id)")
    conn.execute(
        """
        UPDATE senses SET rank = ranked.r FROM (
            SELECT s.id AS id, row_number() OVER (
                PARTITION BY s.entry_id
                ORDER BY (r.sense_number IS NULL), r.sense_number, s.id
            ) - 1 AS r
            FROM senses s LEFT JOIN _ranks r ON r.sense_key = s.external_id
            WHERE s.rank = 1000000
        ) AS ranked WHERE senses.id = ranked.id
        """
    )
    conn.execute("DROP INDEX _senses_key")
    # Semantic pointers join synset to synset; lexical ones join member sense to sense.
    conn.execute(
        f"""
        INSERT INTO relations (relation, scope, src_synset_id, src_sense_id, dst_synset_id,
            dst_sense_id, dst_language, source_id)
        SELECT p.relation,
               CASE WHEN p.src_member = 0 THEN 'synset' ELSE 'sense' END,
               CASE WHEN p.src_member = 0 THEN s.id END,
               CASE WHEN p.src_member = 0 THEN NULL ELSE ms.sense_id END,
               CASE WHEN p.src_member = 0 THEN d.id END,
               CASE WHEN p.src_member = 0 THEN NULL ELSE md.sense_id END,
               '{language}', p.source_id
        FROM _pointers p
        JOIN synsets s ON s.external_id = p.src_synset
        JOIN synsets d ON d.external_id = p.dst_synset
        LEFT JOIN _members ms ON ms.synset = p.src_synset AND ms.member = p.src_member
        LEFT JOIN _members md ON md.synset = p.dst_synset AND md.member = p.dst_member
        WHERE p.src_member = 0
           OR (ms.sense_id IS NOT NULL AND md.sense_id IS NOT NULL)
        ORDER BY p.seq
        """
    )
    conn.execute(
        "UPDATE terms SET zipf = "
        "coalesce((SELECT f.zipf FROM _freq f WHERE f.norm = terms.norm), 0)"
    )
    phrase_frequencies(conn)
    conn.execute("CREATE INDEX _terms_norm ON terms (norm)")
    conn.execute("CREATE INDEX _entries_term ON entries (term_id)")
    # CROSS JOIN pins the loop order: walk the few staged forms, probe the term index.
    conn.execute(
        """
        INSERT OR IGNORE INTO inflections (form_norm, lemma_term_id, pos, source_id)
        SELECT i.form_norm, t.id, i.pos, i.source_id
        FROM _infl i CROSS JOIN terms t ON t.norm = i.lemma_norm
        WHERE EXISTS (SELECT 1 FROM entries e WHERE e.term_id = t.id)
        ORDER BY i.seq, t.id
        """
    )
    conn.execute("DROP INDEX _entries_term")
    conn.execute("DROP INDEX _terms_norm")
