"""Relation edges: a word's stored edges by sense, synset or term, and the synonym edges
the synonym tool reads with their targets' words."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from lexicon_server.corpus.rows.facts import (
    ID_LIST,
    SENSE_RELATIONS,
    ConnectionMemo,
    id_list,
    relations_stored,
)
from lexicon_server.corpus.rows.senses import SenseRow

__all__ = [
    "Edge",
    "SenseSynonym",
    "edges_from_senses",
    "edges_from_synsets",
    "meaning_synonyms",
    "sense_synonyms",
    "similar_synsets",
    "term_edges",
    "term_synonyms",
]


class Edge(NamedTuple):
    """One stored edge. The relation is the one asked for (every statement filters on
    it), so it is not read."""

    scope: str
    src_synset_id: int | None
    src_sense_id: int | None
    src_term_id: int | None
    dst_synset_id: int | None
    dst_sense_id: int | None
    dst_term_id: int | None
    dst_language: str
    dst_text: str | None
    source_id: int


_EDGE = (
    "SELECT scope, src_synset_id, src_sense_id, src_term_id, dst_synset_id, dst_sense_id, "
    "dst_term_id, dst_language, dst_text, source_id FROM relations "
)
# Ordered by the indexed source column first, so SQLite reads the index in order instead
# of sorting; within one source the order is the edge id, as before.
_SENSE_EDGES = _EDGE + f"WHERE src_sense_id IN {ID_LIST} AND relation = ? ORDER BY src_sense_id, id"
_SYNSET_EDGES = (
    _EDGE + f"WHERE src_synset_id IN {ID_LIST} AND relation = ? AND scope = 'synset' "
    "ORDER BY src_synset_id, id"
)
_TERM_EDGES = (
    _EDGE + f"WHERE src_term_id IN {ID_LIST} AND relation = ? ORDER BY COALESCE(weight, 0) DESC, id"
)

# A synset's edges of one relation, kept per database across calls: answers for
# different words keep reaching the same synsets (a two-level expansion reads the edges
# of every direct target), and stored edges never change. Keyed by (synset, relation).
# Only short lists are kept (hypernyms have one or two edges; a broad synset has
# hundreds of hyponyms): about 300 bytes an edge, so at most ~10 MB.
_SYNSET_EDGES_KEPT = ConnectionMemo[tuple[int, str], tuple[Edge, ...]](4096)
_KEPT_EDGES_MAX = 8


def edges_from_synsets(
    conn: sqlite3.Connection, synsets: Iterable[int | None], name: str
) -> dict[int, tuple[Edge, ...]]:
    """Each synset's own edges of relation `name`, in id order (those not kept yet in one
    query)."""
    out, missing = _SYNSET_EDGES_KEPT.split(conn, ((s, name) for s in synsets if s is not None))
    found = {key[0]: edges for key, edges in out.items()}
    if missing:
        fresh: dict[int, list[Edge]] = {key[0]: [] for key in missing}
        for row in conn.execute(_SYNSET_EDGES, (id_list(fresh), name)):
            edge = Edge._make(row)
            fresh[edge.src_synset_id].append(edge)  # type: ignore[index]
        kept = {synset: tuple(edges) for synset, edges in fresh.items()}
        short = {(s, name): edges for s, edges in kept.items() if len(edges) <= _KEPT_EDGES_MAX}
        _SYNSET_EDGES_KEPT.keep(conn, short)
        found.update(kept)
    return found


def edges_from_senses(
    conn: sqlite3.Connection, senses: Sequence[SenseRow], name: str
) -> tuple[dict[int, list[Edge]], dict[int, tuple[Edge, ...]]]:
    """The senses' own (lexical) edges by sense, and their synsets' edges by synset."""
    by_sense: dict[int, list[Edge]] = {}
    if not senses:
        return by_sense, {}
    if name in relations_stored(conn, SENSE_RELATIONS):
        for row in conn.execute(_SENSE_EDGES, (id_list(s.id for s in senses), name)):
            edge = Edge._make(row)
            by_sense.setdefault(edge.src_sense_id, []).append(edge)  # type: ignore[arg-type]
    return by_sense, edges_from_synsets(conn, {s.synset_id for s in senses}, name)


def term_edges(conn: sqlite3.Connection, term_ids: Iterable[int], name: str) -> list[Edge]:
    """The terms' own (unsensed) edges of relation `name`, heaviest first, then by id."""
    return list(map(Edge._make, conn.execute(_TERM_EDGES, (id_list(term_ids), name))))


_SIMILAR = (
    f"SELECT src_synset_id, dst_synset_id FROM relations WHERE src_synset_id IN {ID_LIST} "
    "AND relation = 'similar' AND scope = 'synset' AND dst_synset_id IS NOT NULL "
    "ORDER BY src_synset_id, id"
)


def similar_synsets(conn: sqlite3.Connection, synsets: set[int]) -> dict[int, list[int]]:
    """Each synset's `similar` synsets, in edge order (WordNet's adjective clusters)."""
    out: dict[int, list[int]] = {}
    if synsets:
        for src, dst in conn.execute(_SIMILAR, (id_list(synsets),)):
            out.setdefault(src, []).append(dst)
    return out


class SenseSynonym(NamedTuple):
    """A sense's `synonym` edge, with its target's words."""

    sense_id: int
    text: str | None
    norm: str | None
    source_id: int
    has_entry: bool


_SENSE_SYNONYMS = (
    "SELECT r.src_sense_id, COALESCE(ts.text, tt.text, r.dst_text), "
    "COALESCE(ts.norm, tt.norm), r.source_id, "
    "(r.dst_sense_id IS NOT NULL OR EXISTS "
    "  (SELECT 1 FROM entries e2 WHERE e2.term_id = r.dst_term_id)) "
    "FROM relations r "
    "LEFT JOIN senses ds ON ds.id = r.dst_sense_id "
    "LEFT JOIN entries de ON de.id = ds.entry_id "
    "LEFT JOIN terms ts ON ts.id = de.term_id "
    "LEFT JOIN terms tt ON tt.id = r.dst_term_id "
    f"WHERE r.src_sense_id IN {ID_LIST} AND r.relation = 'synonym' "
    "ORDER BY r.src_sense_id, r.id"
)


def sense_synonyms(conn: sqlite3.Connection, sense_ids: Iterable[int]) -> list[SenseSynonym]:
    """The senses' `synonym` edges (none read when the database has no sense-level
    synonym edge), by sense then edge id."""
    if "synonym" not in relations_stored(conn, SENSE_RELATIONS):
        return []
    return list(map(SenseSynonym._make, conn.execute(_SENSE_SYNONYMS, (id_list(sense_ids),))))


_MEANING_SYNONYMS = (
    "SELECT r.src_sense_id, t.text, t.norm, r.source_id, "
    "EXISTS (SELECT 1 FROM entries e WHERE e.term_id = t.id) "
    "FROM relations r JOIN terms t ON t.id = r.dst_term_id "
    f"WHERE r.src_sense_id IN {ID_LIST} AND r.relation = 'synonym' ORDER BY r.src_sense_id, r.id"
)


def meaning_synonyms(conn: sqlite3.Connection, sense_ids: Iterable[int]) -> list[SenseSynonym]:
    """The `synonym` edges of a thesaurus's meanings to its terms, by meaning then edge."""
    return list(map(SenseSynonym._make, conn.execute(_MEANING_SYNONYMS, (id_list(sense_ids),))))


# One word's best term edges: the source index is ordered (src_term_id, relation, weight
# DESC), so this reads `LIMIT` rows, not all of Moby's hundreds. An edge without a weight
# comes after those with one.
_TERM_SYNONYMS = (
    "SELECT COALESCE(t.text, r.dst_text), r.source_id, r.weight FROM relations r "
    "LEFT JOIN terms t ON t.id = r.dst_term_id "
    "WHERE r.src_term_id = ? AND r.relation = 'synonym' AND r.scope = 'term' "
    "AND r.dst_language = ? ORDER BY r.weight DESC, r.id LIMIT ?"
)


def term_synonyms(
    conn: sqlite3.Connection, term_id: int, language: str, limit: int
) -> list[tuple[str | None, int, float | None]]:
    """(text, source id, weight) of the term's first `limit` synonym edges into
    `language`, best weight first."""
    return conn.execute(_TERM_SYNONYMS, (term_id, language, limit)).fetchall()
