"""The passes `LexicalWriter.finish` runs over the staged rows before publishing: resolve
sense ranks, WordNet pointers, frequencies and inflections, rank translations, and move
the clustered tables into key order."""

from __future__ import annotations

import json
import math
import re
import sqlite3
from itertools import groupby
from operator import itemgetter

from lexicon_server.builder import translation_rank
from lexicon_server.builder.lexical_layout import CLUSTERED

__all__ = [
    "SENSE_ORDER_META",
    "TRANSLATION_TERMS_META",
    "cluster",
    "frequency_keys",
    "order_senses_by_use",
    "phrase_frequencies",
    "rank_translations",
    "record_translation_terms",
    "resolve",
]

_TOKEN = re.compile(r"\w+(?:'\w+)?")


def rank_translations(conn: sqlite3.Connection) -> None:
    """New translation ids, best evidence first (see `translation_rank`); without any
    staged evidence `_translation_order` stays empty and ids stay as they are."""
    translation_rank.rank_translations(conn, "_translation_order")


# The senses of every term with several entries, in the order the look-up reads them,
# with their use where counted (WordNet's tag counts).
_USED = """
SELECT e.term_id, e.id, s.id, coalesce(r.tag_count, 0)
FROM entries e JOIN senses s ON s.entry_id = e.id LEFT JOIN _ranks r ON r.sense_key = s.external_id
WHERE e.term_id IN (SELECT term_id FROM entries GROUP BY term_id HAVING count(*) > 1)
ORDER BY e.term_id, e.id, s.rank, s.id
"""


# Tells readers that `senses.rank` orders a whole term (corpus/rows/senses.py).
SENSE_ORDER_META = ("sense_order", "use")


def order_senses_by_use(conn: sqlite3.Connection) -> None:
    """A word's senses by use across its parts of speech (docs/corpus-format.md, `rank`).

    Where a term has several entries, its entries are renumbered, within the ids they
    already hold, so the entry holding the most used sense (WordNet's index.sense tag
    count) comes first (`run`'s verb before its noun; entries no one counted keep their
    order), and its senses' `rank` becomes their place in the whole term: each entry's
    senses keep their order and are merged by use, the most used next sense first, ties to
    the earlier entry (so senses no one counted follow, entry by entry, and a term without
    counts reads as before). Readers that sort by entry then rank read the entries by use;
    those that sort by rank read the senses by use, as every reader does once the meta
    row `SENSE_ORDER_META` says so."""
    moves: list[tuple[int, int]] = []
    ranks: list[tuple[int, int]] = []
    for _, rows in groupby(conn.execute(_USED).fetchall(), key=itemgetter(0)):
        entries: dict[int, list[tuple[int, int]]] = {}
        for _, entry_id, sense_id, tags in rows:
            entries.setdefault(entry_id, []).append((sense_id, tags))
        slots = list(entries)  # ascending ids, the order they hold now
        order = sorted(slots, key=lambda e: (-max(t for _, t in entries[e]), slots.index(e)))
        moves.extend((old, new) for old, new in zip(order, slots, strict=True) if old != new)
        heads = {e: 0 for e in order}
        for rank in range(sum(len(v) for v in entries.values())):
            pick = min(
                (e for e in order if heads[e] < len(entries[e])),
                key=lambda e: (-entries[e][heads[e]][1], order.index(e)),
            )
            ranks.append((rank, entries[pick][heads[pick]][0]))
            heads[pick] += 1
    conn.executemany("UPDATE senses SET rank = ? WHERE id = ?", ranks)
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", SENSE_ORDER_META)
    if not moves:
        return
    conn.execute("CREATE TEMP TABLE _entry_move (old INTEGER PRIMARY KEY, new INTEGER NOT NULL)")
    conn.executemany("INSERT INTO _entry_move VALUES (?, ?)", moves)
    moved = "SELECT new FROM _entry_move m WHERE m.old = {0}"
    conn.execute(
        f"UPDATE entries SET id = -({moved.format('entries.id')}) "
        "WHERE id IN (SELECT old FROM _entry_move)"
    )
    conn.execute("UPDATE entries SET id = -id WHERE id < 0")
    for table in ("senses", "pronunciations"):
        conn.execute(
            f"UPDATE {table} SET entry_id = ({moved.format(f'{table}.entry_id')}) "
            "WHERE entry_id IN (SELECT old FROM _entry_move)"
        )
    conn.execute("DROP TABLE _entry_move")


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


# How many of the component's terms translate into each language (JSON object): the size of
# each pair, which tells the query whether a pair is thin (query/pivot.py).
TRANSLATION_TERMS_META = "translation_terms"


def record_translation_terms(conn: sqlite3.Connection) -> None:
    """The meta row `TRANSLATION_TERMS_META`, read from the published translations (one
    scan of its key, term then language)."""
    rows = conn.execute(
        "SELECT target_language, count(*) FROM "
        "(SELECT DISTINCT term_id, target_language FROM translations) "
        "GROUP BY target_language ORDER BY target_language"
    ).fetchall()
    value = json.dumps(dict(rows), separators=(",", ":"))
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (TRANSLATION_TERMS_META, value)
    )


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


def frequency_keys(norms: set[str]) -> set[str]:
    """The `_freq` norms that `resolve` looks up for terms of these norms: each norm, and
    the tokens `phrase_frequencies` splits a phrase into."""
    keys = set(norms)
    for key in norms:
        if " " in key or "-" in key:
            keys.update(_TOKEN.findall(key))
    return keys


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
    order_senses_by_use(conn)
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
