"""dictionary_synonyms: synonyms grouped by the source-native sense they belong to.

Sense-scoped candidates come from the word's own senses: the other members of each
sense's synset, and synonym edges the source ties to that sense. Unsensed candidates
(term-to-term edges such as ConceptNet's) form one extra group with its own allocation,
`unsensed_limit`; whatever that group does not use goes back to the sense groups.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from lexicon_server.corpus.rows.facts import (
    has_term_edges,
    sources,
)
from lexicon_server.corpus.rows.relations import (
    sense_synonyms,
    similar_synsets,
    term_synonyms,
)
from lexicon_server.corpus.rows.senses import SenseRow, SynsetMember, sense_rows, synset_members
from lexicon_server.corpus.rows.terms import term_norms
from lexicon_server.models import MAX_RESPONSE_CHARS, SynonymsResult
from lexicon_server.query.arguments import check_allocation, check_limit, word_and_language
from lexicon_server.query.budget import (
    GLOSS_CHARS,
    answer_bound,
    clip,
    drop_last_group,
    fitted,
    round_robin,
)
from lexicon_server.query.headwords import normalize, resolve_headwords
from lexicon_server.query.provenance import Cited, resolution_data
from lexicon_server.query.senses import MAX_SENSES_DEFAULT, sense_handle, sense_ref_data
from lexicon_server.query.spelling_pattern import SpellingFilter, spelling_filter
from lexicon_server.query.targets import installed_entries
from lexicon_server.query.thesaurus import thesaurus_handle, thesaurus_senses

if TYPE_CHECKING:
    import sqlite3

    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.corpus.rows.facts import SourceTable
    from lexicon_server.query.headwords import Headwords

__all__ = [
    "LIMIT_DEFAULT",
    "MAX_SENSES_SYNONYMS",
    "UNSENSED_DEFAULT",
    "synonyms",
]

# The defaults (docs/tools.md), chosen on the dev split of bench/devsets/synonyms/ within
# the answer-size aim (docs/benchmarks/synonyms.md): each sense group costs its sense's
# id, key and gloss, an unsensed term only its word, so the default answer shows the first
# senses and a long unsensed list (Moby's, best first), not one word for each of many senses.
LIMIT_DEFAULT = 35
# `max_senses` when the caller gives none and the unsensed list is long enough to fill the
# answer (else every sense, MAX_SENSES_DEFAULT).
MAX_SENSES_SYNONYMS = 2
# Candidates reserved for unsensed synonyms (Moby's list, ConceptNet's edges) when the
# caller gives no `unsensed_limit`; never more than `limit`.
UNSENSED_DEFAULT = 28
# With a spelling pattern, how many synonym rows of a spelling and similar synsets of a
# sense are read before filtering (a bound: Moby's longest lists are a few thousand).
_FILTERED_REACH = 5_000

# text, norm, relation, source_id, has_entry, sense_scope
_Cand = tuple[str, str, str, int, bool, str]
_Json = dict[str, Any]


def synonyms(
    corpus: Corpus,
    word: str,
    language: str = "en",
    limit: int = LIMIT_DEFAULT,
    max_senses: int | None = None,
    unsensed_limit: int | None = None,
    pattern: str | None = None,
) -> SynonymsResult:
    """Synonyms of `word`, at most `limit` in total, grouped by source sense; only those
    spelled like `pattern` when one is given (filtered before the limits deal them)."""
    word, language = word_and_language(corpus, word, language)
    limit = check_limit("limit", limit)
    if max_senses is not None:
        max_senses = check_limit("max_senses", max_senses)
    allocation = check_allocation("unsensed_limit", unsensed_limit, limit, default=UNSENSED_DEFAULT)
    spelled = spelling_filter(pattern)
    found = _read(corpus, word, language, limit, max_senses, allocation, spelled)
    sensed_take, unsensed, unsensed_take = _share(found.sensed, found.unsensed, allocation, limit)
    data, bound = _shape(corpus, found, sensed_take, unsensed, unsensed_take)
    return fitted(SynonymsResult, data, bound, drop_last_group, MAX_RESPONSE_CHARS)


class _Found(NamedTuple):
    """A word's senses and their candidates, as read (before the limits deal them)."""

    word: str
    language: str
    limit: int
    allocation: int
    max_senses: int
    heads: Headwords
    table: SourceTable
    cited: Cited
    cut: list[str]  # what the answer left out, for `budget.cut`
    senses: list[SenseRow]  # dictionary senses, then thesaurus meanings
    sensed: list[list[_Cand]]  # per sense
    tables: list[SourceTable]  # per sense: the table its source ids belong to
    handles: list[Callable[[str, int], str]]  # per sense: how it is referred to
    similar: dict[int, list[int]]
    unsensed: list[_Cand]
    unsensed_more: bool
    found: bool


def _read(
    corpus: Corpus,
    word: str,
    language: str,
    limit: int,
    max_senses: int | None,
    allocation: int,
    spelled: SpellingFilter | None,
) -> _Found:
    """Resolve `word`, read its senses and every candidate of the senses inspected, and
    its unsensed candidates; with a spelling filter, only the candidates it accepts."""
    conn = corpus.db(language, "lexical")
    table = sources(conn)
    cited = Cited()
    cut: list[str] = []
    heads = resolve_headwords(conn, word, language)
    cited.merge(heads.sources)
    all_senses = sense_rows(conn, heads.term_ids, entries=heads.entries)
    own = _own_norms(conn, heads, all_senses)
    # Enough unsensed rows to fill the allocation after the word's own spellings and what
    # the sense groups show (at most `limit`) are left out.
    wanted = allocation + limit + len(own) if allocation else 0
    unsensed, unsensed_more = _unsensed_candidates(
        corpus, conn, heads.term_ids, language, own, wanted, spelled
    )
    if max_senses is None:
        # The first senses and a long unsensed list, unless the list cannot fill its
        # allocation (a word Moby lacks, or none asked for): then every sense, as before.
        enough = 0 < allocation <= len(unsensed)
        max_senses = MAX_SENSES_SYNONYMS if enough else MAX_SENSES_DEFAULT
    senses = all_senses[:max_senses]
    if len(all_senses) > max_senses:
        cut.append(f"senses: inspected {max_senses} of {len(all_senses)} (max_senses)")
    # A filter may drop most candidates: then every similar synset is read, not `limit`.
    reach = limit if spelled is None else _FILTERED_REACH
    members, edges, similar = _sense_material(conn, senses, reach)
    sensed = [
        _spelled(
            _sense_candidates(row, own, heads.term_ids, members, edges, similar, reach), spelled
        )
        for row in senses
    ]
    tables = [table] * len(senses)
    handles: list[Callable[[str, int], str]] = [sense_handle] * len(senses)
    found = heads.found
    extra = thesaurus_senses(corpus, language, own, own)
    if extra is not None and extra.rows:
        # The language's MyThes meanings, after its dictionary senses (docs/thesauri.md).
        rows = extra.rows[:max_senses]
        senses = [*senses, *rows]
        sensed += [_spelled(extra.candidates[row.id], spelled) for row in rows]
        tables += [extra.table] * len(rows)
        handles += [thesaurus_handle] * len(rows)
        found = True
    return _Found(
        word, language, limit, allocation, max_senses, heads, table, cited, cut,
        senses, sensed, tables, handles, similar, unsensed, unsensed_more, found,
    )  # fmt: skip


def _spelled(candidates: list[_Cand], spelled: SpellingFilter | None) -> list[_Cand]:
    """The candidates whose text `spelled` accepts (all of them without a filter)."""
    return candidates if spelled is None else [c for c in candidates if spelled(c[0])]


def _share(
    sensed: list[list[_Cand]], unsensed: list[_Cand], allocation: int, limit: int
) -> tuple[list[int], list[_Cand], int]:
    """How many candidates each sense group shows, the unsensed candidates left once
    those are out, and how many of them show."""
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
    return sensed_take, unsensed, unsensed_take


def _shape(
    corpus: Corpus, found: _Found, sensed_take: list[int], unsensed: list[_Cand], unsensed_take: int
) -> tuple[_Json, int]:
    """The result as plain data (exactly as `SynonymsResult` dumps it) and a safe upper
    bound of its serialised size."""
    groups, chars, items = _sense_groups(found, sensed_take)
    cut, limit, allocation = found.cut, found.limit, found.allocation
    hidden = sum(len(c) - t for c, t in zip(found.sensed, sensed_take, strict=True))
    if hidden:
        # Similar synsets past the first `limit` of a sense are not read: a lower bound.
        unread = any(len(linked) > limit for linked in found.similar.values())
        at_least = "at least " if unread else ""
        cut.append(f"sense-scoped candidates: {at_least}{hidden} more beyond limit={limit}")
    more = found.unsensed_more or len(unsensed) > unsensed_take
    if unsensed_take:
        group, group_chars = _unsensed_group(found, unsensed[:unsensed_take], more)
        groups.append(group)
        chars += group_chars
        items += 2 + unsensed_take
    if more:
        # Only the first rows are read: past them the count is a lower bound.
        count = len(unsensed) - unsensed_take + (1 if found.unsensed_more else 0)
        at_least = "at least " if found.unsensed_more else ""
        cut.append(
            f"unsensed candidates: {at_least}{count} more beyond unsensed_limit={allocation}"
        )
    cited_sources = found.cited.sources()
    heads = found.heads
    data: _Json = {
        "word": found.word,
        "language": found.language,
        "dataset_version": corpus.dataset_version,
        "found": found.found,
    }
    resolutions = resolution_data(found.word, heads.resolutions)
    if resolutions is not None:
        data["resolutions"] = resolutions
    data |= {
        "senses_inspected": len(found.senses),
        "max_senses": found.max_senses,
        "unsensed_limit": allocation,
        "unsensed_returned": unsensed_take,
        "groups": groups,
        "sources": cited_sources,
    }
    if cut:  # else left out (see SynonymsResult)
        data["cut"] = cut
    version = corpus.dataset_version
    bound = answer_bound(chars, items, found.word, version, heads.resolutions, cut, cited_sources)
    return data, bound


def _sense_groups(found: _Found, sensed_take: list[int]) -> tuple[list[_Json], int, int]:
    """The sense groups that show a candidate, and their free-text characters and objects
    (for the size bound)."""
    chars = items = 0
    groups: list[_Json] = []
    key = found.cited.key
    for row, cands, take, group_table, make_handle in zip(
        found.senses, found.sensed, sensed_take, found.tables, found.handles, strict=True
    ):
        if take == 0:
            continue
        external_id, pos = row.external_id, row.pos
        gloss = clip(row.gloss, GLOSS_CHARS)
        sense_source = key(group_table, row.source_id)
        handle = make_handle(found.language, row.id)
        sense = sense_ref_data(handle, pos, gloss, sense_source)
        shown = cands[:take]
        chars += len(gloss) + len(external_id or "") + len(pos)
        chars += sum(len(c[0]) for c in shown)
        items += 2 + take
        scope = "sense" if row.synset_id is None else "synset"
        group: _Json = {"sense": sense, "sense_scope": scope}
        # What most of its candidates share is said once, on the group (SynonymGroup).
        common = Counter((key(group_table, c[3]), c[5], c[2]) for c in shown)
        source, candidate_scope, relation = common.most_common(1)[0][0]
        if source != sense_source:
            group["source"] = source
        if candidate_scope != scope:
            group["candidate_scope"] = candidate_scope
        if relation != "synset_member":
            group["relation"] = relation
        _candidates(
            group, [(c, key(group_table, c[3])) for c in shown], source, candidate_scope, relation
        )
        if len(cands) > take:
            group["truncated"] = True
        groups.append(group)
    return groups, chars, items


def _unsensed_group(found: _Found, shown: list[_Cand], more: bool) -> tuple[_Json, int]:
    """The unsensed group and its free-text characters. It names the source most of its
    terms share (Moby's), so each term is a bare word: that lets the default answer show
    more of them for its bytes."""
    key, table = found.cited.key, found.table
    counts = Counter(c[3] for c in shown)
    group_source = key(table, counts.most_common(1)[0][0])
    group: _Json = {"sense_scope": "unsensed", "source": group_source}
    _candidates(group, [(c, key(table, c[3])) for c in shown], group_source, "unsensed", "synonym")
    if more:
        group["truncated"] = True
    return group, sum(len(c[0]) for c in shown) + len(group_source)


_Edge = tuple[str, str | None, int, bool]  # text, norm, source_id, has_entry


def _own_norms(conn: sqlite3.Connection, heads: Headwords, senses: list[SenseRow]) -> set[str]:
    """The word's own spellings, which are never candidates: the query's norm and the norm
    of every headword that has senses (`terms.norm` is the builder's `normalize(text)`)."""
    own = {heads.norm}
    # An exact match found its terms by this very norm; lemmas reached through an
    # inflection or a suffix rule have their own.
    if senses and any(r.via != "exact" for r in heads.resolutions):
        own.update(term_norms(conn, {row.term_id for row in senses}))
    return own


def _sense_material(
    conn: sqlite3.Connection, senses: list[SenseRow], limit: int
) -> tuple[dict[int, tuple[SynsetMember, ...]], dict[int, list[_Edge]], dict[int, list[int]]]:
    """Synset members per synset, synonym edges per sense, and the synsets each adjective
    sense's synset is linked to as `similar` (all of them; members are read for the first
    `limit` only: no sense shows more candidates, and a head adjective such as 'large' has
    dozens)."""
    edges: dict[int, list[_Edge]] = {}
    if not senses:
        return {}, edges, {}
    synsets = {row.synset_id for row in senses if row.synset_id is not None}
    # WordNet's adjective clusters: a head adjective's synset ('happy') has no other
    # members, its near-synonyms ('blissful', 'halcyon') sit in satellite synsets linked
    # to it as `similar` (and each satellite to its head).
    adjectives = {row.synset_id for row in senses if row.pos == "adj"} - {None}
    similar = similar_synsets(conn, adjectives)  # type: ignore[arg-type]
    wanted = synsets.union(*(linked[:limit] for linked in similar.values()))
    members = synset_members(conn, wanted) if wanted else {}
    for sense_id, text, norm, source_id, has_entry in sense_synonyms(conn, (r.id for r in senses)):
        if text is not None:
            edges.setdefault(sense_id, []).append((text, norm, source_id, bool(has_entry)))
    return members, edges, similar


def _sense_candidates(
    row: SenseRow,
    own: set[str],
    own_terms: tuple[int, ...],
    members: dict[int, tuple[SynsetMember, ...]],
    edges: dict[int, list[_Edge]],
    similar: dict[int, list[int]],
    limit: int,
) -> list[_Cand]:
    """The sense's synonyms: its synset's other members, (adjectives) the members of the
    first `limit` synsets linked as similar, then the source's synonym edges of the sense."""
    out: list[_Cand] = []
    seen = set(own)
    if row.synset_id is not None:
        for term_id, text, norm, source_id in members.get(row.synset_id, ()):
            if term_id in own_terms:  # the word's own sense in this synset
                continue
            key = norm or normalize(text)
            if key not in seen:
                seen.add(key)
                out.append((text, key, "synset_member", source_id, True, "synset"))
    # WordNet's own near-synonyms before the thesaurus terms tied to the sense (Moby's),
    # which are many and less curated.
    for synset in similar.get(row.synset_id, ())[:limit]:  # type: ignore[arg-type]
        for _term_id, text, norm, source_id in members.get(synset, ()):
            key = norm or normalize(text)
            if key not in seen:
                seen.add(key)
                out.append((text, key, "similar", source_id, True, "synset"))
    for target, target_norm, source_id, has_entry in edges.get(row.id, ()):
        key = target_norm if target_norm is not None else normalize(target)
        if key not in seen:
            seen.add(key)
            out.append((target, key, "synonym", source_id, has_entry, "sense"))
    return out


def _unsensed_candidates(
    corpus: Corpus,
    conn: sqlite3.Connection,
    term_ids: tuple[int, ...],
    language: str,
    own: set[str],
    wanted: int,
    spelled: SpellingFilter | None,
) -> tuple[list[_Cand], bool]:
    """The word's first `wanted` unsensed synonyms, best weight first (merged over its
    spellings), and whether there are more than `wanted` (one more row is asked for).
    With a spelling filter, up to `_FILTERED_REACH` rows per spelling are read and those
    it accepts are the synonyms."""
    if not term_ids or not wanted or not has_term_edges(conn):
        return [], False
    rows: list[tuple[float, int, str, int]] = []
    any_more = False
    read = wanted + 1 if spelled is None else max(wanted + 1, _FILTERED_REACH)
    for term_id in term_ids:
        got = term_synonyms(conn, term_id, language, read)
        if spelled is not None:
            any_more = any_more or len(got) == read
            got = [row for row in got if row[0] is not None and spelled(row[0])]
        if len(got) > wanted:
            any_more = True
            got = got[:wanted]
        for text, source_id, weight in got:
            if text is not None:
                rows.append((-(weight if weight is not None else -1e9), len(rows), text, source_id))
    if len(term_ids) > 1:
        rows.sort()
        if len(rows) > wanted:
            any_more = True
            rows = rows[:wanted]
    found: list[tuple[str, str, int]] = []
    seen = set(own)
    for _, _, text, source_id in rows:
        key = normalize(text)
        if key in seen:
            continue
        seen.add(key)
        found.append((text, key, source_id))
    if not found:
        return [], any_more
    # Same-language targets: whether each has its own entry, in one batched probe.
    installed = installed_entries(corpus, language, (key for _, key, _ in found))
    cands = [
        (text, key, "synonym", source_id, key in installed, "unsensed")
        for text, key, source_id in found
    ]
    return cands, any_more


def _candidates(
    group: _Json,
    shown: list[tuple[_Cand, str]],
    group_source: str | None,
    scope: str,
    relation: str,
) -> None:
    """Fill `group`'s `candidates` (bare words) and `details` (what a candidate says that
    the group does not) from its (candidate, source key) pairs; the group's candidates are
    of `scope`, `relation` and `group_source` unless they say otherwise."""
    group["candidates"] = [row[0] for row, _ in shown]
    details = {}
    for row, source in shown:
        differs = _differs(row, source, group_source, scope, relation)
        if differs:
            details[row[0]] = differs
    if details:
        group["details"] = details


def _differs(
    row: Sequence[Any], source: str, group_source: str | None, scope: str, relation: str
) -> _Json:
    """What one candidate (text, _, relation, _, installed, scope) says that its group does
    not (see SynonymCandidate); empty when nothing."""
    candidate: _Json = {}
    if row[5] != scope:
        candidate["sense_scope"] = row[5]
    if row[2] != relation:
        candidate["relation"] = row[2]
    if not row[4]:
        candidate["target_entry_installed"] = False
    if source != group_source:
        candidate["source"] = source
    return candidate
