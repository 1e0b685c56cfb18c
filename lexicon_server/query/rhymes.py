"""rhymes: perfect rhymes of an English word ranked by word frequency, near rhymes by how
close they sound and then by frequency.

Every pronunciation of the query counts. A perfect rhyme shares a query pronunciation's
rhyme part exactly; a near rhyme's rhyme part differs from one by exactly one ARPAbet
token inserted, deleted or substituted, and no pronunciation of it rhymes perfectly.

Speed comes from the writer's id order and its precomputed tables: word ids are assigned
by descending frequency and pronunciation ids follow them, so the perfect-rhyme table
(`rhyme_members`) and the `near_rhymes` table yield candidates already ranked, one index
range per query rhyme. The query reads them lazily and stops once it has `limit + 1`
words, instead of collecting and sorting every match. Most queries do not even walk a
range: a word with one rhyme part and a small limit reads that part's rhyme document,
the same walk done by the builder (lexicon_server/corpus/rhyme_docs.py).

Names and rare spellings (`words.is_word` 0, numbered after every dictionary word) are
left out unless `vocabulary` is 'all', which lists them last with a label; a spelling
`pattern` (query/spelling_pattern.py) drops the candidates it refuses before `limit`
counts them, so a document serves it only when it holds every candidate.

`rhymes` assembles the answer as plain JSON-ready data (exactly what the model dumps)
and validates it once into a `RhymesResult`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from lexicon_server.corpus import rhyme_docs
from lexicon_server.corpus.connection import kept
from lexicon_server.corpus.rhyme_walk import EDITS, SOUND_CLASSES, Candidate, candidates
from lexicon_server.corpus.rows.facts import SourceTable, meta_value, sources
from lexicon_server.corpus.rows.wordplay import (
    dictionary_words_end,
    folded_pronunciations,
    rhyme_document,
    spelled_pronunciations,
    words_spelled,
)
from lexicon_server.corpus.wordplay_keys import fold
from lexicon_server.errors import InvalidArgument
from lexicon_server.query.arguments import check_limit, check_text
from lexicon_server.query.provenance import Cited
from lexicon_server.query.spelling_pattern import SpellingFilter, spelling_filter
from lexicon_server.query.wordplay_models import RhymesResult

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

__all__ = [
    "MAX_SYLLABLES",
    "VOCABULARIES",
    "QueryWord",
    "RhymeIndex",
    "query_words",
    "rhyme_index",
    "rhymes",
]

_MODES: dict[str, Literal["perfect", "near"]] = {"perfect": "perfect", "near": "near"}
MAX_SYLLABLES = 20
LANGUAGE = "en"

VOCABULARIES = ("dictionary", "all")


@dataclass(frozen=True, slots=True)
class QueryWord:
    ids: frozenset[int]  # the query's words that have pronunciations (the only candidates)
    pronunciations: tuple[dict[str, object], ...]  # QueryPronunciation fields
    rhymes: tuple[tuple[str, int], ...]  # distinct (rhyme part, rhymes.id), first seen first


class RhymeIndex:
    """Per-connection state, read once: the database's source table, whether it holds
    rhyme documents, and the last dictionary word's id (every word id above it is a name
    or a rare spelling)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.table: SourceTable = sources(conn)
        self.docs = meta_value(conn, rhyme_docs.META_KEY) == rhyme_docs.VERSION
        self.words_end = dictionary_words_end(conn)

    def source(self, cited: Cited, source_id: int) -> str:
        """The key of a source id of this index, cited."""
        return cited.key(self.table, source_id)


def rhyme_index(conn: sqlite3.Connection) -> RhymeIndex:
    """The connection's RhymeIndex, made once and kept with it."""
    return kept(conn).fact(RhymeIndex, lambda: RhymeIndex(conn))


def _spellings(text: str) -> tuple[str, ...]:
    # words.text keeps the published case; these cover CMUdict's lower case and WordNet's
    # capitalised names without a fold index, and the fold itself covers NFKC forms
    # ('ｃａｔ', 'ﬁne'), as spelling_prons does.
    variants = (text, fold(text), text.lower(), text.capitalize(), text.title(), text.upper())
    return tuple(dict.fromkeys(variants))


def query_words(conn: sqlite3.Connection, text: str) -> tuple[list[tuple[int, str, int]], str]:
    """(id, text, source_id) of the words spelled like `text` ignoring case, and its fold."""
    folded = fold(text)
    spellings = _spellings(text)
    rows = words_spelled(conn, spellings)
    return [row for row in rows if fold(row[1]) == folded], folded


def _query_pronunciations(
    conn: sqlite3.Connection, index: RhymeIndex, text: str
) -> tuple[QueryWord, str]:
    """The query's word ids and its distinct pronunciations, in one statement.

    Sorted here rather than by SQL (a temp B-tree costs more than sorting a few tuples):
    pron ids follow (word id, variant).
    """
    folded = fold(text)
    if index.docs:
        rows = folded_pronunciations(conn, folded)
    else:
        spellings = _spellings(text)
        rows = spelled_pronunciations(conn, spellings)
        rows = sorted(row for row in rows if fold(row[2]) == folded)
    ids: set[int] = set()
    seen: dict[str, dict[str, object]] = {}
    rhymes: dict[str, int] = {}
    for _pron_id, word_id, _word, variant, phones, rhyme, syllables, rhyme_id in rows:
        ids.add(word_id)
        if phones not in seen:
            seen[phones] = {
                "variant": variant,
                "phones": phones,
                "rhyme": rhyme,
                "syllables": syllables,
            }
            rhymes.setdefault(rhyme, rhyme_id)
    return QueryWord(frozenset(ids), tuple(seen.values()), tuple(rhymes.items())), folded


def _check(
    mode: str, limit: int, syllables: int | None, vocabulary: str
) -> tuple[Literal["perfect", "near"], bool]:
    """The checked mode and whether names and rare spellings are left out."""
    checked_mode = _MODES.get(mode)
    if checked_mode is None:
        raise InvalidArgument("mode", "'perfect' or 'near'", mode)
    check_limit("limit", limit)
    if syllables is not None:
        check_limit("syllables", syllables, 1, MAX_SYLLABLES)
    if vocabulary not in VOCABULARIES:
        raise InvalidArgument("vocabulary", "'dictionary' (the default) or 'all'", vocabulary)
    return checked_mode, vocabulary != "all"


def rhymes(
    corpus: Corpus,
    word: str,
    mode: str = "perfect",
    limit: int = 20,
    syllables: int | None = None,
    pattern: str | None = None,
    vocabulary: str = "dictionary",
) -> RhymesResult:
    """Rhymes of `word` (see the module docstring), most frequent first; only those
    spelled like `pattern` when one is given, before `limit` is applied; dictionary
    words only unless `vocabulary` is 'all'."""
    text = check_text("word", word)
    checked_mode, dictionary_only = _check(mode, limit, syllables, vocabulary)
    spelled = spelling_filter(pattern)
    conn = corpus.db(LANGUAGE, "wordplay")
    index = rhyme_index(conn)
    query, folded = _query_pronunciations(conn, index, text)
    cited = Cited()
    walk = _Walk(index, cited, limit, dictionary_only, spelled)
    answer = None
    if index.docs and len(query.rhymes) == 1 and syllables is None:
        answer = _from_document(conn, walk, query.rhymes[0], folded, checked_mode)
    if answer is None:
        rows = candidates(
            conn,
            query.rhymes,
            checked_mode,
            syllables,
            query.ids,
            folded,
            index.words_end,
            dictionary_only,
        )
        answer = walk.shown(rows, len(query.rhymes) == 1)
    results, truncated = answer
    # Every result's pronunciation comes from one source (CMUdict) in practice: say it once.
    shared = {result["pronunciation_source"] for result in results}
    if len(shared) == 1:
        for result in results:
            del result["pronunciation_source"]
    data: dict[str, Any] = {
        "word": text,
        "language": LANGUAGE,
        "dataset_version": corpus.dataset_version,
        "mode": checked_mode,
    }
    if syllables is not None:
        data["syllables"] = syllables
    data["found"] = bool(query.pronunciations)
    data["query_pronunciations"] = list(query.pronunciations)
    data["truncated"] = truncated
    # Perfect rhymes come by frequency, near ones by sound class then frequency
    # (docs/tools.md); every rhyme is unsensed (the result model's default, left out).
    if len(shared) == 1:
        data["pronunciation_source"] = shared.pop()
    data["results"] = results
    data["sources"] = cited.sources()
    # `cut` is left out: nothing is ever cut (see the result model).
    return RhymesResult.model_validate(data)


def _from_document(
    conn: sqlite3.Connection,
    walk: _Walk,
    query_rhyme: tuple[str, int],
    folded: str,
    mode: str,
) -> tuple[list[dict[str, object]], bool] | None:
    """The answer from the query rhyme's document, or None when the document may end
    before the answer does (the caller then walks the tables)."""
    rhyme, rhyme_id = query_rhyme
    document = rhyme_document(conn, rhyme_id, mode)
    if document is None:
        return None
    more, words, stored = json.loads(document)
    if walk.dictionary_only and words < len(stored):
        stored, more = stored[:words], 0  # names and rare spellings come last
    # A document of CANDIDATES words, one of which may be the query's own, cannot decide
    # a larger limit, nor whether enough of its words match a spelling pattern.
    if more and (walk.limit >= len(stored) - 1 or walk.spelled is not None):
        return None
    if mode == "perfect":
        # A perfect document leaves out the rhyme part: it is the query's own.
        found = (
            (text, syl, zipf, phones, 0, spelling, pron, rhyme, rhyme, 0, int(at < words))
            for at, (text, syl, zipf, phones, spelling, pron) in enumerate(stored)
            if (text.lower() if text.isascii() else fold(text)) != folded
        )
    else:
        found = (
            (text, syl, zipf, phones, edit, spelling, pron, own, rhyme, cls, int(at < words))
            for at, (text, syl, zipf, phones, edit, spelling, pron, own, cls) in enumerate(stored)
            if (text.lower() if text.isascii() else fold(text)) != folded
        )
    return walk.shown(found, True)


@dataclass(frozen=True, slots=True)
class _Walk:
    """How one query turns candidates into results: its limit, vocabulary and pattern."""

    index: RhymeIndex
    cited: Cited
    limit: int
    dictionary_only: bool
    spelled: SpellingFilter | None

    def shown(
        self, walk: Iterable[Candidate], one_rhyme: bool
    ) -> tuple[list[dict[str, object]], bool]:
        """The first `limit` candidates of `walk` that are shown (dictionary words unless
        all are asked for, spelled like the pattern if any) as result dicts, and whether
        more exist.

        A result leaves out what it shares with the query or its other fields (see
        RhymeCandidate): the query's rhyme part when the query has only one, its own rhyme
        part when it is the query's, an identical edit, a spelling source that is the
        pronunciation's."""
        results: list[dict[str, object]] = []
        table = self.index.table
        cited = self.cited
        spelled = self.spelled
        for text, syl, zipf, phones, edit, spelling, pron, rhyme, query_rhyme, cls, is_word in walk:
            if (self.dictionary_only and not is_word) or (spelled and not spelled(text)):
                continue
            if len(results) == self.limit:
                return results, True
            result: dict[str, object] = {
                "word": text,
                "syllables": syl,
                "zipf": zipf,
                "phones": phones,
            }
            if rhyme != query_rhyme:
                result["rhyme"] = rhyme
            if not one_rhyme:
                result["query_rhyme"] = query_rhyme
            if edit:
                result["edit"] = EDITS[edit]
                result["sound"] = SOUND_CLASSES[cls]
            if not is_word:
                result["dictionary_word"] = False
            pronunciation = cited.key(table, pron)
            if spelling != pron:
                result["spelling_source"] = cited.key(table, spelling)
            result["pronunciation_source"] = pronunciation
            results.append(result)
        return results, False
