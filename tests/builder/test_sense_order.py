"""Senses ordered by use across parts of speech (builder/lexical_finish.py
`order_senses_by_use`), on WordNet 3.1's own tag counts for `run` and `go` (index.sense)."""

from __future__ import annotations

import sqlite3

from lexicon_server.builder.lexical_finish import order_senses_by_use

# WordNet 3.1 index.sense: (sense key, sense number, tag count), the first senses of each
# part of speech of 'run' and 'go' as published.
INDEX_SENSE = [
    ("run%1:04:00::", 1, 7),  # a score in baseball
    ("run%1:04:03::", 2, 6),
    ("run%1:11:00::", 3, 0),
    ("run%2:38:00::", 1, 41),  # move fast by using one's feet
    ("run%2:38:04::", 2, 10),
    ("go%1:04:00::", 4, 0),
    ("go%1:06:00::", 2, 0),
    ("go%2:38:00::", 1, 343),  # change location
    ("go%5:00:00:functional:00", 1, 0),
]


def _db() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.executescript(
        """
        CREATE TABLE entries (id INTEGER PRIMARY KEY, term_id INTEGER, pos TEXT);
        CREATE TABLE senses (id INTEGER PRIMARY KEY, entry_id INTEGER, rank INTEGER,
            external_id TEXT);
        CREATE TABLE pronunciations (id INTEGER PRIMARY KEY, entry_id INTEGER);
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE _ranks (sense_key TEXT PRIMARY KEY, sense_number INTEGER,
            tag_count INTEGER);
        """
    )
    conn.executemany("INSERT INTO _ranks VALUES (?, ?, ?)", INDEX_SENSE)
    # run: noun entry 1 (three senses), verb entry 2; go: noun 3, verb 4, adj 5; one
    # term with a single entry (6), left alone.
    entries = [(1, 1, "noun"), (2, 1, "verb"), (3, 2, "noun"), (4, 2, "verb"), (5, 2, "adj"),
               (6, 3, "noun")]  # fmt: skip
    conn.executemany("INSERT INTO entries VALUES (?, ?, ?)", entries)
    senses = [(1, 1, 0, "run%1:04:00::"), (2, 1, 1, "run%1:04:03::"), (3, 1, 2, "run%1:11:00::"),
              (4, 2, 0, "run%2:38:00::"), (5, 2, 1, "run%2:38:04::"),
              (6, 3, 0, "go%1:06:00::"), (7, 3, 1, "go%1:04:00::"), (8, 4, 0, "go%2:38:00::"),
              (9, 5, 0, "go%5:00:00:functional:00"), (10, 6, 0, None)]  # fmt: skip
    conn.executemany("INSERT INTO senses VALUES (?, ?, ?, ?)", senses)
    conn.execute("INSERT INTO pronunciations VALUES (1, 2)")
    return conn


def _read(conn: sqlite3.Connection, term: int, order: str) -> list[tuple[str, int]]:
    return conn.execute(
        f"SELECT e.pos, s.id FROM entries e JOIN senses s ON s.entry_id = e.id "
        f"WHERE e.term_id = ? ORDER BY {order}",
        (term,),
    ).fetchall()


def test_the_entry_with_the_most_used_sense_comes_first() -> None:
    conn = _db()
    order_senses_by_use(conn)
    # The look-up's order (entry, then rank): run's and go's verbs first.
    assert [pos for pos, _ in _read(conn, 1, "e.id, s.rank")] == ["verb"] * 2 + ["noun"] * 3
    assert [pos for pos, _ in _read(conn, 2, "e.id, s.rank")] == ["verb", "noun", "noun", "adj"]
    # Entries swapped ids within the term; the verb's pronunciation follows its entry.
    assert conn.execute("SELECT entry_id FROM pronunciations").fetchone() == (1,)
    assert conn.execute("SELECT pos FROM entries WHERE id = 1").fetchone() == ("verb",)


def test_rank_merges_the_entries_by_use() -> None:
    conn = _db()
    order_senses_by_use(conn)
    # By rank alone: each entry's senses keep their order, the most used next one first;
    # the uncounted senses follow entry by entry.
    assert [sid for _, sid in _read(conn, 1, "s.rank")] == [4, 5, 1, 2, 3]
    assert [sid for _, sid in _read(conn, 2, "s.rank")] == [8, 6, 7, 9]
    assert _read(conn, 3, "s.rank") == [("noun", 10)]
    assert conn.execute("SELECT rank FROM senses WHERE id = 10").fetchone() == (0,)
    # The mark that tells readers to read by rank (corpus/rows/senses.py).
    assert conn.execute("SELECT value FROM meta WHERE key = 'sense_order'").fetchone() == ("use",)
