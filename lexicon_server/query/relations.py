"""dictionary_relations: directed lexical relations of a word, with their provenance.

Direct edges (`relation_scope="direct"`, `distance=1`) come from the word's senses
(synset and sense pointers) and from the word itself (unsensed, term-to-term edges).
For hypernyms and hyponyms, `max_depth=2` adds a bounded two-edge expansion of the same
relation (`relation_scope="transitive"`, `distance=2`) whose `path` holds both edges;
a direct result is itself its one edge and has no `path`. Each result names the word's
sense it starts from by id; the answer's `senses` describes each of those senses once.
The transitive class has its own allocation, `transitive_limit`; what it does not use
goes back to direct results. Reading and rendering the stored edges is
`query.relation_edges`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lexicon_server.corpus.rows.facts import (
    ALL_RELATIONS,
    has_term_edges,
    relations_stored,
    sources,
)
from lexicon_server.corpus.rows.relations import edges_from_senses, edges_from_synsets, term_edges
from lexicon_server.corpus.rows.senses import sense_rows
from lexicon_server.errors import InvalidArgument
from lexicon_server.models import MAX_RESPONSE_CHARS, RelationsResult
from lexicon_server.query.arguments import check_allocation, check_limit, word_and_language
from lexicon_server.query.budget import answer_bound, fitted, round_robin
from lexicon_server.query.headwords import resolve_headwords
from lexicon_server.query.provenance import Cited, resolution_data
from lexicon_server.query.relation_edges import (
    Found,
    Renderer,
    clear_synset_caches,
    target_key,
)
from lexicon_server.query.senses import MAX_SENSES_DEFAULT

if TYPE_CHECKING:
    import sqlite3

    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.corpus.rows.relations import Edge
    from lexicon_server.corpus.rows.senses import SenseRow

__all__ = [
    "ALIASES",
    "RELATIONS",
    "TRANSITIVE_RELATIONS",
    "clear_synset_caches",
    "relations",
]

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


def relations(
    corpus: Corpus,
    word: str,
    relation: str,
    language: str = "en",
    limit: int = 20,
    max_depth: int = 1,
    transitive_limit: int | None = None,
    source_ids: bool = False,
) -> RelationsResult:
    """Edges of type `relation` from `word`, at most `limit` in total; `source_ids` adds
    each target's synset id (the edges of a two-step path always name theirs)."""
    word, language = word_and_language(corpus, word, language)
    name = _relation_name(relation)
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
    heads = resolve_headwords(conn, word, language)
    # Only the senses inspected are read (a polysemous word has dozens more).
    senses = sense_rows(conn, heads.term_ids, _SENSE_CAP, heads.entries)
    seen: set[object] = set()
    per_group = _direct(conn, heads.term_ids, senses, name, seen)
    transitive = _transitive(conn, per_group, name, seen) if allocation else []
    cut: list[str] = []  # what the answer left out, for its `cut`
    chosen, _ = _choose(per_group, transitive, allocation, limit, cut)
    cited = Cited()
    cited.merge(heads.sources)
    render = Renderer(corpus, conn, language, name, sources(conn), cited, chosen, source_ids)
    results = [render.result(found) for found in chosen]
    data: _Json = {"word": word, "language": language, "relation": name}
    if not results and name not in relations_stored(conn, ALL_RELATIONS):
        data["relation_in_data"] = False  # else left out: true, the default
    data |= {"dataset_version": corpus.dataset_version, "found": heads.found}
    resolutions = resolution_data(word, heads.resolutions)
    if resolutions is not None:
        data["resolutions"] = resolutions
    _counts(data, allocation, results, len(senses))
    data.update(_described(render.senses))
    data["sources"] = cited_sources = cited.sources()
    if cut:  # else left out (see RelationsResult)
        data["cut"] = cut
    version = corpus.dataset_version
    bound = answer_bound(
        render.chars, render.items, word, version, heads.resolutions, cut, cited_sources
    )
    return fitted(RelationsResult, data, bound, _drop_last, MAX_RESPONSE_CHARS)


def _relation_name(relation: str) -> str:
    """The stored name of `relation` (a familiar spelling accepted), or InvalidArgument."""
    name = relation.strip().lower().replace("-", "_").replace(" ", "_")
    name = ALIASES.get(name, name)
    if name not in RELATIONS:
        raise InvalidArgument("relation", "one of " + ", ".join(sorted(RELATIONS)), relation)
    return name


def _unseen(edge: Edge, seen: set[object]) -> bool:
    """Whether `edge` reaches a target no earlier result reached (and now one has)."""
    key = target_key(edge)
    if key in seen:
        return False
    seen.add(key)
    return True


def _direct(
    conn: sqlite3.Connection,
    term_ids: tuple[int, ...],
    senses: list[SenseRow],
    name: str,
    seen: set[object],
) -> list[list[Found]]:
    """Direct edges, one list per source sense and a last one for term edges."""
    per_group: list[list[Found]] = []
    by_sense, by_synset = edges_from_senses(conn, senses, name)
    for row in senses:
        found: list[Found] = []
        for edges in (by_sense.get(row.id), by_synset.get(row.synset_id)):  # type: ignore[arg-type]
            found += [(row, (edge,)) for edge in edges or () if _unseen(edge, seen)]
        per_group.append(found)
    term_found: list[Found] = []
    if term_ids and has_term_edges(conn):
        term_found = [
            (None, (edge,)) for edge in term_edges(conn, term_ids, name) if _unseen(edge, seen)
        ]
    per_group.append(term_found)
    return per_group


def _transitive(
    conn: sqlite3.Connection, per_group: list[list[Found]], name: str, seen: set[object]
) -> list[Found]:
    """Two-edge expansion of the same relation from each direct synset target."""
    transitive: list[Found] = []
    onward = edges_from_synsets(
        conn, {p[0].dst_synset_id for group in per_group for _, p in group}, name
    )
    for group in per_group:
        for from_sense, (edge,) in group:
            if edge.dst_synset_id is None:
                continue
            for second in onward.get(edge.dst_synset_id, ()):
                if _unseen(second, seen):
                    transitive.append((from_sense, (edge, second)))
    return transitive


def _choose(
    per_group: list[list[Found]],
    transitive: list[Found],
    allocation: int,
    limit: int,
    cut: list[str],
) -> tuple[list[Found], int]:
    """The results shown (direct ones dealt round-robin over the groups, then the
    transitive ones) and how many are direct; what is left out goes in `cut`."""
    transitive_take = min(allocation, len(transitive))
    direct_takes = round_robin([len(g) for g in per_group], limit - transitive_take)
    chosen: list[Found] = []
    for group, take in zip(per_group, direct_takes, strict=True):
        chosen.extend(group[:take])
    direct_total = sum(len(g) for g in per_group)
    if direct_total > len(chosen):
        cut.append(f"direct results: {direct_total - len(chosen)} more beyond limit={limit}")
    if len(transitive) > transitive_take:
        cut.append(
            f"transitive results: {len(transitive) - transitive_take} more beyond "
            f"transitive_limit={allocation}"
        )
    direct_count = len(chosen)
    chosen.extend(transitive[:transitive_take])
    return chosen, direct_count


def _counts(data: _Json, allocation: int, results: list[_Json], inspected: int) -> None:
    """The result's counts, in the model's order; zero counts at depth 1 are left out
    (see RelationsResult)."""
    if allocation:
        data["transitive_limit"] = allocation
    data["senses_inspected"] = inspected
    data["results"] = results


def _described(described: dict[str, _Json]) -> _Json:
    """`sense_source` and `senses`: said once, the first described sense's source, on the
    result; a sense names its own only where it differs, and its id is its key in
    `senses`."""
    sense_source = next(iter(described.values()))["source"] if described else None
    lean_senses = {
        handle: {k: v for k, v in ref.items() if k != "id" and (k != "source" or v != sense_source)}
        for handle, ref in described.items()
    }
    return {"senses": lean_senses} if sense_source is None else {
        "sense_source": sense_source, "senses": lean_senses
    }  # fmt: skip


def _drop_last(result: RelationsResult, _excess: int) -> tuple[RelationsResult, str] | None:
    if not result.results:
        return None
    kept = result.results[:-1]
    note = "results: dropped the last result to stay within the response budget"
    named = {r.source for r in result.resolutions or ()}
    senses = {r.from_sense for r in kept if r.from_sense is not None}
    for r in kept:
        named.add(r.source)
        named.update(e.source for e in r.path)
    named.update(
        ref.source or result.sense_source for key, ref in result.senses.items() if key in senses
    )
    named.discard(None)
    update = {
        "senses": {key: ref for key, ref in result.senses.items() if key in senses},
        "sources": {key: info for key, info in result.sources.items() if key in named},
        "results": kept,
        "cut": [*result.cut, note],
    }
    return result.model_copy(update=update), note
