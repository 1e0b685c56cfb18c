"""Senses: how a sense is read, named and referred to, and the one reader that turns a
word into its senses for every tool (the dictionary tools, the glossary's dictionary
senses and the slang group's corpus source), through `headwords.resolve_headwords`."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from lexicon_server.models import SenseRef
from lexicon_server.query.budget import GLOSS_CHARS, clip
from lexicon_server.query.facts import ID_LIST, ConnectionMemo, id_list
from lexicon_server.query.headwords import (
    Headwords,
    entry_filter,
    entry_filter_args,
    resolve_headwords,
    term_order,
    term_order_args,
)
from lexicon_server.query.provenance import Cited, SourceTable

__all__ = [
    "MAX_SENSES_DEFAULT",
    "SenseRow",
    "SynsetMember",
    "read_senses",
    "sense_data",
    "sense_handle",
    "sense_ref",
    "sense_ref_data",
    "sense_rows",
    "synset_members",
    "word_senses",
]

MAX_SENSES_DEFAULT = 100
_Json = dict[str, Any]


class SenseRow:
    """One sense as read from the database, before budgets are applied."""

    __slots__ = (
        "entry_id",
        "etymology",
        "external_id",
        "gloss",
        "id",
        "pos",
        "source_id",
        "synset",
        "synset_id",
        "tags",
        "word",
    )

    def __init__(self, row: Sequence[Any]) -> None:
        (
            self.id,
            self.external_id,
            self.gloss,
            self.tags,
            self.source_id,
            self.entry_id,
            self.pos,
            self.etymology,
            self.word,
            self.synset,
            self.synset_id,
        ) = row[:11]

    id: int
    external_id: str | None
    gloss: str
    tags: str
    source_id: int
    entry_id: int
    pos: str
    etymology: str | None
    word: str
    synset: str | None
    synset_id: int | None


_SENSE_ROWS = (
    "SELECT s.id, s.external_id, s.gloss, s.tags, s.source_id, e.id, e.pos, e.etymology, "
    "t.text, sy.external_id, s.synset_id "
    "FROM entries e JOIN terms t ON t.id = e.term_id JOIN senses s ON s.entry_id = e.id "
    "LEFT JOIN synsets sy ON sy.id = s.synset_id "
    f"WHERE e.term_id IN {ID_LIST}{{entries}} ORDER BY {{first}}e.term_id, e.id, s.rank, s.id "
    "LIMIT ?"
)


@functools.lru_cache(maxsize=64)
def _senses_sql(template: str, entries: int, terms: int) -> str:
    return template.format(
        entries=entry_filter("e", entries), first=term_order("e.term_id", terms, entries)
    )


def _senses_args(
    term_ids: Sequence[int], entries: Sequence[tuple[int, str]]
) -> tuple[int | str, ...]:
    return (id_list(term_ids), *entry_filter_args(entries), *term_order_args(term_ids))


def word_senses(template: str, heads: Headwords) -> tuple[str, tuple[int | str, ...]]:
    """A statement over the senses of `heads`' terms and its leading parameters. The
    `template` reads `e.term_id IN ID_LIST{entries} ORDER BY {first}e.term_id, ...`: it
    keeps an inflected form's entries (`entry_filter`) and puts the best-matching term
    first (`term_order`); parameters it binds after those (a LIMIT) follow."""
    sql = _senses_sql(template, len(heads.entries), len(heads.term_ids))
    return sql, _senses_args(heads.term_ids, heads.entries)


def sense_rows(
    conn: sqlite3.Connection,
    term_ids: tuple[int, ...],
    limit: int = -1,
    entries: Sequence[tuple[int, str]] = (),
) -> list[SenseRow]:
    """The senses of the given terms (the first `limit`, or all with -1), of the (term, part
    of speech) `entries` only when given (see Headwords.entries), the best-matching term
    first, then in entry order and the source's own sense order."""
    if not term_ids:
        return []
    sql = _senses_sql(_SENSE_ROWS, len(entries), len(term_ids))
    return [SenseRow(row) for row in conn.execute(sql, (*_senses_args(term_ids, entries), limit))]


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


def sense_ref_data(
    handle: str, external_id: str | None, pos: str, gloss: str, source: str
) -> dict[str, Any]:
    """A `SenseRef` as plain data (the source's own id only when it has one)."""
    if external_id is None:
        return {"id": handle, "pos": pos, "gloss": gloss, "source": source}
    return {"id": handle, "external_id": external_id, "pos": pos, "gloss": gloss, "source": source}


def sense_ref(language: str, row: SenseRow, table: SourceTable, cited: Cited) -> SenseRef:
    """The reference to one source sense; its source is cited in `cited`."""
    return SenseRef.model_validate(sense_data(language, row, table, cited))


def sense_data(language: str, row: SenseRow, table: SourceTable, cited: Cited) -> _Json:
    """`sense_ref(...)` as plain data (`model_dump(mode="json")` of it)."""
    handle = sense_handle(language, row.id)
    gloss = clip(row.gloss, GLOSS_CHARS)
    return sense_ref_data(handle, row.external_id, row.pos, gloss, cited.key(table, row.source_id))


# Every member of some synsets (term id, text, norm, source id), by synset then sense id,
# the order the index gives without a sort.
_MEMBERS_SQL = (
    "SELECT s.synset_id, e.term_id, t.text, t.norm, s.source_id FROM senses s "
    "JOIN entries e ON e.id = s.entry_id JOIN terms t ON t.id = e.term_id "
    f"WHERE s.synset_id IN {ID_LIST} ORDER BY s.synset_id, s.id"
)


SynsetMember = tuple[int, str, str, int]  # term_id, text, norm, source_id

# The members of a synset are kept per database across calls (bounded, oldest out
# first), for synonyms and for the words relations shows of a synset: answers for
# different words keep naming the same synsets, and each member costs four B-tree
# searches to read. Objects never change, so a kept synset never goes stale. Together
# with relations' synset cache, about 1 KB a synset: ~4 MB at most for 4,096.
_MEMBERS = ConnectionMemo[int, tuple[SynsetMember, ...]](4096)


def synset_members(
    conn: sqlite3.Connection, synsets: Iterable[int]
) -> dict[int, tuple[SynsetMember, ...]]:
    """The members of each synset, in sense order (those not kept yet in one query)."""
    out, missing = _MEMBERS.split(conn, synsets)
    if not missing:
        return out
    fresh: dict[int, list[SynsetMember]] = {i: [] for i in missing}
    for synset_id, term_id, text, norm, source_id in conn.execute(
        _MEMBERS_SQL, (id_list(missing),)
    ):
        # one string object when the norm is the text itself (most words), to keep less
        fresh[synset_id].append((term_id, text, text if norm == text else norm, source_id))
    kept = {synset_id: tuple(members) for synset_id, members in fresh.items()}
    _MEMBERS.keep(conn, kept)
    out.update(kept)
    return out
