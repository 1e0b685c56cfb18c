"""rhymes: perfect and near rhymes of an English word, ranked by word frequency.

Every pronunciation of the query counts. A perfect rhyme shares a query pronunciation's
rhyme part exactly; a near rhyme's rhyme part differs from one by exactly one ARPAbet
token inserted, deleted or substituted, and no pronunciation of it rhymes perfectly.

Speed comes from the writer's id order: word ids are assigned by descending frequency
and pronunciation ids follow them, so every index walked here yields candidates already
ranked. The query merges a few such ordered streams and stops once it has `limit + 1`
words, instead of collecting and sorting every match.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from lexicon_server.errors import InvalidArgument
from lexicon_server.models import MAX_RESPONSE_CHARS, Budget
from lexicon_server.query.common import check_limit, check_text, sources
from lexicon_server.query.wordplay_keys import deletion_keys, fold, substitution_keys
from lexicon_server.query.wordplay_models import (
    Provenance,
    QueryPronunciation,
    RhymesResult,
)

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

__all__ = [
    "MAX_SYLLABLES",
    "RhymeIndex",
    "query_words",
    "rhyme_index",
    "rhymes",
]

_BUDGET = Budget(max_chars=MAX_RESPONSE_CHARS)
_MODES: dict[str, Literal["perfect", "near"]] = {"perfect": "perfect", "near": "near"}
MAX_SYLLABLES = 20
LANGUAGE = "en"

# Columns every candidate stream yields, pron id first (the merge key).
# The key streams select k.pron_id rather than p.id: the same value, but only that
# spelling lets SQLite see the primary key already delivers the ORDER BY (no temp B-tree).
_COLUMNS = "p.word_id, p.syllables, p.phones, p.rhyme, w.text, w.zipf, w.source_id, p.source_id"
_PERFECT = (
    f"SELECT p.id, {_COLUMNS}, ?, ? FROM prons p JOIN words w ON w.id = p.word_id WHERE p.rhyme = ?"
)
_KEYED = (
    f"SELECT k.pron_id, {_COLUMNS}, ?, ? FROM near_keys k JOIN prons p ON p.id = k.pron_id "
    "JOIN words w ON w.id = p.word_id WHERE k.kind = ? AND k.key = ?"
)

Row = tuple[int, int, int, str, str, str, float, int, int, str, str]


@dataclass(frozen=True, slots=True)
class QueryWord:
    ids: frozenset[int]
    pronunciations: tuple[QueryPronunciation, ...]


class RhymeIndex:
    """Per-connection helpers: source provenance objects built once and shared."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        table = sources(conn)
        self.spelling = {sid: Provenance(fact="spelling", source=ref) for sid, ref in table.items()}
        self.pronunciation = {
            sid: Provenance(fact="pronunciation", source=ref) for sid, ref in table.items()
        }
        self._provenance: dict[tuple[int, int], list[Provenance]] = {}

    def provenance(self, spelling_source: int, pron_source: int) -> list[Provenance]:
        key = (spelling_source, pron_source)
        found = self._provenance.get(key)
        if found is None:
            found = [self.spelling[spelling_source], self.pronunciation[pron_source]]
            self._provenance[key] = found
        return found


_lock = threading.Lock()
# Keyed by id(conn); the value keeps the connection alive so its id cannot be reused.
_indexes: dict[int, RhymeIndex] = {}


def rhyme_index(conn: sqlite3.Connection) -> RhymeIndex:
    index = _indexes.get(id(conn))
    if index is None or index.conn is not conn:
        index = RhymeIndex(conn)
        with _lock:
            _indexes[id(conn)] = index
    return index


def _spellings(text: str) -> tuple[str, ...]:
    # words.text keeps the published case; these cover CMUdict's lower case and WordNet's
    # capitalised names without a fold index.
    return tuple(dict.fromkeys((text, text.lower(), text.capitalize(), text.title(), text.upper())))


def query_words(conn: sqlite3.Connection, text: str) -> tuple[list[tuple[int, str, int]], str]:
    """(id, text, source_id) of the words spelled like `text` ignoring case, and its fold."""
    folded = fold(text)
    spellings = _spellings(text)
    marks = ",".join("?" * len(spellings))
    rows = conn.execute(
        f"SELECT id, text, source_id FROM words WHERE text IN ({marks}) ORDER BY id", spellings
    ).fetchall()
    return [row for row in rows if fold(row[1]) == folded], folded


def _query_pronunciations(conn: sqlite3.Connection, text: str) -> tuple[QueryWord, str]:
    """The query's word ids and its distinct pronunciations, in one statement."""
    folded = fold(text)
    spellings = _spellings(text)
    marks = ",".join("?" * len(spellings))
    rows = conn.execute(
        "SELECT w.id, w.text, p.variant, p.phones, p.rhyme, p.syllables FROM words w "
        f"LEFT JOIN prons p ON p.word_id = w.id WHERE w.text IN ({marks}) "
        "ORDER BY w.id, p.variant",
        spellings,
    ).fetchall()
    ids: set[int] = set()
    seen: dict[str, QueryPronunciation] = {}
    for word_id, word, variant, phones, rhyme, syllables in rows:
        if fold(word) != folded:
            continue
        ids.add(word_id)
        if phones is not None and phones not in seen:
            seen[phones] = QueryPronunciation(
                variant=variant, phones=phones, rhyme=rhyme, syllables=syllables
            )
    return QueryWord(frozenset(ids), tuple(seen.values())), folded


def _streams(rhymes: Sequence[str], mode: str, syllables: int | None) -> tuple[str, list[object]]:
    """One SQL statement: the UNION ALL of ordered candidate streams, merged by pron id.

    SQLite answers a compound SELECT with ORDER BY by merging its parts, each read in
    index order, so the statement yields rows lazily in rank order.
    """
    parts: list[str] = []
    params: list[object] = []
    extra = "" if syllables is None else " AND p.syllables = ?"
    tail: list[object] = [] if syllables is None else [syllables]
    for rhyme in rhymes:
        if mode == "perfect":
            parts.append(_PERFECT + extra)
            params += ["identical", rhyme, rhyme, *tail]
            continue
        tokens = rhyme.split()
        for key in dict.fromkeys(substitution_keys(tokens)):
            parts.append(_KEYED + extra)
            params += ["substitution", rhyme, "sub", key, *tail]
        # A candidate one token longer: deleting one of its tokens gives our rhyme.
        parts.append(_KEYED + extra)
        params += ["insertion", rhyme, "del", rhyme, *tail]
        # A candidate one token shorter: our rhyme minus one token is its whole rhyme.
        for key in dict.fromkeys(deletion_keys(tokens)):
            parts.append(_PERFECT + extra)
            params += ["deletion", rhyme, key, *tail]
    return " UNION ALL ".join(parts) + " ORDER BY 1", params


def _candidates(
    conn: sqlite3.Connection, rhymes: Sequence[str], mode: str, syllables: int | None
) -> Iterator[list[Row]]:
    """Groups of rows, one group per word, in rank order."""
    sql, params = _streams(rhymes, mode, syllables)
    cursor = conn.execute(sql, params)
    group: list[Row] = []
    for row in cursor:
        if group and row[1] != group[0][1]:
            yield group
            group = []
        group.append(row)
    if group:
        yield group


def rhymes(
    corpus: Corpus,
    word: str,
    mode: str = "perfect",
    limit: int = 20,
    syllables: int | None = None,
) -> RhymesResult:
    """Rhymes of `word` (see the module docstring), most frequent first."""
    text = check_text("word", word)
    checked_mode = _MODES.get(mode)
    if checked_mode is None:
        raise InvalidArgument("mode", "'perfect' or 'near'", mode)
    check_limit("limit", limit)
    if syllables is not None:
        check_limit("syllables", syllables, 1, MAX_SYLLABLES)
    conn = corpus.db(LANGUAGE, "wordplay")
    index = rhyme_index(conn)
    query, folded = _query_pronunciations(conn, text)
    results, truncated = _collect(conn, index, query, folded, mode, limit, syllables)
    return RhymesResult.model_validate(
        {
            "word": text,
            "language": LANGUAGE,
            "dataset_version": corpus.dataset_version,
            "mode": checked_mode,
            "syllables": syllables,
            "found": bool(query.pronunciations),
            "query_pronunciations": list(query.pronunciations),
            "count": len(results),
            "truncated": truncated,
            "results": results,
            "budget": _BUDGET,
        }
    )


def _collect(
    conn: sqlite3.Connection,
    index: RhymeIndex,
    query: QueryWord,
    folded: str,
    mode: str,
    limit: int,
    syllables: int | None,
) -> tuple[list[dict[str, object]], bool]:
    """The candidates as plain dicts; the result model validates them in one pass."""
    query_rhymes = tuple(dict.fromkeys(p.rhyme for p in query.pronunciations))
    if not query_rhymes:
        return [], False
    results: list[dict[str, object]] = []
    seen_folds = {folded}
    near = mode == "near"
    provenance = index.provenance
    for group in _candidates(conn, query_rhymes, mode, syllables):
        first = group[0]
        if first[1] in query.ids:
            continue
        if near and _rhymes_perfectly(conn, group, query_rhymes, syllables):
            continue
        _pid, _wid, syllables_, phones, rhyme, text, zipf, source_id, pron_source, edit, qr = first
        candidate_fold = fold(text)
        if candidate_fold in seen_folds:
            continue  # 'Pat' after 'pat': one spelling per word is enough
        if len(results) == limit:
            return results, True
        seen_folds.add(candidate_fold)
        results.append(
            {
                "word": text,
                "syllables": syllables_,
                "zipf": zipf,
                "phones": phones,
                "rhyme": rhyme,
                "query_rhyme": qr,
                "edit": edit,
                "provenance": provenance(source_id, pron_source),
            }
        )
    return results, False


def _rhymes_perfectly(
    conn: sqlite3.Connection, group: list[Row], query_rhymes: Sequence[str], syllables: int | None
) -> bool:
    if any(row[4] in query_rhymes for row in group):
        return True
    if syllables is None:
        # Unfiltered, a perfect pronunciation of this word matches every substitution key
        # of that rhyme, so it would be in the group already.
        return False
    marks = ",".join("?" * len(query_rhymes))
    hit = conn.execute(
        f"SELECT 1 FROM prons WHERE word_id = ? AND rhyme IN ({marks}) LIMIT 1",
        (group[0][1], *query_rhymes),
    ).fetchone()
    return hit is not None
