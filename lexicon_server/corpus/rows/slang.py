"""The slang group's reads: the offline slang component (`slang.sqlite`) and, in a lexical
component, a sense's usage-domain words and first example. The looked-up phrase only
ever travels as a bound parameter."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

__all__ = ["first_example", "open_slang", "schema_version", "slang_meanings", "usage_words"]


def open_slang(path: Path) -> sqlite3.Connection:
    """A read-only connection to the slang component at `path`."""
    conn = sqlite3.connect(
        f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True, check_same_thread=False
    )
    conn.execute("PRAGMA query_only = ON")
    return conn


def schema_version(conn: sqlite3.Connection) -> int:
    """The database's `PRAGMA user_version`."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


_MEANINGS_SQL = """
SELECT m.headword, m.kind, m.gloss, m.pos, m.tags, m.emoji, m.marks,
       s.name, s.licence, s.trust
FROM meanings m JOIN sources s ON s.id = m.source_id
WHERE m.language = ? AND m.key = ?
ORDER BY m.id
"""


def slang_meanings(conn: sqlite3.Connection, language: str, key: str) -> list[tuple[Any, ...]]:
    """(headword, kind, gloss, pos, tags, emoji, marks, source name, licence, trust) of
    the meanings stored under `key` in `language`, in id order."""
    return conn.execute(_MEANINGS_SQL, (language, key)).fetchall()


# The usage domain of a sense: a lexical pointer from the sense names one word; a
# semantic pointer from its synset names every member of the target synset.
_USAGE_SQL = """
SELECT t.text FROM relations r
JOIN senses ds ON ds.id = r.dst_sense_id
JOIN entries de ON de.id = ds.entry_id
JOIN terms t ON t.id = de.term_id
WHERE r.src_sense_id = ? AND r.relation = 'exemplifies' AND r.scope = 'sense'
UNION
SELECT t.text FROM relations r
JOIN senses ds ON ds.synset_id = r.dst_synset_id
JOIN entries de ON de.id = ds.entry_id
JOIN terms t ON t.id = de.term_id
WHERE r.src_synset_id = ? AND r.relation = 'exemplifies' AND r.scope = 'synset'
"""


def usage_words(conn: sqlite3.Connection, sense_id: int, synset_id: int | None) -> list[str]:
    """(Lexical component) the words of the usage domains (`exemplifies` pointers) of a
    sense and of its synset."""
    return [row[0] for row in conn.execute(_USAGE_SQL, (sense_id, synset_id))]


_FIRST_EXAMPLE = "SELECT text FROM examples WHERE sense_id = ? ORDER BY id LIMIT 1"


def first_example(conn: sqlite3.Connection, sense_id: int) -> str | None:
    """(Lexical component) the sense's first example, or None."""
    row = conn.execute(_FIRST_EXAMPLE, (sense_id,)).fetchone()
    return None if row is None else str(row[0])
