"""Senses read by headword spelling, as a definitions component (GCIDE's
`en/gcide.sqlite`) is read: of the terms spelled one of some norms, of some parts of
speech only when given."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

from lexicon_server.corpus.rows.facts import ID_LIST

__all__ = ["count_definitions", "definitions", "tagged_definitions"]

_WHERE = (
    "FROM terms t JOIN entries e ON e.term_id = t.id JOIN senses s ON s.entry_id = e.id "
    f"WHERE t.norm IN {ID_LIST}"
)
# An inflected form keeps the parts of speech it can have ('ran': verbs only).
_PARTS = f" AND (? IS NULL OR e.pos IN {ID_LIST})"
_SENSES = (
    "SELECT s.id, s.gloss, e.pos, e.etymology, t.text, s.source_id "
    f"{_WHERE}{_PARTS} ORDER BY t.id, e.id, s.rank, s.id LIMIT ?"
)
_TOTAL = f"SELECT count(*) {_WHERE}{_PARTS}"
# Every sense with its tags (GCIDE's usage labels) and first example.
_TAGGED = (
    "SELECT t.text, e.pos, s.gloss, s.tags, s.source_id, (SELECT x.text FROM examples x "
    f"WHERE x.sense_id = s.id ORDER BY x.id LIMIT 1) {_WHERE}{_PARTS} "
    "ORDER BY t.id, e.id, s.rank, s.id"
)


def _json_list(texts: Iterable[str]) -> str:
    return json.dumps(sorted(texts), ensure_ascii=False)


def _args(norms: Iterable[str], parts: Iterable[str] | None) -> tuple[str | None, ...]:
    pos = None if parts is None else _json_list(parts)
    return (_json_list(norms), pos, pos)


def count_definitions(
    conn: sqlite3.Connection, norms: Iterable[str], parts: Iterable[str] | None
) -> int:
    """How many senses the headwords `norms` have (of the parts of speech `parts`)."""
    return int(conn.execute(_TOTAL, _args(norms, parts)).fetchone()[0])


def definitions(
    conn: sqlite3.Connection, norms: Iterable[str], parts: Iterable[str] | None, limit: int
) -> list[tuple[Any, ...]]:
    """(id, gloss, pos, etymology, headword, source id) of the headwords' first `limit`
    senses, by term, entry and sense order."""
    return conn.execute(_SENSES, (*_args(norms, parts), limit)).fetchall()


def tagged_definitions(
    conn: sqlite3.Connection, norms: Iterable[str], parts: Iterable[str] | None
) -> list[tuple[Any, ...]]:
    """(headword, pos, gloss, tags, source id, first example or None) of every sense of
    the headwords, by term, entry and sense order."""
    return conn.execute(_TAGGED, _args(norms, parts)).fetchall()
