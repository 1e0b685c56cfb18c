"""The semantic vocabulary (`<lang>/semantic.sqlite`): items by spelling and row, and the
exact neighbours a release stores."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from lexicon_server.corpus.rows.facts import ID_LIST, id_list

__all__ = [
    "all_texts",
    "items_by_norm",
    "most_frequent_item",
    "stored_neighbour_ids",
    "vocab_texts",
]

_FIND = "SELECT id, source_id, zipf FROM vocab WHERE norm = ? ORDER BY zipf DESC, id LIMIT 1"
_BY_NORMS = f"SELECT norm, id FROM vocab WHERE norm IN {ID_LIST} ORDER BY zipf, id DESC"
_TEXTS = f"SELECT id, text, source_id FROM vocab WHERE id IN {ID_LIST}"


def most_frequent_item(conn: sqlite3.Connection, norm: str) -> tuple[int, int, float] | None:
    """(row, source id, zipf) of the most frequent vocabulary item spelled `norm`."""
    row = conn.execute(_FIND, (norm,)).fetchone()
    return (int(row[0]), int(row[1]), float(row[2])) if row else None


def stored_neighbour_ids(conn: sqlite3.Connection, row: int) -> bytes | None:
    """The stored exact neighbours of vocabulary row `row` (little-endian int32 rows), or
    None when the release stores none for it."""
    found = conn.execute("SELECT ids FROM neighbours WHERE id = ?", (row,)).fetchone()
    return None if found is None else bytes(found[0])


def vocab_texts(conn: sqlite3.Connection, rows: Sequence[int]) -> dict[int, tuple[str, int]]:
    """Row -> (text, source id) of the vocabulary items."""
    if not rows:
        return {}
    return {int(r[0]): (str(r[1]), int(r[2])) for r in conn.execute(_TEXTS, (id_list(rows),))}


def items_by_norm(conn: sqlite3.Connection, norms: Sequence[str]) -> dict[str, int]:
    """norm -> row of the most frequent vocabulary item spelled so, for the `norms` the
    vocabulary has (one statement for all: `most_frequent_item` for many)."""
    if not norms:
        return {}
    rows = conn.execute(_BY_NORMS, (json.dumps(list(norms), ensure_ascii=False),)).fetchall()
    # Ascending frequency, so the most frequent item of a norm is written last.
    return {str(key): int(row) for key, row in rows}


def all_texts(conn: sqlite3.Connection) -> list[tuple[int, str]]:
    """(row, text) of every vocabulary item, in row order."""
    return conn.execute("SELECT id, text FROM vocab ORDER BY id").fetchall()
