"""dictionary_synonyms: synonyms grouped by the source-native sense they belong to.

Sense-scoped candidates come from the word's own senses: the other members of each
sense's synset, and synonym edges the source ties to that sense. Unsensed candidates
(term-to-term edges such as ConceptNet's) form one extra group with its own allocation,
`unsensed_limit`; whatever that group does not use goes back to the sense groups.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lexicon_server.models import MAX_RESPONSE_CHARS, SenseRef, SynonymsResult
from lexicon_server.query.common import (
    GLOSS_CHARS,
    Cited,
    Cuts,
    check_allocation,
    check_limit,
    check_text,
    clip,
    corpus_language,
    drop_last_group,
    entry_installed,
    fit_response,
    json_bound,
    normalize,
    resolve_headwords,
    round_robin,
    sense_handle,
    sources,
)
from lexicon_server.query.lookup import SenseRow, sense_rows

if TYPE_CHECKING:
    import sqlite3

    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.query.common import SourceTable

__all__ = ["MAX_SENSES_DEFAULT", "sense_data", "sense_ref", "synonyms", "synonyms_data"]

MAX_SENSES_DEFAULT = 100

_Cand = tuple[str, str, str, int, bool]  # text, norm, relation, source_id, has_entry
_Json = dict[str, Any]


def sense_ref(language: str, row: SenseRow, table: SourceTable, cited: Cited) -> SenseRef:
    """The reference to one source sense; its source is cited in `cited`."""
    return SenseRef.model_validate(sense_data(language, row, table, cited))


def sense_data(language: str, row: SenseRow, table: SourceTable, cited: Cited) -> _Json:
    """`sense_ref(...)` as plain data (`model_dump(mode="json")` of it)."""
    return {
        "id": sense_handle(language, row.id),
        "external_id": row.external_id,
        "pos": row.pos,
        "gloss": clip(row.gloss, GLOSS_CHARS),
        "source": cited.key(table, row.source_id),
    }


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
    return fit_response(SynonymsResult.model_validate(data), _drop_last_group, bound=bound)


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
    if bound <= MAX_RESPONSE_CHARS:
        return data
    model = fit_response(SynonymsResult.model_validate(data), _drop_last_group, bound=bound)
    return model.model_dump(mode="json")


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
    allocation = check_allocation("unsensed_limit", unsensed_limit, limit)
    conn = corpus.db(language, "lexical")
    table = sources(conn)
    cited = Cited()
    cuts = Cuts()
    heads = resolve_headwords(conn, word, language)
    cited.merge(heads.sources)
    all_senses = sense_rows(conn, heads.term_ids)
    senses = all_senses[:max_senses]
    if len(all_senses) > max_senses:
        cuts.add(f"senses: inspected {max_senses} of {len(all_senses)} (max_senses)")

    own = {heads.norm, *(normalize(r.word) for r in all_senses)}
    sensed: list[list[_Cand]] = []
    shown_norms: set[str] = set()
    members, edges = _sense_material(conn, senses)
    for row in senses:
        cands = _sense_candidates(row, own, members, edges)
        sensed.append(cands)
        shown_norms.update(c[1] for c in cands)
    unsensed = [
        c
        for c in _unsensed_candidates(corpus, conn, heads.term_ids, language, own)
        if c[1] not in shown_norms
    ]

    unsensed_take = min(allocation, len(unsensed))
    sensed_take = round_robin([len(c) for c in sensed], limit - unsensed_take)

    # For the size bound: every free-text character, and the objects around them.
    chars = len(word)
    items = 0
    groups: list[_Json] = []
    for row, cands, take in zip(senses, sensed, sensed_take, strict=True):
        if take == 0:
            continue
        sense = sense_data(language, row, table, cited)
        shown = [
            _candidate(c, "synset" if c[2] == "synset_member" else "sense", table, cited)
            for c in cands[:take]
        ]
        chars += len(sense["gloss"]) + len(row.external_id or "") + len(row.pos)
        chars += sum(len(c[0]) for c in cands[:take])
        items += 2 + take
        groups.append(
            {
                "sense": sense,
                "sense_scope": "synset" if row.synset else "sense",
                "candidates": shown,
                "truncated": len(cands) > take,
            }
        )
    hidden = sum(len(c) - t for c, t in zip(sensed, sensed_take, strict=True))
    if hidden:
        cuts.add(f"sense-scoped candidates: {hidden} more beyond limit={limit}")
    if unsensed_take:
        chars += sum(len(c[0]) for c in unsensed[:unsensed_take])
        items += 1 + unsensed_take
        groups.append(
            {
                "sense": None,
                "sense_scope": "unsensed",
                "candidates": [
                    _candidate(c, "unsensed", table, cited) for c in unsensed[:unsensed_take]
                ],
                "truncated": len(unsensed) > unsensed_take,
            }
        )
    if len(unsensed) > unsensed_take:
        cuts.add(
            f"unsensed candidates: {len(unsensed) - unsensed_take} more beyond "
            f"unsensed_limit={allocation}"
        )
    cited_sources = cited.sources()
    budget = cuts.budget()
    data: _Json = {
        "word": word,
        "language": language,
        "dataset_version": corpus.dataset_version,
        "found": heads.found,
        "resolutions": [r.model_dump(mode="json") for r in heads.resolutions],
        "count": len(groups),
        "candidate_count": sum(len(g["candidates"]) for g in groups),
        "senses_inspected": len(senses),
        "max_senses": max_senses,
        "unsensed_limit": allocation,
        "unsensed_returned": unsensed_take,
        "groups": groups,
        "sources": cited_sources,
        "budget": {"max_chars": budget.max_chars, "cut": list(budget.cut)},
    }
    chars += sum(len(r.form) + len(r.lemma) + len(r.rule or "") for r in heads.resolutions)
    chars += sum(len(note) for note in budget.cut) + len(corpus.dataset_version)
    chars += sum(sum(map(len, info.values())) for info in cited_sources.values())
    items += len(heads.resolutions) + len(cited_sources) + 3  # + the result's own fields
    return data, json_bound(items=items) + 6 * chars


def _drop_last_group(result: SynonymsResult, excess: int) -> tuple[SynonymsResult, str] | None:
    """`drop_last_group`, then `sources` trimmed to the keys the kept facts still name."""
    shrunk = drop_last_group(result, excess)
    if shrunk is None:
        return None
    smaller, note = shrunk
    named = {r.source for r in smaller.resolutions}
    for group in smaller.groups:
        if group.sense is not None:
            named.add(group.sense.source)
        named.update(c.source for c in group.candidates)
    kept = {key: info for key, info in smaller.sources.items() if key in named}
    return smaller.model_copy(update={"sources": kept}), note


def _candidate(c: _Cand, scope: str, table: SourceTable, cited: Cited) -> _Json:
    text, _norm, relation, source_id, has_entry = c
    return {
        "text": text,
        "sense_scope": scope,
        "relation": relation,
        "target_entry_installed": has_entry,
        "source": cited.key(table, source_id),
    }


_Row = tuple[str, str | None, int, bool]  # text, norm, source_id, has_entry


def _sense_material(
    conn: sqlite3.Connection, senses: list[SenseRow]
) -> tuple[dict[int, list[_Row]], dict[int, list[_Row]]]:
    """Synset members per synset and synonym edges per sense, in two queries."""
    members: dict[int, list[_Row]] = {}
    edges: dict[int, list[_Row]] = {}
    synsets = sorted({r.synset_id for r in senses if r.synset_id is not None})
    if synsets:
        marks = ",".join("?" * len(synsets))
        for synset_id, text, norm, source_id in conn.execute(
            "SELECT s.synset_id, t.text, t.norm, s.source_id FROM senses s "
            "JOIN entries e ON e.id = s.entry_id JOIN terms t ON t.id = e.term_id "
            f"WHERE s.synset_id IN ({marks}) ORDER BY s.id",
            synsets,
        ):
            members.setdefault(synset_id, []).append((text, norm, source_id, True))
    if senses:
        marks = ",".join("?" * len(senses))
        for sense_id, text, norm, source_id, has_entry in conn.execute(
            "SELECT r.src_sense_id, COALESCE(ts.text, tt.text, r.dst_text), "
            "COALESCE(ts.norm, tt.norm), r.source_id, "
            "(r.dst_sense_id IS NOT NULL OR EXISTS "
            "  (SELECT 1 FROM entries e2 WHERE e2.term_id = r.dst_term_id)) "
            "FROM relations r "
            "LEFT JOIN senses ds ON ds.id = r.dst_sense_id "
            "LEFT JOIN entries de ON de.id = ds.entry_id "
            "LEFT JOIN terms ts ON ts.id = de.term_id "
            "LEFT JOIN terms tt ON tt.id = r.dst_term_id "
            f"WHERE r.src_sense_id IN ({marks}) AND r.relation = 'synonym' ORDER BY r.id",
            [r.id for r in senses],
        ):
            if text is not None:
                edges.setdefault(sense_id, []).append((text, norm, source_id, bool(has_entry)))
    return members, edges


def _sense_candidates(
    row: SenseRow,
    own: set[str],
    members: dict[int, list[_Row]],
    edges: dict[int, list[_Row]],
) -> list[_Cand]:
    out: list[_Cand] = []
    seen = set(own)
    if row.synset_id is not None:
        for text, norm, source_id, _ in members.get(row.synset_id, []):
            key = norm or normalize(text)
            if key not in seen:
                seen.add(key)
                out.append((text, key, "synset_member", source_id, True))
    for text, norm, source_id, has_entry in edges.get(row.id, []):
        key = norm if norm is not None else normalize(text)
        if key not in seen:
            seen.add(key)
            out.append((text, key, "synonym", source_id, has_entry))
    return out


def _unsensed_candidates(
    corpus: Corpus,
    conn: sqlite3.Connection,
    term_ids: tuple[int, ...],
    language: str,
    own: set[str],
) -> list[_Cand]:
    if not term_ids:
        return []
    marks = ",".join("?" * len(term_ids))
    out: list[_Cand] = []
    seen = set(own)
    for text, source_id in conn.execute(
        "SELECT COALESCE(t.text, r.dst_text), r.source_id FROM relations r "
        "LEFT JOIN terms t ON t.id = r.dst_term_id "
        f"WHERE r.src_term_id IN ({marks}) AND r.relation = 'synonym' AND r.scope = 'term' "
        "AND r.dst_language = ? ORDER BY COALESCE(r.weight, 0) DESC, r.id",
        (*term_ids, language),
    ):
        if text is None:
            continue
        key = normalize(text)
        if key in seen:
            continue
        seen.add(key)
        out.append((text, key, "synonym", source_id, entry_installed(corpus, language, key)))
    return out
