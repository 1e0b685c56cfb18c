"""Write a lexical component's `spelling_keys` (see lexicon_server/corpus/spelling.py), the
symmetric-deletion index the suggestion query probes.

It runs in the lexical writer once `terms.zipf` is final. The suggestible vocabulary is
every single-token norm (`spelling.suggestible`) that wordfreq lists (Zipf > 0); in a
language where no such term has a frequency (Greek in the starter), every single-token
norm. One term stands for each norm: one with an entry first, then the one written as
the norm itself (`the` before `The`), then the lowest id.
"""

from __future__ import annotations

import sqlite3
from array import array

import numpy as np

from lexicon_server.corpus.spelling import META_KEY, VERSION, VOCABULARY_KEY, keys_of, suggestible

__all__ = ["spelling_vocabulary", "write_spelling_keys"]

_CHUNK = 100_000  # rows converted back to Python ints at a time

# Single-token terms only (a space or hyphen anywhere is skipped); best representative of
# a norm first.
_TERMS = """
SELECT t.id, t.norm, t.zipf FROM terms t
WHERE instr(t.norm, ' ') = 0 AND instr(t.norm, '-') = 0
ORDER BY t.norm,
         NOT EXISTS (SELECT 1 FROM entries e WHERE e.term_id = t.id),
         t.text <> t.norm, t.id
"""


def spelling_vocabulary(conn: sqlite3.Connection) -> tuple[str, dict[str, tuple[int, float]]]:
    """('zipf' or 'all', norm -> (representative term id, Zipf)) of the suggestible words."""
    chosen: dict[str, tuple[int, float]] = {}
    frequent: dict[str, tuple[int, float]] = {}
    for term_id, norm, zipf in conn.execute(_TERMS):
        if norm in chosen or not suggestible(norm):
            continue
        chosen[norm] = (term_id, zipf)
        if zipf > 0:
            frequent[norm] = (term_id, zipf)
    if frequent:
        return "zipf", frequent
    return "all", chosen


def write_spelling_keys(conn: sqlite3.Connection) -> int:
    """Fill the empty `spelling_keys` table and mark the database as having it; returns
    the number of rows."""
    vocabulary, words = spelling_vocabulary(conn)
    # Inserted in key order: appending to the WITHOUT ROWID b-tree costs a third of
    # inserting in hash order, and the writer's VACUUM lays the table out by key whatever
    # the order it was filled in (same rows, same bytes). Each row is packed into one
    # int64, key in the high half, so 1.8M rows (English) sort in 15 MB, not as tuples.
    packed = array("q")
    for norm, (term_id, zipf) in words.items():
        packed.extend((key << 32) | term_id for key in keys_of(norm, zipf))
    del words
    ordered = np.sort(np.frombuffer(packed, dtype=np.int64))
    del packed
    for start in range(0, len(ordered), _CHUNK):
        chunk = ordered[start : start + _CHUNK]
        conn.executemany(
            "INSERT INTO spelling_keys (key, term_id) VALUES (?, ?)",
            zip((chunk >> 32).tolist(), (chunk & 0xFFFFFFFF).tolist(), strict=True),
        )
    conn.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?)",
        [(META_KEY, VERSION), (VOCABULARY_KEY, vocabulary)],
    )
    return len(ordered)
