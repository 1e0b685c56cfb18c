"""Stored relation edges for dictionary_relations: reading them, and rendering them as results.

An edge is read as a plain row (the layout below); the renderer reads the words and
glosses at every end of the chosen paths in a few batched queries, and turns each path
into a result with its target and, for a two-edge result, its `path`. Synsets and their
short edge lists are kept per database across calls (`ConnectionMemo`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from lexicon_server.query.budget import GLOSS_CHARS, clip
from lexicon_server.query.facts import (
    ID_LIST,
    SENSE_RELATIONS,
    ConnectionMemo,
    clear_caches,
    id_list,
    relations_stored,
)
from lexicon_server.query.headwords import normalize
from lexicon_server.query.provenance import Cited
from lexicon_server.query.senses import sense_handle, sense_ref_data, synset_members
from lexicon_server.query.targets import installed_entries

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.query.provenance import SourceTable

__all__ = [
    "DST_SYNSET",
    "SENSES",
    "TERM_EDGES",
    "Found",
    "Renderer",
    "Row",
    "clear_synset_caches",
    "edges_from_senses",
    "edges_from_synsets",
    "target_key",
]

_Json = dict[str, Any]

# One stored edge, as a plain row: the relation is the one asked for (every statement
# filters on it), so it is not read.
_SCOPE, _SRC_SYNSET, _SRC_SENSE, _SRC_TERM, DST_SYNSET, _DST_SENSE, _DST_TERM = range(7)
_DST_LANGUAGE, _DST_TEXT, _SOURCE = 7, 8, 9
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
TERM_EDGES = (
    _EDGE + f"WHERE src_term_id IN {ID_LIST} AND relation = ? ORDER BY COALESCE(weight, 0) DESC, id"
)
# The senses inspected, with only what a result shows of them: id, external_id, gloss,
# source_id, pos, synset_id (entry order, then the source's own sense order).
SENSES = (
    "SELECT s.id, s.external_id, s.gloss, s.source_id, e.pos, s.synset_id "
    "FROM entries e JOIN senses s ON s.entry_id = e.id "
    f"WHERE e.term_id IN {ID_LIST}{{entries}} ORDER BY {{first}}e.term_id, e.id, s.rank, s.id "
    "LIMIT ?"
)
_SYNSET_INFO = f"SELECT id, external_id, gloss FROM synsets WHERE id IN {ID_LIST}"
_SENSE_INFO = (
    "SELECT s.id, t.text, s.gloss FROM senses s JOIN entries e ON e.id = s.entry_id "
    f"JOIN terms t ON t.id = e.term_id WHERE s.id IN {ID_LIST}"
)
_TERM_TEXT = f"SELECT id, text FROM terms WHERE id IN {ID_LIST}"
_SENSE_SCOPES = {"synset": "synset", "sense": "sense"}

Row = tuple[Any, ...]  # a sense row (see SENSES) or an edge row (see _EDGE)
Found = tuple[Row | None, tuple[Row, ...]]  # (the word's sense, if any; the edge path)


def edges_from_synsets(
    conn: sqlite3.Connection, synsets: Iterable[int | None], name: str
) -> dict[int, tuple[Row, ...]]:
    """Each synset's own edges of relation `name`, in id order (those not kept yet in one
    query)."""
    out, missing = _SYNSET_EDGES_KEPT.split(conn, ((s, name) for s in synsets if s is not None))
    found = {key[0]: edges for key, edges in out.items()}
    if missing:
        fresh: dict[int, list[Row]] = {key[0]: [] for key in missing}
        for edge in conn.execute(_SYNSET_EDGES, (id_list(fresh), name)):
            fresh[edge[_SRC_SYNSET]].append(edge)
        kept = {synset: tuple(edges) for synset, edges in fresh.items()}
        short = {(s, name): edges for s, edges in kept.items() if len(edges) <= _KEPT_EDGES_MAX}
        _SYNSET_EDGES_KEPT.keep(conn, short)
        found.update(kept)
    return found


def edges_from_senses(
    conn: sqlite3.Connection, senses: list[Row], name: str
) -> tuple[dict[int, list[Row]], dict[int, tuple[Row, ...]]]:
    """The senses' own (lexical) edges by sense, and their synsets' edges by synset."""
    by_sense: dict[int, list[Row]] = {}
    if not senses:
        return by_sense, {}
    if name in relations_stored(conn, SENSE_RELATIONS):
        for edge in conn.execute(_SENSE_EDGES, (id_list(row[0] for row in senses), name)):
            by_sense.setdefault(edge[_SRC_SENSE], []).append(edge)
    return by_sense, edges_from_synsets(conn, {row[5] for row in senses}, name)


# A synset's edges of one relation, kept per database across calls like `_SYNSETS` below:
# answers for different words keep reaching the same synsets (a two-level expansion reads
# the edges of every direct target), and stored edges never change. Keyed by (synset,
# relation). Only short lists are kept (hypernyms have one or two edges; a broad synset
# has hundreds of hyponyms): about 300 bytes an edge, so at most ~10 MB.
_SYNSET_EDGES_KEPT = ConnectionMemo[tuple[int, str], tuple[Row, ...]](4096)
_KEPT_EDGES_MAX = 8


def target_key(edge: Row) -> object:
    """What makes two edges reach the same target (a synset by its bare id)."""
    if edge[DST_SYNSET] is not None:
        return edge[DST_SYNSET]
    if edge[_DST_SENSE] is not None:
        return ("sense", edge[_DST_SENSE])
    if edge[_DST_TERM] is not None:
        return ("term", edge[_DST_TERM])
    return ("text", edge[_DST_LANGUAGE], normalize(edge[_DST_TEXT] or ""))


def _end(synset: int | None, sense: int | None, term: int | None) -> tuple[str, int] | None:
    """Which stored thing names one end of an edge: the first of synset, sense, term."""
    if synset is not None:
        return "synset", synset
    if sense is not None:
        return "sense", sense
    if term is not None:
        return "term", term
    return None


class Renderer:
    """Turns stored edges into results. The words and glosses at every end of the chosen
    paths are read up front, a few batched queries per call instead of one or two per
    end (a depth-2 answer for a common word names dozens of synsets)."""

    def __init__(
        self,
        corpus: Corpus,
        conn: sqlite3.Connection,
        language: str,
        name: str,
        table: SourceTable,
        cited: Cited,
        chosen: list[Found],
    ) -> None:
        self.language = language
        self.name = name
        self.table = table
        self.cited = cited
        # Free-text characters and objects rendered so far, for the size bound.
        self.chars = 0
        self.items = 0
        # The word's senses the results start from, by id: the answer's `senses`.
        self.senses: dict[str, _Json] = {}
        # Only the thing each end is named by is read (see `ends`).
        synsets: set[int] = set()
        wanted: dict[str, set[int]] = {"synset": synsets, "sense": set(), "term": set()}
        for _, path in chosen:
            for e in path:
                for synset, sense, term in (
                    (e[_SRC_SYNSET], e[_SRC_SENSE], e[_SRC_TERM]),
                    (e[DST_SYNSET], e[_DST_SENSE], e[_DST_TERM]),
                ):
                    # Synset ends first: nearly every stored edge joins two synsets.
                    if synset is not None:
                        synsets.add(synset)
                    elif (end := _end(None, sense, term)) is not None:
                        wanted[end[0]].add(end[1])
        self._synsets = _read_synsets(conn, wanted["synset"])
        self._senses = _read_senses(conn, wanted["sense"])
        self._terms = _read_terms(conn, wanted["term"])
        # Plain targets (no synset, no sense): whether each has its own entry, one
        # batched probe per target language.
        by_language: dict[str, set[str]] = {}
        for _, path in chosen:
            last = path[-1]
            if last[DST_SYNSET] is None and last[_DST_SENSE] is None:
                by_language.setdefault(last[_DST_LANGUAGE], set()).add(
                    normalize(self._plain_text(last))
                )
        self._installed = {
            (lang, norm)
            for lang, norms in by_language.items()
            for norm in installed_entries(corpus, lang, norms)
        }

    def result(self, found: Found) -> _Json:
        row, edges = found
        first = edges[0]
        last = edges[-1]
        self.items += 2
        # Defaults are left out (see RelationResult): the relation asked for, a direct
        # result at distance 1, of a synset sense.
        data: _Json = {}
        if len(edges) > 1:
            data["relation_scope"] = "transitive"
            data["distance"] = len(edges)
        scope = _SENSE_SCOPES.get(first[_SCOPE], "unsensed")
        if scope != "synset":
            data["sense_scope"] = scope
        data["from_sense"] = None if row is None else self.from_sense(row)
        data["target"] = self.target(last)
        if len(edges) > 1:  # a direct result is its own single edge: no path to show
            data["path"] = [self.edge(e) for e in edges]
        source = self.cited.key(self.table, last[_SOURCE])
        start = data["from_sense"]
        if start is None or self.senses[start]["source"] != source:
            data["source"] = source  # else the source of the sense it starts from
        return data

    def from_sense(self, row: Row) -> str:
        """The id of one of the word's senses (row as `SENSES` reads it), described once
        in `senses`."""
        handle = sense_handle(self.language, row[0])
        if handle not in self.senses:
            _, external_id, gloss, source_id, pos, _ = row
            gloss = clip(gloss, GLOSS_CHARS)
            source = self.cited.key(self.table, source_id)
            self.senses[handle] = sense_ref_data(handle, external_id, pos, gloss, source)
            self.chars += len(handle) + len(gloss) + len(external_id or "") + len(pos)
            self.items += 1
        return handle

    def _plain_text(self, e: Row) -> str:
        term = e[_DST_TERM]
        return self._terms.get(term, "") if term is not None else (e[_DST_TEXT] or "")

    def ends(
        self, synset: int | None, sense: int | None, term: int | None
    ) -> tuple[str, str | None]:
        if synset is not None:
            info = self._synsets.get(synset, _NO_SYNSET)
            return info[3], info[0]
        if sense is not None:
            return self._senses.get(sense, ("", ""))[0], sense_handle(self.language, sense)
        if term is not None:
            return self._terms.get(term, ""), None
        return "", None

    def edge(self, e: Row) -> _Json:
        # Synset ends first: nearly every stored edge joins two synsets.
        from_id: str | None
        to_id: str | None
        synset = e[_SRC_SYNSET]
        if synset is not None:
            info = self._synsets.get(synset, _NO_SYNSET)
            from_text, from_id = info[3], info[0]
        else:
            from_text, from_id = self.ends(None, e[_SRC_SENSE], e[_SRC_TERM])
        synset = e[DST_SYNSET]
        if synset is not None:
            info = self._synsets.get(synset, _NO_SYNSET)
            to_text, to_id = info[3], info[0]
        elif e[_DST_SENSE] is None and e[_DST_TERM] is None:
            to_text, to_id = e[_DST_TEXT] or "", None
        else:
            to_text, to_id = self.ends(None, e[_DST_SENSE], e[_DST_TERM])
        self.chars += len(from_text) + len(from_id or "") + len(to_text) + len(to_id or "")
        self.items += 1
        return {
            "relation": self.name,
            "scope": e[_SCOPE],
            "from_text": from_text,
            "from_id": from_id,
            "to_text": to_text,
            "to_id": to_id,
            "to_language": e[_DST_LANGUAGE],
            "source": self.cited.key(self.table, e[_SOURCE]),
        }

    def target(self, e: Row) -> _Json:
        synset: str | None = None
        sense_id: str | None = None
        gloss: str | None = None
        if e[DST_SYNSET] is not None:
            synset, members, full, text = self._synsets.get(e[DST_SYNSET], _NO_SYNSET)
            words = list(members)  # a list of its own (the kept tuple is shared)
            gloss = clip(full, GLOSS_CHARS)
            installed = True
        elif e[_DST_SENSE] is not None:
            text, full = self._senses.get(e[_DST_SENSE], ("", ""))
            words = [text]
            sense_id = sense_handle(self.language, e[_DST_SENSE])
            gloss = clip(full, GLOSS_CHARS)
            installed = True
        else:
            text = self._plain_text(e)
            words = [text]
            installed = (e[_DST_LANGUAGE], normalize(text)) in self._installed
        self.chars += 2 * len(text) + len(gloss or "") + len(synset or "") + len(sense_id or "")
        # What the target says of itself, without its defaults (see RelationTarget).
        target: _Json = {} if text == ", ".join(words) else {"text": text}
        target["words"] = words
        if e[_DST_LANGUAGE] != self.language:
            target["language"] = e[_DST_LANGUAGE]
        if synset is not None:
            target["synset"] = synset
        if sense_id is not None:
            target["sense_id"] = sense_id
        if gloss is not None:
            target["gloss"] = gloss
        if not installed:
            target["target_entry_installed"] = False
        return target


_Synset = tuple[str, tuple[str, ...], str, str]  # external id, words, gloss, words joined
_NO_SYNSET: _Synset = ("", (), "", "")

# What results show of a synset is kept per database across calls (bounded, oldest out
# first): answers for different words keep naming the same synsets ('person', 'act',
# 'change'). The member words come from synonyms' kept members (`synset_members`), so a
# synset one tool has read is not read again by the other. Objects never change, so a
# kept synset never goes stale. With the members, about 1 KB a synset: ~4 MB at most.
_SYNSETS = ConnectionMemo[int, _Synset](4096)


def clear_synset_caches(corpus: Corpus) -> None:
    """Forget the synsets, synset members and synset edges kept across calls (for
    measuring cold look-ups): with everything else kept per connection
    (`facts.clear_caches`)."""
    clear_caches(corpus)


def _read_synsets(conn: sqlite3.Connection, ids: set[int]) -> dict[int, _Synset]:
    """external id, member words (sense order), gloss and joined words of each synset."""
    if not ids:
        return {}
    out, missing = _SYNSETS.split(conn, ids)
    if not missing:
        return out
    members = synset_members(conn, missing)
    fresh: dict[int, _Synset] = {}
    for synset_id, ext, gloss in conn.execute(_SYNSET_INFO, (id_list(missing),)):
        words = tuple(m[1] for m in members.get(synset_id, ()))
        fresh[synset_id] = (ext, words, gloss, ", ".join(words))
    _SYNSETS.keep(conn, fresh)
    out.update(fresh)
    return out


def _read_senses(conn: sqlite3.Connection, ids: set[int]) -> dict[int, tuple[str, str]]:
    """headword and gloss of each sense."""
    if not ids:
        return {}
    return {
        sense_id: (text, gloss)
        for sense_id, text, gloss in conn.execute(_SENSE_INFO, (id_list(ids),))
    }


def _read_terms(conn: sqlite3.Connection, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    return dict(conn.execute(_TERM_TEXT, (id_list(ids),)))
