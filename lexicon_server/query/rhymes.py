"""rhymes: perfect and near rhymes of an English word, ranked by word frequency.

Every pronunciation of the query counts. A perfect rhyme shares a query pronunciation's
rhyme part exactly; a near rhyme's rhyme part differs from one by exactly one ARPAbet
token inserted, deleted or substituted, and no pronunciation of it rhymes perfectly.

Speed comes from the writer's id order and its precomputed near rhymes: word ids are
assigned by descending frequency and pronunciation ids follow them, so the perfect-rhyme
table (`rhyme_members`) and the `near_rhymes` table yield candidates already ranked,
one index range per query rhyme. The query reads them lazily and stops once it has
`limit + 1` words, instead of collecting and sorting every match.
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
from lexicon_server.query.wordplay_keys import fold
from lexicon_server.query.wordplay_models import (
    Provenance,
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

# Columns every candidate stream yields, pron id first (the merge key), then the edit code
# (near_rhymes.edit) and the query rhyme it was matched against. rhyme_members holds them
# all, so a row costs no look-up in prons or words.
_COLUMNS = "m.word_id, m.syllables, m.phones, m.rhyme, m.text, m.zipf, m.word_source, m.pron_source"
_PERFECT = f"SELECT m.pron_id, {_COLUMNS}, 0, ? FROM rhyme_members m WHERE m.rhyme_id = ?"
# Spelled n.pron_id (not m.pron_id) so SQLite sees the primary key already gives the order.
_NEAR = (
    f"SELECT n.pron_id, {_COLUMNS}, n.edit, ? FROM near_rhymes n JOIN rhyme_members m "
    "ON m.rhyme_id = n.member_rhyme_id AND m.pron_id = n.pron_id WHERE n.rhyme_id = ?"
)
_NEAR_FIRST = (
    "SELECT f.pron_id, f.word_id, f.syllables, f.phones, f.rhyme, f.text, f.zipf, "
    "f.word_source, f.pron_source, f.edit, ? FROM near_first f WHERE f.rhyme_id = ?"
)
# near_rhymes past the rows near_first copies (only read when a query gets that far).
_NEAR_REST = _NEAR + " AND n.pron_id > (SELECT max(pron_id) FROM near_first WHERE rhyme_id = ?)"
_EDITS = ("identical", "substitution", "insertion", "deletion")

Row = tuple[int, int, int, str, str, str, float, int, int, int, str]


@dataclass(frozen=True, slots=True)
class QueryWord:
    ids: frozenset[int]  # the query's words that have pronunciations (the only candidates)
    pronunciations: tuple[dict[str, object], ...]  # QueryPronunciation fields
    rhymes: tuple[tuple[str, int], ...]  # distinct (rhyme part, rhymes.id), first seen first


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
    """The query's word ids and its distinct pronunciations, in one statement.

    Sorted here rather than by SQL (a temp B-tree costs more than sorting a few tuples):
    pron ids follow (word id, variant).
    """
    folded = fold(text)
    spellings = _spellings(text)
    marks = ",".join("?" * len(spellings))
    rows = conn.execute(
        "SELECT p.id, w.id, w.text, p.variant, p.phones, p.rhyme, p.syllables, p.rhyme_id "
        f"FROM words w JOIN prons p ON p.word_id = w.id WHERE w.text IN ({marks})",
        spellings,
    ).fetchall()
    rows.sort()
    ids: set[int] = set()
    seen: dict[str, dict[str, object]] = {}
    rhymes: dict[str, int] = {}
    for _pron_id, word_id, word, variant, phones, rhyme, syllables, rhyme_id in rows:
        if fold(word) != folded:
            continue
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


def _streams(
    rhymes: Sequence[tuple[str, int]], mode: str, syllables: int | None
) -> list[tuple[str, list[object]]]:
    """SQL statements whose rows, read one after the other, come in rank order.

    Each query rhyme is one or two index ranges already in pron-id (rank) order; several
    rhymes make one statement whose ORDER BY SQLite answers by merging them, not sorting.
    A single near rhyme reads `near_first` and only goes on to `near_rhymes` if the
    query gets past its rows, so the second statement usually never runs.
    """
    if mode == "near" and len(rhymes) == 1:
        ((rhyme, rhyme_id),) = rhymes
        if syllables is None:
            return [
                (_NEAR_FIRST + " ORDER BY f.pron_id", [rhyme, rhyme_id]),
                (_NEAR_REST + " ORDER BY n.pron_id", [rhyme, rhyme_id, rhyme_id]),
            ]
        # Perfect rows stay in whatever the filter, so their words can be dropped.
        return [
            (
                _NEAR_FIRST + " AND (f.edit = 0 OR f.syllables = ?) ORDER BY f.pron_id",
                [rhyme, rhyme_id, syllables],
            ),
            (
                _NEAR_REST + " AND (n.edit = 0 OR m.syllables = ?) ORDER BY n.pron_id",
                [rhyme, rhyme_id, rhyme_id, syllables],
            ),
        ]
    parts: list[str] = []
    params: list[object] = []
    for rhyme, rhyme_id in rhymes:
        if mode == "perfect":
            parts.append(_PERFECT if syllables is None else _PERFECT + " AND m.syllables = ?")
            params += [rhyme, rhyme_id] if syllables is None else [rhyme, rhyme_id, syllables]
        elif syllables is None:
            parts += [_NEAR_FIRST, _NEAR_REST]
            params += [rhyme, rhyme_id, rhyme, rhyme_id, rhyme_id]
        else:
            parts += [
                _NEAR_FIRST + " AND (f.edit = 0 OR f.syllables = ?)",
                _NEAR_REST + " AND (n.edit = 0 OR m.syllables = ?)",
            ]
            params += [rhyme, rhyme_id, syllables, rhyme, rhyme_id, rhyme_id, syllables]
    return [(" UNION ALL ".join(parts) + " ORDER BY 1", params)]


def _rows(conn: sqlite3.Connection, statements: list[tuple[str, list[object]]]) -> Iterator[Row]:
    """The statements' rows in turn, each statement executed only when reached."""
    for sql, params in statements:
        yield from conn.execute(sql, params)


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
    """The candidates as plain dicts; the result model validates them in one pass.

    A word's rows are adjacent (pron ids follow word ids), so each word is decided when
    its last row has gone by; the cursor is read lazily and dropped at `limit + 1` words.
    """
    if not query.rhymes:
        return [], False
    statements = _streams(query.rhymes, mode, syllables)
    results: list[dict[str, object]] = []
    seen_folds = {folded}
    excluded = query.ids
    near = mode == "near"
    first: Row | None = None  # the first row of the word being read
    keep = False
    rows = conn.execute(*statements[0]) if len(statements) == 1 else _rows(conn, statements)
    for row in rows:
        if first is not None and row[1] == first[1]:
            # A word with any pronunciation rhyming perfectly is not a near rhyme; its
            # perfect rows (edit 0) come through every filter.
            if near and row[9] == 0:
                keep = False
            continue
        if keep and first is not None and _accept(first, results, seen_folds, index, limit):
            return results, True
        first = row
        keep = row[1] not in excluded and not (near and row[9] == 0)
    if keep and first is not None and _accept(first, results, seen_folds, index, limit):
        return results, True
    return results, False


def _accept(
    row: Row, results: list[dict[str, object]], seen: set[str], index: RhymeIndex, limit: int
) -> bool:
    """Add the word of `row` unless its spelling is already in; True when over `limit`."""
    _pid, _wid, syllables, phones, rhyme, text, zipf, source_id, pron_source, edit, qr = row
    candidate_fold = fold(text)
    if candidate_fold in seen:
        return False  # 'Pat' after 'pat': one spelling per word is enough
    if len(results) == limit:
        return True
    seen.add(candidate_fold)
    results.append(
        {
            "word": text,
            "syllables": syllables,
            "zipf": zipf,
            "phones": phones,
            "rhyme": rhyme,
            "query_rhyme": qr,
            "edit": _EDITS[edit],
            "provenance": index.provenance(source_id, pron_source),
        }
    )
    return False
