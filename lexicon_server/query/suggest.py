"""Suggestions for a word a tool did not find: spelling corrections and completions from the
language's installed headwords and their frequencies (docs/tools.md, "Suggestions").

Spelling: the text's norm, its accent-folded form, its single and double deletes are
probed in the component's symmetric-deletion index (lexicon_server/corpus/spelling.py);
each word reached is checked with the weighted edit distance (`edit_distance`), kept at
distance 2 or less, and ranked by Zipf frequency less `DISTANCE_WEIGHT` per unit of
distance. Completions: when the text has at least `COMPLETION_MIN_CHARS` characters, the
most frequent words it begins, among the first `COMPLETION_SCAN` headwords in norm order.
A text that is itself a suggestible word comes first, at distance 0.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any, NamedTuple

from lexicon_server.corpus import spelling
from lexicon_server.corpus.normalize import norm
from lexicon_server.corpus.rows.spelling import (
    SpellingRow,
    completion_rows,
    key_rows,
    spelling_vocabulary,
)
from lexicon_server.models import Suggestion, SuggestionKind
from lexicon_server.query.arguments import check_limit, check_text
from lexicon_server.query.edit_distance import distance

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus


__all__ = [
    "COMPLETION_MIN_CHARS",
    "COMPLETION_SCAN",
    "DISTANCE_WEIGHT",
    "MAX_SUGGESTIONS",
    "suggest",
    "with_suggestions",
]

MAX_SUGGESTIONS = 20
# Zipf units one unit of distance costs (tuned on bench/devsets/misspellings_dev.tsv).
DISTANCE_WEIGHT = 3.0
# A completion ranks as a spelling correction this far away would.
COMPLETION_DISTANCE = 1.0
COMPLETION_MIN_CHARS = 3
# Headwords read per completion (index pages only); a prefix with more completions than
# this offers the most frequent of its first ones in alphabetical order.
COMPLETION_SCAN = 256
# Texts longer than this probe their single deletes only (double deletes grow as n²/2).
DOUBLE_DELETE_MAX_CHARS = 20


class _Candidate(NamedTuple):
    score: float
    row: SpellingRow
    kind: SuggestionKind
    distance: float | None


def _probe_keys(key: str) -> set[int]:
    strings = {key, spelling.folded(key)}
    singles = spelling.deletes(key)
    strings |= singles
    if len(key) <= DOUBLE_DELETE_MAX_CHARS:
        for single in singles:
            strings |= spelling.deletes(single)
    return {spelling.key_of(s) for s in strings}


def _corrections(conn: sqlite3.Connection, key: str) -> list[_Candidate]:
    found: list[_Candidate] = []
    for row in key_rows(conn, _probe_keys(key)):
        d = distance(key, row.norm)
        if d is None:
            continue
        score = float("inf") if d == 0 else row.zipf - DISTANCE_WEIGHT * d
        found.append(_Candidate(score, row, "spelling", d))
    return found


def _completions(conn: sqlite3.Connection, key: str) -> list[_Candidate]:
    if len(key) < COMPLETION_MIN_CHARS:
        return []
    rows = completion_rows(conn, key, COMPLETION_SCAN)
    return [
        _Candidate(row.zipf - DISTANCE_WEIGHT * COMPLETION_DISTANCE, row, "completion", None)
        for row in rows
    ]


def suggest(conn: sqlite3.Connection, text: str, language: str, limit: int = 5) -> list[Suggestion]:
    """Ranked suggestions for `text` in the lexical component `conn` of `language`, best
    first, at most `limit`; none when the component has no spelling index (a release
    built before it) or the text is longer than any indexed word."""
    del language  # the component is the language's; the argument names it for callers
    check_limit("limit", limit, 1, MAX_SUGGESTIONS)
    key = norm(check_text("text", text))
    if spelling_vocabulary(conn) is None or len(key) > spelling.MAX_WORD_CHARS:
        return []
    best: dict[str, _Candidate] = {}
    for candidate in (*_corrections(conn, key), *_completions(conn, key)):
        held = best.get(candidate.row.norm)
        if held is None or candidate.score > held.score:
            best[candidate.row.norm] = candidate
    ranked = sorted(best.values(), key=lambda c: (-c.score, c.distance or 0.0, c.row.norm))
    return [
        Suggestion(
            text=c.row.text,
            kind=c.kind,
            distance=c.distance,
            zipf=c.row.zipf,
        )
        for c in ranked[:limit]
    ]


def with_suggestions(corpus: Corpus, result: Any, text: str, language: str, limit: int = 5) -> Any:
    """`result` (a tool's model or its plain data) with `suggestions` for `text` when the
    tool did not find it; unchanged when it did, or when `language` has no lexical data.
    The text's own spelling is never offered back."""
    found = result["found"] if isinstance(result, dict) else result.found
    if found or corpus.selection.availability(language, "lexical") is not None:
        return result
    own = norm(text)
    offered = suggest(corpus.db(language, "lexical"), text, language, limit)
    offered = [s for s in offered if norm(s.text) != own]
    if not offered:
        return result
    if not isinstance(result, dict):
        return result.model_copy(update={"suggestions": offered})
    data = [s.model_dump(mode="json") for s in offered]
    keys = list(result)
    at = keys.index("found") + 1  # where the model declares it
    before = {k: result[k] for k in keys[:at]}
    return {**before, "suggestions": data, **{k: result[k] for k in keys[at:]}}
