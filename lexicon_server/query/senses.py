"""Senses: how a sense is named and referred to, and `read_senses`, the one way every tool
turns a word into its senses (the dictionary tools, the glossary's dictionary senses and
the slang group's corpus source): `headwords.resolve_headwords`, then
`corpus.rows.senses.sense_rows`."""

from __future__ import annotations

import sqlite3
from typing import Any

from lexicon_server.corpus.rows.facts import SourceTable
from lexicon_server.corpus.rows.senses import SenseRow, sense_rows
from lexicon_server.models import SenseRef
from lexicon_server.query.budget import GLOSS_CHARS, clip
from lexicon_server.query.headwords import Headwords, resolve_headwords
from lexicon_server.query.provenance import Cited

__all__ = [
    "MAX_SENSES_DEFAULT",
    "read_senses",
    "sense_data",
    "sense_handle",
    "sense_ref",
    "sense_ref_data",
]

MAX_SENSES_DEFAULT = 100
_Json = dict[str, Any]


def read_senses(
    conn: sqlite3.Connection, word: str, language: str, limit: int = -1
) -> tuple[Headwords, list[SenseRow]]:
    """The headwords `word` resolves to and their senses (the first `limit`, or all with
    -1), in the order every dictionary tool shows them."""
    heads = resolve_headwords(conn, word, language)
    return heads, sense_rows(conn, heads.term_ids, limit, heads.entries)


def sense_handle(language: str, sense_rowid: int) -> str:
    """A sense id for the caller: stable within one dataset version."""
    return f"{language}:s{sense_rowid}"


def sense_ref_data(handle: str, pos: str, gloss: str, source: str) -> dict[str, Any]:
    """A `SenseRef` as plain data. The source's own id (`external_id`) is left out: the
    handle names the sense, and `dictionary_lookup` with `source_ids` gives the source's
    id of each sense (docs/tools.md, "What a default look-up holds")."""
    return {"id": handle, "pos": pos, "gloss": gloss, "source": source}


def sense_ref(language: str, row: SenseRow, table: SourceTable, cited: Cited) -> SenseRef:
    """The reference to one source sense; its source is cited in `cited`."""
    return SenseRef.model_validate(sense_data(language, row, table, cited))


def sense_data(language: str, row: SenseRow, table: SourceTable, cited: Cited) -> _Json:
    """`sense_ref(...)` as plain data (`model_dump(mode="json")` of it)."""
    handle = sense_handle(language, row.id)
    gloss = clip(row.gloss, GLOSS_CHARS)
    return sense_ref_data(handle, row.pos, gloss, cited.key(table, row.source_id))
