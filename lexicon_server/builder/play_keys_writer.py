"""Fill the `pattern_buckets` and `sound_keys` tables of a wordplay database from its own
`words`, `word_synsets` and `prons` tables (layout in lexicon_server/corpus/play_keys.py).

`write_wordplay` calls it once its tables are filled; `fill_play_keys` also adds the keys
to a database written before they existed (the benchmark does so on a copy of an
installed component), creating the two tables when they are missing.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

from lexicon_server.corpus import play_keys
from lexicon_server.corpus.reader import schema_sql
from lexicon_server.corpus.wordplay_keys import fold

__all__ = ["PlayKeyStats", "fill_play_keys"]

_BATCH = 50_000
_TABLES = ("pattern_buckets", "sound_keys")


@dataclass(frozen=True, slots=True)
class PlayKeyStats:
    buckets: int
    sound_keys: int


def _create_missing(conn: sqlite3.Connection) -> None:
    for table in _TABLES:
        present = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
        if present is None:
            found = re.search(rf"CREATE TABLE {table} \(.*?\)[^;]*;", schema_sql("wordplay"), re.S)
            assert found is not None, f"schema/wordplay.sql defines {table}"
            conn.execute(found.group(0))


def _dictionary_folds(conn: sqlite3.Connection) -> set[str]:
    """Folded spellings of the words with a WordNet synset (any capitalisation counts)."""
    rows = conn.execute(
        "SELECT text FROM words WHERE id IN (SELECT DISTINCT word_id FROM word_synsets)"
    )
    return {fold(text) for (text,) in rows}


def fill_play_keys(conn: sqlite3.Connection) -> PlayKeyStats:
    """Write both tables and the `play_keys` meta row (inside the caller's transaction)."""
    _create_missing(conn)
    folds = _dictionary_folds(conn)
    words = (
        (word_id, letters, fold(text) in folds)
        for word_id, text, letters in conn.execute(
            "SELECT id, text, letters FROM words WHERE is_single = 1 ORDER BY id"
        ).fetchall()
    )
    buckets = list(play_keys.pattern_buckets(words))
    conn.executemany("INSERT INTO pattern_buckets VALUES (?, ?, ?, ?)", buckets)
    rows: list[tuple[str, int, int]] = []
    total = 0
    prons = conn.execute(
        "SELECT p.id, p.phones, w.text FROM prons p JOIN words w ON w.id = p.word_id"
    ).fetchall()
    for pron_id, phones, text in prons:
        code = play_keys.sound_code(phones)
        dictionary = int(fold(text) in folds)
        rows.extend((key, pron_id, dictionary) for key in {code, *play_keys.deletions(code)})
        if len(rows) >= _BATCH:
            total += len(rows)
            conn.executemany("INSERT OR IGNORE INTO sound_keys VALUES (?, ?, ?)", rows)
            rows.clear()
    total += len(rows)
    conn.executemany("INSERT OR IGNORE INTO sound_keys VALUES (?, ?, ?)", rows)
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
        (play_keys.META_KEY, play_keys.VERSION),
    )
    return PlayKeyStats(buckets=len(buckets), sound_keys=total)
