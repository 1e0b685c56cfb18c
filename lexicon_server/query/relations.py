"""dictionary_relations: directed lexical relations of a word, with their provenance.

Direct edges (`relation_scope="direct"`, `distance=1`) come from the word's senses
(synset and sense pointers) and from the word itself (unsensed, term-to-term edges).
For hypernyms and hyponyms, `max_depth=2` adds a bounded two-edge expansion of the same
relation (`relation_scope="transitive"`, `distance=2`) whose `path` holds both edges.
The transitive class has its own allocation, `transitive_limit`; what it does not use
goes back to direct results.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from lexicon_server.errors import InvalidArgument
from lexicon_server.models import MAX_RESPONSE_CHARS, RelationsResult
from lexicon_server.query.common import (
    GLOSS_CHARS,
    Cited,
    Cuts,
    check_allocation,
    check_limit,
    check_text,
    clip,
    corpus_language,
    fit_response,
    installed_entries,
    json_bound,
    normalize,
    resolve_headwords,
    round_robin,
    sense_handle,
    sources,
)
from lexicon_server.query.lookup import SenseRow, sense_rows
from lexicon_server.query.synonyms import MAX_SENSES_DEFAULT, sense_data

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.query.common import SourceTable

__all__ = ["ALIASES", "RELATIONS", "TRANSITIVE_RELATIONS", "relations", "relations_data"]

_Json = dict[str, Any]

# The relation names the corpus stores (docs/corpus-format.md): the Global WordNet LMF
# names the WordNet parsers emit, plus the ConceptNet relations the builder keeps.
RELATIONS = frozenset(
    {
        "hypernym",
        "hyponym",
        "instance_hypernym",
        "instance_hyponym",
        "antonym",
        "synonym",
        "similar",
        "also",
        "attribute",
        "entails",
        "causes",
        "verb_group",
        "derivation",
        "pertainym",
        "participle",
        "holo_member",
        "holo_part",
        "holo_substance",
        "mero_member",
        "mero_part",
        "mero_substance",
        "domain_topic",
        "domain_region",
        "exemplifies",
        "has_domain_topic",
        "has_domain_region",
        "is_exemplified_by",
        "related_to",
        "is_a",
        "part_of",
        "has_a",
        "used_for",
        "capable_of",
        "at_location",
        "derived_from",
        "etymologically_related_to",
        "similar_to",
    }
)
# Familiar spellings accepted for the stored names.
ALIASES = {
    "member_holonym": "holo_member",
    "part_holonym": "holo_part",
    "substance_holonym": "holo_substance",
    "member_meronym": "mero_member",
    "part_meronym": "mero_part",
    "substance_meronym": "mero_substance",
    "entailment": "entails",
    "cause": "causes",
    "domain_usage": "exemplifies",
    "has_domain_usage": "is_exemplified_by",
    "synonyms": "synonym",
    "antonyms": "antonym",
    "hypernyms": "hypernym",
    "hyponyms": "hyponym",
}
TRANSITIVE_RELATIONS = frozenset({"hypernym", "hyponym", "instance_hypernym", "instance_hyponym"})
_SENSE_CAP = MAX_SENSES_DEFAULT

_EDGE_SQL = (
    "SELECT id, relation, scope, src_synset_id, src_sense_id, src_term_id, dst_synset_id, "
    "dst_sense_id, dst_term_id, dst_language, dst_text, source_id FROM relations "
)


class _Edge(NamedTuple):
    """One stored relation row (a tuple: built straight from the cursor row)."""

    id: int
    relation: str
    scope: str
    src_synset: int | None
    src_sense: int | None
    src_term: int | None
    dst_synset: int | None
    dst_sense: int | None
    dst_term: int | None
    dst_language: str
    dst_text: str | None
    source_id: int


@dataclass(frozen=True)
class _Found:
    from_sense: SenseRow | None
    path: tuple[_Edge, ...]


def relations(
    corpus: Corpus,
    word: str,
    relation: str,
    language: str = "en",
    limit: int = 20,
    max_depth: int = 1,
    transitive_limit: int | None = None,
) -> RelationsResult:
    """Edges of type `relation` from `word`, at most `limit` in total."""
    data, bound = _relations_data(
        corpus, word, relation, language, limit, max_depth, transitive_limit
    )
    return fit_response(RelationsResult.model_validate(data), _drop_last, bound=bound)


def relations_data(
    corpus: Corpus,
    word: str,
    relation: str,
    language: str = "en",
    limit: int = 20,
    max_depth: int = 1,
    transitive_limit: int | None = None,
) -> _Json:
    """`relations(...).model_dump(mode="json")`, for the tool: the MCP SDK validates the
    structured content against `RelationsResult` itself, so an answer that surely fits
    the response budget skips the typed models (one validation instead of two)."""
    data, bound = _relations_data(
        corpus, word, relation, language, limit, max_depth, transitive_limit
    )
    if bound <= MAX_RESPONSE_CHARS:
        return data
    model = fit_response(RelationsResult.model_validate(data), _drop_last, bound=bound)
    return model.model_dump(mode="json")


def _relations_data(
    corpus: Corpus,
    word: str,
    relation: str,
    language: str,
    limit: int,
    max_depth: int,
    transitive_limit: int | None,
) -> tuple[_Json, int]:
    """The result as plain data (exactly as `RelationsResult` dumps it) and a safe upper
    bound of its serialised size."""
    word = check_text("word", word)
    language = corpus_language(corpus, "language", language)
    name = relation.strip().lower().replace("-", "_").replace(" ", "_")
    name = ALIASES.get(name, name)
    if name not in RELATIONS:
        raise InvalidArgument("relation", "one of " + ", ".join(sorted(RELATIONS)), relation)
    limit = check_limit("limit", limit)
    max_depth = check_limit("max_depth", max_depth, 1, 2)
    if max_depth == 2 and name not in TRANSITIVE_RELATIONS:
        raise InvalidArgument(
            "max_depth",
            "1 for this relation; 2 is offered for " + ", ".join(sorted(TRANSITIVE_RELATIONS)),
            max_depth,
        )
    allocation = check_allocation("transitive_limit", transitive_limit, limit)
    if max_depth == 1:
        allocation = 0
    conn = corpus.db(language, "lexical")
    table = sources(conn)
    cuts = Cuts()
    heads = resolve_headwords(conn, word, language)
    cited = Cited()
    cited.merge(heads.sources)
    # Only the senses inspected are read (a polysemous word has dozens more).
    senses = sense_rows(conn, heads.term_ids, _SENSE_CAP)

    # Direct edges, one list per source sense and a last one for term edges.
    per_group: list[list[_Found]] = []
    seen_targets: set[tuple[object, ...]] = set()
    from_sense_edges = _edges_from_senses(conn, senses, name)
    for row in senses:
        found: list[_Found] = []
        for edge in from_sense_edges.get(row.id, []):
            key = _target_key(edge)
            if key not in seen_targets:
                seen_targets.add(key)
                found.append(_Found(row, (edge,)))
        per_group.append(found)
    term_found: list[_Found] = []
    if heads.term_ids:
        marks = ",".join("?" * len(heads.term_ids))
        for edge in _edges(
            conn,
            f"WHERE src_term_id IN ({marks}) AND relation = ? "
            "ORDER BY COALESCE(weight, 0) DESC, id",
            (*heads.term_ids, name),
        ):
            key = _target_key(edge)
            if key not in seen_targets:
                seen_targets.add(key)
                term_found.append(_Found(None, (edge,)))
    per_group.append(term_found)

    # Two-edge expansion of the same relation from each direct synset target.
    transitive: list[_Found] = []
    if allocation:
        onward = _edges_from_synsets(
            conn, (f.path[0].dst_synset for group in per_group for f in group), name
        )
        for group in per_group:
            for first in group:
                edge = first.path[0]
                if edge.dst_synset is None:
                    continue
                for second in onward.get(edge.dst_synset, ()):
                    key = _target_key(second)
                    if key not in seen_targets:
                        seen_targets.add(key)
                        transitive.append(_Found(first.from_sense, (edge, second)))

    transitive_take = min(allocation, len(transitive))
    direct_takes = round_robin([len(g) for g in per_group], limit - transitive_take)
    chosen: list[_Found] = []
    for group, take in zip(per_group, direct_takes, strict=True):
        chosen.extend(group[:take])
    direct_total = sum(len(g) for g in per_group)
    if direct_total > len(chosen):
        cuts.add(f"direct results: {direct_total - len(chosen)} more beyond limit={limit}")
    if len(transitive) > transitive_take:
        cuts.add(
            f"transitive results: {len(transitive) - transitive_take} more beyond "
            f"transitive_limit={allocation}"
        )
    direct_count = len(chosen)
    chosen.extend(transitive[:transitive_take])

    render = _Renderer(corpus, conn, language, table, cited, chosen)
    results = [render.result(found) for found in chosen]
    cited_sources = cited.sources()
    budget = cuts.budget()
    data: _Json = {
        "word": word,
        "language": language,
        "relation": name,
        "dataset_version": corpus.dataset_version,
        "found": heads.found,
        "resolutions": [r.model_dump(mode="json") for r in heads.resolutions],
        "max_depth": max_depth,
        "transitive_limit": allocation,
        "count": len(results),
        "direct_count": direct_count,
        "transitive_count": len(results) - direct_count,
        "senses_inspected": len(senses),
        "results": results,
        "sources": cited_sources,
        "budget": {"max_chars": budget.max_chars, "cut": list(budget.cut)},
    }
    chars = render.chars + len(word) + len(corpus.dataset_version)
    chars += sum(len(r.form) + len(r.lemma) + len(r.rule or "") for r in heads.resolutions)
    chars += sum(len(note) for note in budget.cut)
    chars += sum(sum(map(len, info.values())) for info in cited_sources.values())
    items = render.items + len(heads.resolutions) + len(cited_sources) + 3
    return data, json_bound(items=items) + 6 * chars


def _edges(conn: sqlite3.Connection, where: str, params: tuple[object, ...]) -> list[_Edge]:
    return [_Edge(*row) for row in conn.execute(_EDGE_SQL + where, params)]


def _edges_from_synsets(
    conn: sqlite3.Connection, synsets: Iterable[int | None], name: str
) -> dict[int, list[_Edge]]:
    """Each synset's own edges of relation `name`, in id order, in one query."""
    wanted = sorted({s for s in synsets if s is not None})
    out: dict[int, list[_Edge]] = {}
    if not wanted:
        return out
    marks = ",".join("?" * len(wanted))
    for edge in _edges(
        conn,
        f"WHERE src_synset_id IN ({marks}) AND relation = ? AND scope = 'synset' ORDER BY id",
        (*wanted, name),
    ):
        out.setdefault(edge.src_synset or 0, []).append(edge)
    return out


def _edges_from_senses(
    conn: sqlite3.Connection, senses: list[SenseRow], name: str
) -> dict[int, list[_Edge]]:
    """Each sense's own (lexical) edges, then its synset's edges: two queries in all."""
    out: dict[int, list[_Edge]] = {row.id: [] for row in senses}
    if not senses:
        return out
    marks = ",".join("?" * len(senses))
    for edge in _edges(
        conn,
        f"WHERE src_sense_id IN ({marks}) AND relation = ? ORDER BY id",
        (*(row.id for row in senses), name),
    ):
        out[edge.src_sense or 0].append(edge)
    synsets: dict[int, list[int]] = {}
    for row in senses:
        if row.synset_id is not None:
            synsets.setdefault(row.synset_id, []).append(row.id)
    if synsets:
        smarks = ",".join("?" * len(synsets))
        for edge in _edges(
            conn,
            f"WHERE src_synset_id IN ({smarks}) AND relation = ? AND scope = 'synset' ORDER BY id",
            (*synsets, name),
        ):
            for sense_id in synsets.get(edge.src_synset or 0, []):
                out[sense_id].append(edge)
    return out


def _target_key(edge: _Edge) -> tuple[object, ...]:
    if edge.dst_synset is not None:
        return ("synset", edge.dst_synset)
    if edge.dst_sense is not None:
        return ("sense", edge.dst_sense)
    if edge.dst_term is not None:
        return ("term", edge.dst_term)
    return ("text", edge.dst_language, normalize(edge.dst_text or ""))


class _Renderer:
    """Turns stored edges into results. The words and glosses at every end of the chosen
    paths are read up front, a few batched queries per call instead of one or two per
    end (a depth-2 answer for a common word names dozens of synsets)."""

    def __init__(
        self,
        corpus: Corpus,
        conn: sqlite3.Connection,
        language: str,
        table: SourceTable,
        cited: Cited,
        chosen: list[_Found],
    ) -> None:
        self.corpus = corpus
        self.language = language
        self.table = table
        self.cited = cited
        # Free-text characters and objects rendered so far, for the size bound.
        self.chars = 0
        self.items = 0
        synsets: set[int] = set()
        senses: set[int] = set()
        terms: set[int] = set()
        for found in chosen:
            for e in found.path:
                for ids, src, dst in (
                    (synsets, e.src_synset, e.dst_synset),
                    (senses, e.src_sense, e.dst_sense),
                    (terms, e.src_term, e.dst_term),
                ):
                    if src is not None:
                        ids.add(src)
                    if dst is not None:
                        ids.add(dst)
        self._synsets = _read_synsets(conn, synsets)
        self._senses = _read_senses(conn, senses)
        self._terms = _read_terms(conn, terms)
        # Plain targets (no synset, no sense): whether each has its own entry, one
        # batched probe per target language.
        by_language: dict[str, set[str]] = {}
        for found in chosen:
            last = found.path[-1]
            if last.dst_synset is None and last.dst_sense is None:
                by_language.setdefault(last.dst_language, set()).add(
                    normalize(self._plain_text(last))
                )
        self._installed = {
            (lang, norm)
            for lang, norms in by_language.items()
            for norm in installed_entries(corpus, lang, norms)
        }

    def result(self, found: _Found) -> _Json:
        path = [self.edge(e) for e in found.path]
        last = found.path[-1]
        from_sense = (
            sense_data(self.language, found.from_sense, self.table, self.cited)
            if found.from_sense
            else None
        )
        if from_sense is not None:
            self.chars += len(from_sense["gloss"]) + len(from_sense["external_id"] or "")
            self.chars += len(from_sense["pos"])
            self.items += 1
        self.items += 2
        return {
            "relation": last.relation,
            "relation_scope": "direct" if len(found.path) == 1 else "transitive",
            "distance": 1 if len(found.path) == 1 else 2,
            "sense_scope": {"synset": "synset", "sense": "sense"}.get(
                found.path[0].scope, "unsensed"
            ),
            "from_sense": from_sense,
            "target": self.target(last),
            "path": path,
            "source": self.cited.key(self.table, last.source_id),
        }

    def synset(self, synset_id: int) -> tuple[str, list[str], str]:
        return self._synsets.get(synset_id, ("", [], ""))

    def sense(self, sense_id: int) -> tuple[str, str]:
        return self._senses.get(sense_id, ("", ""))

    def term(self, term_id: int) -> str:
        return self._terms.get(term_id, "")

    def _plain_text(self, e: _Edge) -> str:
        return self.term(e.dst_term) if e.dst_term is not None else (e.dst_text or "")

    def ends(
        self, synset: int | None, sense: int | None, term: int | None
    ) -> tuple[str, str | None]:
        if synset is not None:
            ext, words, _ = self.synset(synset)
            return ", ".join(words), ext
        if sense is not None:
            return self.sense(sense)[0], sense_handle(self.language, sense)
        if term is not None:
            return self.term(term), None
        return "", None

    def edge(self, e: _Edge) -> _Json:
        from_text, from_id = self.ends(e.src_synset, e.src_sense, e.src_term)
        if e.dst_synset is None and e.dst_sense is None and e.dst_term is None:
            to_text, to_id = e.dst_text or "", None
        else:
            to_text, to_id = self.ends(e.dst_synset, e.dst_sense, e.dst_term)
        self.chars += len(from_text) + len(from_id or "") + len(to_text) + len(to_id or "")
        self.items += 1
        return {
            "relation": e.relation,
            "scope": e.scope,
            "from_text": from_text,
            "from_id": from_id,
            "to_text": to_text,
            "to_id": to_id,
            "to_language": e.dst_language,
            "source": self.cited.key(self.table, e.source_id),
        }

    def target(self, e: _Edge) -> _Json:
        synset: str | None = None
        sense_id: str | None = None
        gloss: str | None = None
        if e.dst_synset is not None:
            synset, words, full = self.synset(e.dst_synset)
            text = ", ".join(words)
            words = list(words)  # the cached list is shared by every result naming it
            gloss = clip(full, GLOSS_CHARS)
            installed = True
        elif e.dst_sense is not None:
            text, full = self.sense(e.dst_sense)
            words = [text]
            sense_id = sense_handle(self.language, e.dst_sense)
            gloss = clip(full, GLOSS_CHARS)
            installed = True
        else:
            text = self._plain_text(e)
            words = [text]
            installed = (e.dst_language, normalize(text)) in self._installed
        self.chars += 2 * len(text) + len(gloss or "") + len(synset or "") + len(sense_id or "")
        return {
            "text": text,
            "words": words,
            "language": e.dst_language,
            "synset": synset,
            "sense_id": sense_id,
            "gloss": gloss,
            "target_entry_installed": installed,
        }


def _marks(ids: set[int]) -> tuple[str, list[int]]:
    wanted = sorted(ids)
    return ",".join("?" * len(wanted)), wanted


def _read_synsets(conn: sqlite3.Connection, ids: set[int]) -> dict[int, tuple[str, list[str], str]]:
    """external id, member words (sense order) and gloss of each synset."""
    if not ids:
        return {}
    marks, wanted = _marks(ids)
    words: dict[int, list[str]] = {i: [] for i in wanted}
    for synset_id, text in conn.execute(
        "SELECT s.synset_id, t.text FROM senses s JOIN entries e ON e.id = s.entry_id "
        f"JOIN terms t ON t.id = e.term_id WHERE s.synset_id IN ({marks}) ORDER BY s.id",
        wanted,
    ):
        words[synset_id].append(text)
    return {
        synset_id: (ext, words[synset_id], gloss)
        for synset_id, ext, gloss in conn.execute(
            f"SELECT id, external_id, gloss FROM synsets WHERE id IN ({marks})", wanted
        )
    }


def _read_senses(conn: sqlite3.Connection, ids: set[int]) -> dict[int, tuple[str, str]]:
    """headword and gloss of each sense."""
    if not ids:
        return {}
    marks, wanted = _marks(ids)
    return {
        sense_id: (text, gloss)
        for sense_id, text, gloss in conn.execute(
            "SELECT s.id, t.text, s.gloss FROM senses s JOIN entries e ON e.id = s.entry_id "
            f"JOIN terms t ON t.id = e.term_id WHERE s.id IN ({marks})",
            wanted,
        )
    }


def _read_terms(conn: sqlite3.Connection, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    marks, wanted = _marks(ids)
    return dict(conn.execute(f"SELECT id, text FROM terms WHERE id IN ({marks})", wanted))


def _drop_last(result: RelationsResult, _excess: int) -> tuple[RelationsResult, str] | None:
    if not result.results:
        return None
    kept = result.results[:-1]
    note = "results: dropped the last result to stay within the response budget"
    direct = sum(1 for r in kept if r.distance == 1)
    named = {r.source for r in result.resolutions}
    for r in kept:
        named.add(r.source)
        named.update(e.source for e in r.path)
        if r.from_sense is not None:
            named.add(r.from_sense.source)
    update = {
        "sources": {key: info for key, info in result.sources.items() if key in named},
        "results": kept,
        "count": len(kept),
        "direct_count": direct,
        "transitive_count": len(kept) - direct,
        "budget": result.budget.model_copy(update={"cut": [*result.budget.cut, note]}),
    }
    return result.model_copy(update=update), note
