"""Senses and what hangs off them: the one sense reader every tool uses, synset members,
examples and pronunciations."""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from lexicon_server.corpus.rows.facts import ID_LIST, ConnectionMemo, id_list, meta_value
from lexicon_server.corpus.rows.terms import (
    entry_filter,
    entry_filter_args,
    term_order,
    term_order_args,
)

__all__ = [
    "SenseRow",
    "SynsetMember",
    "counted_sense_rows",
    "examples",
    "pronunciations",
    "sense_rows",
    "sense_texts",
    "senses_of_norms",
    "synset_glosses",
    "synset_members",
]


class SenseRow(NamedTuple):
    """One sense as read from the database, before budgets are applied."""

    id: int
    external_id: str | None
    gloss: str
    tags: str
    source_id: int
    entry_id: int
    pos: str
    etymology: str | None
    word: str  # the text of the sense's term
    synset: str | None  # the synset's external id
    synset_id: int | None
    term_id: int


_SELECT = (
    "SELECT s.id, s.external_id, s.gloss, s.tags, s.source_id, e.id, e.pos, e.etymology, "
    "t.text, sy.external_id, s.synset_id, e.term_id{extra} "
    "FROM entries e JOIN terms t ON t.id = e.term_id JOIN senses s ON s.entry_id = e.id "
    "LEFT JOIN synsets sy ON sy.id = s.synset_id "
)
# The senses of some terms: the best-matching term first (`term_order`), then in entry
# order and the source's own sense order, of the kept entries only (`entry_filter`).
_OF_TERMS = (
    f"WHERE e.term_id IN {ID_LIST}{{entries}} ORDER BY {{first}}e.term_id, {{order}}, s.id LIMIT ?"
)
# A component whose builder ranked each term's senses by use across its entries (meta
# `sense_order` = `use`, builder/lexical_finish.py) is read by rank; an older one by entry
# first, its ranks counting within an entry.
_BY_USE = "s.rank, e.id"
_BY_ENTRY = "e.id, s.rank"
_SENSE_ROWS = _SELECT.replace("{extra}", "") + _OF_TERMS
# The same, each row also carrying the total: SQLite runs an uncorrelated subquery once
# per statement, so a polysemous word needs no second statement for its count.
_COUNTED = (
    _SELECT.replace(
        "{extra}",
        ", (SELECT count(*) FROM entries e2 JOIN senses s2 ON s2.entry_id = e2.id "
        f"WHERE e2.term_id IN {ID_LIST}{{entries2}})",
    )
    + _OF_TERMS
)
_OF_NORMS = (
    _SELECT.replace("{extra}", "")
    + f"WHERE t.norm IN {ID_LIST} ORDER BY e.term_id, {{order}}, s.id"
)


@functools.lru_cache(maxsize=128)
def _sql(template: str, entries: int, terms: int, by_use: bool) -> str:
    return template.format(
        entries=entry_filter("e", entries),
        entries2=entry_filter("e2", entries),
        first=term_order("e.term_id", terms, entries),
        order=_BY_USE if by_use else _BY_ENTRY,
    )


def _by_use(conn: sqlite3.Connection) -> bool:
    return meta_value(conn, "sense_order") == "use"


def sense_rows(
    conn: sqlite3.Connection,
    term_ids: Sequence[int],
    limit: int = -1,
    entries: Sequence[tuple[int, str]] = (),
) -> list[SenseRow]:
    """The senses of the given terms (the first `limit`, or all with -1), of the (term, part
    of speech) `entries` only when given (see Headwords.entries), the best-matching term
    first, then in entry order and the source's own sense order."""
    if not term_ids:
        return []
    sql = _sql(_SENSE_ROWS, len(entries), len(term_ids), _by_use(conn))
    args = (id_list(term_ids), *entry_filter_args(entries), *term_order_args(term_ids), limit)
    return list(map(SenseRow._make, conn.execute(sql, args)))


def counted_sense_rows(
    conn: sqlite3.Connection,
    term_ids: Sequence[int],
    limit: int,
    entries: Sequence[tuple[int, str]] = (),
) -> tuple[list[SenseRow], int]:
    """`sense_rows(...)` and how many senses the terms (or entries) have in all."""
    if not term_ids:
        return [], 0
    sql = _sql(_COUNTED, len(entries), len(term_ids), _by_use(conn))
    ids, kept = id_list(term_ids), entry_filter_args(entries)
    rows = conn.execute(sql, (ids, *kept, ids, *kept, *term_order_args(term_ids), limit))
    chosen = rows.fetchall()
    return [SenseRow._make(row[:12]) for row in chosen], chosen[0][12] if chosen else 0


def senses_of_norms(conn: sqlite3.Connection, norms: Iterable[str]) -> list[SenseRow]:
    """Every sense of the terms spelled one of `norms`, by term, then by use (or entry)."""
    keys = sorted(set(norms))
    if not keys:
        return []
    sql = _OF_NORMS.format(order=_BY_USE if _by_use(conn) else _BY_ENTRY)
    return list(map(SenseRow._make, conn.execute(sql, (json.dumps(keys),))))


_EXAMPLES = (
    f"SELECT sense_id, text, source_id FROM examples WHERE sense_id IN {ID_LIST} "
    "ORDER BY sense_id, id"
)


def examples(conn: sqlite3.Connection, sense_ids: Iterable[int]) -> list[tuple[int, str, int]]:
    """(sense id, text, source id) of the senses' examples, by sense then id."""
    return conn.execute(_EXAMPLES, (id_list(sense_ids),)).fetchall()


_PRONUNCIATIONS = (
    "SELECT p.entry_id, p.notation, p.value, p.variant, p.source_id, t.text "
    f"FROM pronunciations p JOIN terms t ON t.id = p.term_id WHERE p.term_id IN {ID_LIST} "
    "ORDER BY {first}p.term_id, p.variant, p.notation, p.id"
)


@functools.lru_cache(maxsize=8)
def _pronunciations_sql(terms: int) -> str:
    return _PRONUNCIATIONS.format(first=term_order("p.term_id", terms))


def pronunciations(conn: sqlite3.Connection, term_ids: Sequence[int]) -> list[tuple[Any, ...]]:
    """(entry id or None, notation, value, variant, source id, term text) of the terms'
    pronunciations, the best-matching term first."""
    sql = _pronunciations_sql(len(term_ids))
    return conn.execute(sql, (id_list(term_ids), *term_order_args(term_ids))).fetchall()


_SENSE_TEXTS = (
    "SELECT s.id, t.text, s.gloss FROM senses s JOIN entries e ON e.id = s.entry_id "
    f"JOIN terms t ON t.id = e.term_id WHERE s.id IN {ID_LIST}"
)


def sense_texts(conn: sqlite3.Connection, sense_ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    """Sense id -> (its term's text, its gloss)."""
    return {
        sense_id: (text, gloss)
        for sense_id, text, gloss in conn.execute(_SENSE_TEXTS, (id_list(sense_ids),))
    }


_SYNSET_GLOSSES = f"SELECT id, external_id, gloss FROM synsets WHERE id IN {ID_LIST}"


def synset_glosses(conn: sqlite3.Connection, synsets: Iterable[int]) -> list[tuple[int, str, str]]:
    """(id, external id, gloss) of the synsets."""
    return conn.execute(_SYNSET_GLOSSES, (id_list(synsets),)).fetchall()


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
