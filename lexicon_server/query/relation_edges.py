"""Stored relation edges for dictionary_relations, rendered as results.

An edge is read as a `corpus.rows.relations.Edge`; the renderer reads the words and
glosses at every end of the chosen paths in a few batched reads, and turns each path
into a result with its target and, for a two-edge result, its `path`. What results show
of a synset is kept per database across calls (`ConnectionMemo`).
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from lexicon_server.corpus.rows.facts import ConnectionMemo, clear_caches
from lexicon_server.corpus.rows.relations import Edge
from lexicon_server.corpus.rows.senses import SenseRow, sense_texts, synset_glosses, synset_members
from lexicon_server.corpus.rows.terms import term_texts
from lexicon_server.query.budget import GLOSS_CHARS, clip
from lexicon_server.query.headwords import normalize
from lexicon_server.query.provenance import Cited
from lexicon_server.query.senses import sense_handle, sense_ref_data
from lexicon_server.query.targets import installed_entries

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.corpus.rows.facts import SourceTable

__all__ = ["Found", "Renderer", "clear_synset_caches", "target_key"]

_Json = dict[str, Any]

_SENSE_SCOPES = {"synset": "synset", "sense": "sense"}

Found = tuple[SenseRow | None, tuple[Edge, ...]]  # (the word's sense, if any; the edge path)


def target_key(edge: Edge) -> object:
    """What makes two edges reach the same target (a synset by its bare id)."""
    if edge.dst_synset_id is not None:
        return edge.dst_synset_id
    if edge.dst_sense_id is not None:
        return ("sense", edge.dst_sense_id)
    if edge.dst_term_id is not None:
        return ("term", edge.dst_term_id)
    return ("text", edge.dst_language, normalize(edge.dst_text or ""))


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
        source_ids: bool = False,
    ) -> None:
        self.language = language
        self.source_ids = source_ids
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
                    (e.src_synset_id, e.src_sense_id, e.src_term_id),
                    (e.dst_synset_id, e.dst_sense_id, e.dst_term_id),
                ):
                    # Synset ends first: nearly every stored edge joins two synsets.
                    if synset is not None:
                        synsets.add(synset)
                    elif (end := _end(None, sense, term)) is not None:
                        wanted[end[0]].add(end[1])
        self._synsets = _read_synsets(conn, wanted["synset"])
        self._senses = sense_texts(conn, wanted["sense"]) if wanted["sense"] else {}
        self._terms = term_texts(conn, wanted["term"]) if wanted["term"] else {}
        # Plain targets (no synset, no sense): whether each has its own entry, one
        # batched probe per target language.
        by_language: dict[str, set[str]] = {}
        for _, path in chosen:
            last = path[-1]
            if last.dst_synset_id is None and last.dst_sense_id is None:
                by_language.setdefault(last.dst_language, set()).add(
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
        scope = _SENSE_SCOPES.get(first.scope, "unsensed")
        if scope != "synset":
            data["sense_scope"] = scope
        data["from_sense"] = None if row is None else self.from_sense(row)
        data.update(self.target(last))
        if len(edges) > 1:  # a direct result is its own single edge: no path to show
            data["path"] = [self.edge(e) for e in edges]
        source = self.cited.key(self.table, last.source_id)
        start = data["from_sense"]
        if start is None or self.senses[start]["source"] != source:
            data["source"] = source  # else the source of the sense it starts from
        return data

    def from_sense(self, row: SenseRow) -> str:
        """The id of one of the word's senses, described once in `senses`."""
        handle = sense_handle(self.language, row.id)
        if handle not in self.senses:
            external_id, pos = row.external_id, row.pos
            gloss = clip(row.gloss, GLOSS_CHARS)
            source = self.cited.key(self.table, row.source_id)
            self.senses[handle] = sense_ref_data(handle, pos, gloss, source)
            self.chars += len(handle) + len(gloss) + len(external_id or "") + len(pos)
            self.items += 1
        return handle

    def _plain_text(self, e: Edge) -> str:
        term = e.dst_term_id
        return self._terms.get(term, "") if term is not None else (e.dst_text or "")

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

    def edge(self, e: Edge) -> _Json:
        # Synset ends first: nearly every stored edge joins two synsets.
        from_id: str | None
        to_id: str | None
        synset = e.src_synset_id
        if synset is not None:
            info = self._synsets.get(synset, _NO_SYNSET)
            from_text, from_id = info[3], info[0]
        else:
            from_text, from_id = self.ends(None, e.src_sense_id, e.src_term_id)
        synset = e.dst_synset_id
        if synset is not None:
            info = self._synsets.get(synset, _NO_SYNSET)
            to_text, to_id = info[3], info[0]
        elif e.dst_sense_id is None and e.dst_term_id is None:
            to_text, to_id = e.dst_text or "", None
        else:
            to_text, to_id = self.ends(None, e.dst_sense_id, e.dst_term_id)
        self.chars += len(from_text) + len(from_id or "") + len(to_text) + len(to_id or "")
        self.items += 1
        return {
            "relation": self.name,
            "scope": e.scope,
            "from_text": from_text,
            "from_id": from_id,
            "to_text": to_text,
            "to_id": to_id,
            "to_language": e.dst_language,
            "source": self.cited.key(self.table, e.source_id),
        }

    def target(self, e: Edge) -> _Json:
        synset: str | None = None
        sense_id: str | None = None
        gloss: str | None = None
        if e.dst_synset_id is not None:
            synset, members, full, text = self._synsets.get(e.dst_synset_id, _NO_SYNSET)
            words = list(members)  # a list of its own (the kept tuple is shared)
            gloss = clip(full, GLOSS_CHARS)
            installed = True
        elif e.dst_sense_id is not None:
            text, full = self._senses.get(e.dst_sense_id, ("", ""))
            words = [text]
            sense_id = sense_handle(self.language, e.dst_sense_id)
            gloss = clip(full, GLOSS_CHARS)
            installed = True
        else:
            text = self._plain_text(e)
            words = [text]
            installed = (e.dst_language, normalize(text)) in self._installed
        self.chars += 2 * len(text) + len(gloss or "") + len(synset or "") + len(sense_id or "")
        # What the target says of itself, without its defaults (see RelationResult).
        target: _Json = {} if text == ", ".join(words) else {"text": text}
        target["words"] = words
        if e.dst_language != self.language:
            target["language"] = e.dst_language
        if synset is not None and self.source_ids:
            target["synset"] = synset
        if sense_id is not None:
            target["target_sense"] = sense_id
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
    for synset_id, ext, gloss in synset_glosses(conn, missing):
        words = tuple(m[1] for m in members.get(synset_id, ()))
        fresh[synset_id] = (ext, words, gloss, ", ".join(words))
    _SYNSETS.keep(conn, fresh)
    out.update(fresh)
    return out
