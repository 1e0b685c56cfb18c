"""dictionary_synonyms: synonyms grouped by the source-native sense they belong to.

Sense-scoped candidates come from the word's own senses: the other members of each
sense's synset, and synonym edges the source ties to that sense. Unsensed candidates
(term-to-term edges such as ConceptNet's) form one extra group with its own allocation,
`unsensed_limit`; whatever that group does not use goes back to the sense groups.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from pydantic_core import to_json

from lexicon_server.models import MAX_RESPONSE_CHARS, SenseRef, SynonymsResult
from lexicon_server.query.common import (
    GLOSS_CHARS,
    ID_LIST,
    SENSE_RELATIONS,
    Cited,
    ConnectionMemo,
    budget_data,
    check_allocation,
    check_limit,
    check_text,
    clip,
    corpus_language,
    drop_last_group,
    fit_response,
    id_list,
    installed_entries,
    json_bound,
    normalize,
    relations_stored,
    resolution_data,
    resolve_headwords,
    round_robin,
    sense_handle,
    sense_ref_data,
    sources,
    word_senses,
)
from lexicon_server.query.lookup_rows import SenseRow

if TYPE_CHECKING:
    import sqlite3

    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.query.common import Headwords, SourceTable

__all__ = [
    "MAX_SENSES_DEFAULT",
    "UNSENSED_DEFAULT",
    "clear_members",
    "has_term_edges",
    "json_size",
    "sense_data",
    "sense_ref",
    "synonyms",
    "synonyms_data",
    "synset_members",
]

MAX_SENSES_DEFAULT = 100
# Candidates reserved for unsensed synonyms (Moby's list, ConceptNet's edges) when the
# caller gives no `unsensed_limit`; never more than `limit` (docs/tools.md).
UNSENSED_DEFAULT = 10

# text, norm, relation, source_id, has_entry, sense_scope
_Cand = tuple[str, str, str, int, bool, str]
_Json = dict[str, Any]


def sense_ref(language: str, row: SenseRow, table: SourceTable, cited: Cited) -> SenseRef:
    """The reference to one source sense; its source is cited in `cited`."""
    return SenseRef.model_validate(sense_data(language, row, table, cited))


def sense_data(language: str, row: SenseRow, table: SourceTable, cited: Cited) -> _Json:
    """`sense_ref(...)` as plain data (`model_dump(mode="json")` of it)."""
    handle = sense_handle(language, row.id)
    gloss = clip(row.gloss, GLOSS_CHARS)
    return sense_ref_data(handle, row.external_id, row.pos, gloss, cited.key(table, row.source_id))


def synonyms(
    corpus: Corpus,
    word: str,
    language: str = "en",
    limit: int = 20,
    max_senses: int = MAX_SENSES_DEFAULT,
    unsensed_limit: int | None = None,
) -> SynonymsResult:
    """Synonyms of `word`, at most `limit` in total, grouped by source sense."""
    data, bound = _synonyms_data(corpus, word, language, limit, max_senses, unsensed_limit)
    if bound > MAX_RESPONSE_CHARS:
        bound = min(bound, json_size(data))
    return fit_response(SynonymsResult.model_validate(data), drop_last_group, bound=bound)


def synonyms_data(
    corpus: Corpus,
    word: str,
    language: str = "en",
    limit: int = 20,
    max_senses: int = MAX_SENSES_DEFAULT,
    unsensed_limit: int | None = None,
) -> _Json:
    """`synonyms(...).model_dump(mode="json")`, for the tool: the MCP SDK validates the
    structured content against `SynonymsResult` itself, so an answer that surely fits the
    response budget skips the typed models (one validation instead of two)."""
    data, bound = _synonyms_data(corpus, word, language, limit, max_senses, unsensed_limit)
    if bound <= MAX_RESPONSE_CHARS or json_size(data) <= MAX_RESPONSE_CHARS:
        return data
    model = fit_response(SynonymsResult.model_validate(data), drop_last_group, bound=bound)
    return model.model_dump(mode="json")


def json_size(data: _Json) -> int:
    """An upper bound of a result's serialised size in characters, measured on its plain
    data: the UTF-8 bytes (the model dumps the same JSON). The estimate from text lengths
    comes first; this is for long answers whose estimate exceeds the budget, where
    building the model only to measure it cost several times more."""
    return len(to_json(data))


def _synonyms_data(
    corpus: Corpus,
    word: str,
    language: str,
    limit: int,
    max_senses: int,
    unsensed_limit: int | None,
) -> tuple[_Json, int]:
    """The result as plain data (exactly as `SynonymsResult` dumps it) and a safe upper
    bound of its serialised size."""
    word = check_text("word", word)
    language = corpus_language(corpus, "language", language)
    limit = check_limit("limit", limit)
    max_senses = check_limit("max_senses", max_senses)
    allocation = check_allocation("unsensed_limit", unsensed_limit, limit, default=UNSENSED_DEFAULT)
    conn = corpus.db(language, "lexical")
    table = sources(conn)
    cited = Cited()
    cut: list[str] = []  # what the answer left out, for `budget.cut`
    heads = resolve_headwords(conn, word, language)
    cited.merge(heads.sources)
    all_senses: list[_Row] = []
    if heads.term_ids:
        all_senses = conn.execute(*word_senses(_SENSES, heads)).fetchall()
    senses = all_senses[:max_senses]
    if len(all_senses) > max_senses:
        cut.append(f"senses: inspected {max_senses} of {len(all_senses)} (max_senses)")

    own = _own_norms(conn, heads, all_senses)
    members, edges, similar = _sense_material(conn, senses, limit)
    sensed = [
        _sense_candidates(row, own, heads.term_ids, members, edges, similar, limit)
        for row in senses
    ]
    unsensed = _unsensed_candidates(corpus, conn, heads.term_ids, language, own)
    sensed_take = round_robin([len(c) for c in sensed], limit - min(allocation, len(unsensed)))
    for _ in range(2):
        # Only what the sense groups show is left out of the unsensed group: a thesaurus
        # term tied to a sense that ran out of room still shows, unsensed. When that leaves
        # fewer unsensed candidates than reserved, the room goes back to the sense groups
        # once (and what they then show is left out too).
        if unsensed:
            seen = {c[1] for cs, t in zip(sensed, sensed_take, strict=True) for c in cs[:t]}
            unsensed = [c for c in unsensed if c[1] not in seen]
        unsensed_take = min(allocation, len(unsensed))
        if sum(sensed_take) + unsensed_take >= limit:
            break
        sensed_take = round_robin([len(c) for c in sensed], limit - unsensed_take)

    # For the size bound: every free-text character, and the objects around them.
    chars = len(word)
    items = 0
    groups: list[_Json] = []
    key = cited.key
    for row, cands, take in zip(senses, sensed, sensed_take, strict=True):
        if take == 0:
            continue
        sense_id, external_id, gloss, source_id, pos, synset_id, _ = row
        gloss = clip(gloss, GLOSS_CHARS)
        sense_source = key(table, source_id)
        handle = sense_handle(language, sense_id)
        sense = sense_ref_data(handle, external_id, pos, gloss, sense_source)
        shown = cands[:take]
        chars += len(gloss) + len(external_id or "") + len(pos)
        chars += sum(len(c[0]) for c in shown)
        items += 2 + take
        group: _Json = {
            "sense": sense,
            "sense_scope": "sense" if synset_id is None else "synset",
            "candidates": [_candidate(c, key(table, c[3]), sense_source) for c in shown],
        }
        if len(cands) > take:
            group["truncated"] = True
        groups.append(group)
    hidden = sum(len(c) - t for c, t in zip(sensed, sensed_take, strict=True))
    if hidden:
        # Similar synsets past the first `limit` of a sense are not read: a lower bound.
        unread = any(len(linked) > limit for linked in similar.values())
        at_least = "at least " if unread else ""
        cut.append(f"sense-scoped candidates: {at_least}{hidden} more beyond limit={limit}")
    if unsensed_take:
        chars += sum(len(c[0]) for c in unsensed[:unsensed_take])
        items += 1 + unsensed_take
        group = {
            "sense_scope": "unsensed",
            "candidates": [_candidate(c, key(table, c[3]), None) for c in unsensed[:unsensed_take]],
        }
        if len(unsensed) > unsensed_take:
            group["truncated"] = True
        groups.append(group)
    if len(unsensed) > unsensed_take:
        cut.append(
            f"unsensed candidates: {len(unsensed) - unsensed_take} more beyond "
            f"unsensed_limit={allocation}"
        )
    cited_sources = cited.sources()
    data: _Json = {
        "word": word,
        "language": language,
        "dataset_version": corpus.dataset_version,
        "found": heads.found,
        "resolutions": resolution_data(heads.resolutions),
        "count": len(groups),
        "candidate_count": sum(len(g["candidates"]) for g in groups),
        "senses_inspected": len(senses),
        "max_senses": max_senses,
        "unsensed_limit": allocation,
        "unsensed_returned": unsensed_take,
        "groups": groups,
        "sources": cited_sources,
    }
    if cut:  # else left out (see SynonymsResult)
        data["budget"] = budget_data(cut)
    chars += sum(len(r.form) + len(r.lemma) + len(r.rule or "") for r in heads.resolutions)
    chars += sum(len(note) for note in cut) + len(corpus.dataset_version)
    chars += sum(map(len, cited_sources.values()))
    items += len(heads.resolutions) + len(cited_sources) + 3  # + the result's own fields
    return data, json_bound(items=items) + 6 * chars


# A word's sense as `_SENSES` reads it: id, external_id, gloss, source_id, pos,
# synset_id, term_id.
_Row = tuple[Any, ...]
_Edge = tuple[str, str | None, int, bool]  # text, norm, source_id, has_entry

# All the word's senses (the count is reported), entry order then the source's order.
_SENSES = (
    "SELECT s.id, s.external_id, s.gloss, s.source_id, e.pos, s.synset_id, e.term_id "
    "FROM entries e JOIN senses s ON s.entry_id = e.id "
    f"WHERE e.term_id IN {ID_LIST}{{entries}} ORDER BY {{first}}e.term_id, e.id, s.rank, s.id"
)
_TERM_NORMS = f"SELECT norm FROM terms WHERE id IN {ID_LIST}"
# Every member of some synsets (term id, text, norm, source id), by synset then sense id,
# the order the index gives without a sort.
_MEMBERS_SQL = (
    "SELECT s.synset_id, e.term_id, t.text, t.norm, s.source_id FROM senses s "
    "JOIN entries e ON e.id = s.entry_id JOIN terms t ON t.id = e.term_id "
    f"WHERE s.synset_id IN {ID_LIST} ORDER BY s.synset_id, s.id"
)
_SIMILAR = (
    f"SELECT src_synset_id, dst_synset_id FROM relations WHERE src_synset_id IN {ID_LIST} "
    "AND relation = 'similar' AND scope = 'synset' AND dst_synset_id IS NOT NULL "
    "ORDER BY src_synset_id, id"
)
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
_TERM_SYNONYMS = (
    "SELECT COALESCE(t.text, r.dst_text), r.source_id FROM relations r "
    "LEFT JOIN terms t ON t.id = r.dst_term_id "
    f"WHERE r.src_term_id IN {ID_LIST} AND r.relation = 'synonym' AND r.scope = 'term' "
    "AND r.dst_language = ? ORDER BY COALESCE(r.weight, 0) DESC, r.id"
)
_ANY_TERM_EDGE = "SELECT 1 FROM relations WHERE src_term_id IS NOT NULL LIMIT 1"


_term_edges_lock = threading.Lock()
# Keyed by id(conn); the connection is kept in the value so its id is never reused.
_term_edges_cache: dict[int, tuple[sqlite3.Connection, bool]] = {}


def has_term_edges(conn: sqlite3.Connection) -> bool:
    """Whether the database has any term-to-term edge (ConceptNet's); without one, the
    unsensed statements are skipped. Read once per connection, from the index."""
    cached = _term_edges_cache.get(id(conn))
    if cached is not None and cached[0] is conn:
        return cached[1]
    found = conn.execute(_ANY_TERM_EDGE).fetchone() is not None
    with _term_edges_lock:
        _term_edges_cache[id(conn)] = (conn, found)
    return found


def _own_norms(conn: sqlite3.Connection, heads: Headwords, senses: list[_Row]) -> set[str]:
    """The word's own spellings, which are never candidates: the query's norm and the norm
    of every headword that has senses (`terms.norm` is the builder's `normalize(text)`)."""
    own = {heads.norm}
    # An exact match found its terms by this very norm; lemmas reached through an
    # inflection or a suffix rule have their own.
    if senses and heads.resolutions and heads.resolutions[0].via != "exact":
        with_senses = {row[6] for row in senses}
        own.update(row[0] for row in conn.execute(_TERM_NORMS, (id_list(with_senses),)))
    return own


_SynsetMember = tuple[int, str, str, int]  # term_id, text, norm, source_id

# The members of a synset are kept per database across calls (bounded, oldest out
# first), for synonyms and for the words relations shows of a synset: answers for
# different words keep naming the same synsets, and each member costs four B-tree
# searches to read. Objects never change, so a kept synset never goes stale. Together
# with relations' synset cache, about 1 KB a synset: ~4 MB at most for 4,096.
_MEMBERS = ConnectionMemo[int, tuple[_SynsetMember, ...]](4096)


def clear_members() -> None:
    """Forget the synset members kept across calls (for measuring cold look-ups)."""
    _MEMBERS.clear()


def synset_members(
    conn: sqlite3.Connection, synsets: Iterable[int]
) -> dict[int, tuple[_SynsetMember, ...]]:
    """The members of each synset, in sense order (those not kept yet in one query)."""
    out, missing = _MEMBERS.split(conn, synsets)
    if not missing:
        return out
    fresh: dict[int, list[_SynsetMember]] = {i: [] for i in missing}
    for synset_id, term_id, text, norm, source_id in conn.execute(
        _MEMBERS_SQL, (id_list(missing),)
    ):
        # one string object when the norm is the text itself (most words), to keep less
        fresh[synset_id].append((term_id, text, text if norm == text else norm, source_id))
    kept = {synset_id: tuple(members) for synset_id, members in fresh.items()}
    _MEMBERS.keep(conn, kept)
    out.update(kept)
    return out


def _sense_material(
    conn: sqlite3.Connection, senses: list[_Row], limit: int
) -> tuple[dict[int, tuple[_SynsetMember, ...]], dict[int, list[_Edge]], dict[int, list[int]]]:
    """Synset members per synset, synonym edges per sense, and the synsets each adjective
    sense's synset is linked to as `similar` (all of them; members are read for the first
    `limit` only: no sense shows more candidates, and a head adjective such as 'large' has
    dozens)."""
    edges: dict[int, list[_Edge]] = {}
    if not senses:
        return {}, edges, {}
    synsets = {row[5] for row in senses}
    synsets.discard(None)
    similar = _similar_synsets(conn, {row[5] for row in senses if row[4] == "adj"} - {None})
    wanted = synsets.union(*(linked[:limit] for linked in similar.values()))
    members = synset_members(conn, wanted) if wanted else {}
    if "synonym" in relations_stored(conn, SENSE_RELATIONS):
        for sense_id, text, norm, source_id, has_entry in conn.execute(
            _SENSE_SYNONYMS, (id_list(row[0] for row in senses),)
        ):
            if text is not None:
                edges.setdefault(sense_id, []).append((text, norm, source_id, bool(has_entry)))
    return members, edges, similar


def _similar_synsets(conn: sqlite3.Connection, synsets: set[int]) -> dict[int, list[int]]:
    """WordNet's adjective clusters: a head adjective's synset ('happy') has no other
    members, its near-synonyms ('blissful', 'halcyon') sit in satellite synsets linked to it
    as `similar` (and each satellite to its head)."""
    out: dict[int, list[int]] = {}
    if synsets:
        for src, dst in conn.execute(_SIMILAR, (id_list(synsets),)):
            out.setdefault(src, []).append(dst)
    return out


def _sense_candidates(
    row: _Row,
    own: set[str],
    own_terms: tuple[int, ...],
    members: dict[int, tuple[_SynsetMember, ...]],
    edges: dict[int, list[_Edge]],
    similar: dict[int, list[int]],
    limit: int,
) -> list[_Cand]:
    """The sense's synonyms: its synset's other members, the source's synonym edges of the
    sense, then (adjectives) the members of the first `limit` synsets linked as similar."""
    out: list[_Cand] = []
    seen = set(own)
    if row[5] is not None:
        for term_id, text, norm, source_id in members.get(row[5], ()):
            if term_id in own_terms:  # the word's own sense in this synset
                continue
            key = norm or normalize(text)
            if key not in seen:
                seen.add(key)
                out.append((text, key, "synset_member", source_id, True, "synset"))
    for target, target_norm, source_id, has_entry in edges.get(row[0], ()):
        key = target_norm if target_norm is not None else normalize(target)
        if key not in seen:
            seen.add(key)
            out.append((target, key, "synonym", source_id, has_entry, "sense"))
    for synset in similar.get(row[5], ())[:limit]:
        for _term_id, text, norm, source_id in members.get(synset, ()):
            key = norm or normalize(text)
            if key not in seen:
                seen.add(key)
                out.append((text, key, "similar", source_id, True, "synset"))
    return out


def _unsensed_candidates(
    corpus: Corpus,
    conn: sqlite3.Connection,
    term_ids: tuple[int, ...],
    language: str,
    own: set[str],
) -> list[_Cand]:
    if not term_ids or not has_term_edges(conn):
        return []
    found: list[tuple[str, str, int]] = []
    seen = set(own)
    for text, source_id in conn.execute(_TERM_SYNONYMS, (id_list(term_ids), language)):
        if text is None:
            continue
        key = normalize(text)
        if key in seen:
            continue
        seen.add(key)
        found.append((text, key, source_id))
    if not found:
        return []
    # Same-language targets: whether each has its own entry, in one batched probe.
    installed = installed_entries(corpus, language, (key for _, key, _ in found))
    return [
        (text, key, "synonym", source_id, key in installed, "unsensed")
        for text, key, source_id in found
    ]


def _candidate(row: Sequence[Any], source: str, group_source: str | None) -> _Json:
    """One candidate (text, _, relation, _, installed, scope): defaults left out, and its
    source only where it differs from its group's sense's (see SynonymCandidate)."""
    candidate: _Json = {"text": row[0]}
    if row[5] != "synset":
        candidate["sense_scope"] = row[5]
    if row[2] != "synset_member":
        candidate["relation"] = row[2]
    if not row[4]:
        candidate["target_entry_installed"] = False
    if source != group_source:
        candidate["source"] = source
    return candidate
