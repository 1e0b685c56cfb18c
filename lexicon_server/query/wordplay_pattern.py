"""The `pattern` wordplay kind: single-token words spelled like a crossword pattern.

The pattern's syntax and its checks are query/spelling_pattern.py's; the expression used
here is built from the checked tokens alone.

Words come from the component's pattern buckets (lexicon_server/corpus/play_keys.py): one
string of fixed-width lines per letter count, in rank order, so the first matches found
are the most frequent. A pattern without `*` reads one bucket; with `*`, every bucket at
least as long as its fixed part, merged by rank. Only the buckets of every word (scope
all) are read: dictionary words (`words.is_word`) are numbered first, so they are each
bucket's first lines, up to the last dictionary word's id. A database written before the
buckets existed gets them made in memory from its `words` table on first use (a few
hundred ms).

A regular expression is used only on bucket lines, where it cannot backtrack far, and
`Glob` (which never backtracks) elsewhere.
"""

from __future__ import annotations

import re
import sqlite3
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import islice
from typing import TYPE_CHECKING

from lexicon_server.corpus import play_keys
from lexicon_server.corpus.connection import kept
from lexicon_server.corpus.rows.facts import meta_value
from lexicon_server.corpus.rows.wordplay import (
    pattern_bucket,
    pattern_lengths,
    pattern_words,
    words_by_id,
)
from lexicon_server.corpus.wordplay_keys import fold
from lexicon_server.query.spelling_pattern import Glob
from lexicon_server.query.wordplay_result import Answer, Data, KindCall, result

if TYPE_CHECKING:
    from array import array


__all__ = ["pattern_matches"]

_Bucket = tuple[str, "array[int]"]


@lru_cache(maxsize=256)
def _expression(pattern: str) -> re.Pattern[str]:
    """Every matching line of a bucket. Used only where it cannot backtrack much: with
    one '*' a line start is tried once per place that '*' can end; with only '?' and '*'
    the first try matches (a bucket's lines have at least the pattern's letter count)."""
    # Built from checked tokens only: a-z stand for themselves, never as metacharacters.
    body = "".join("[a-z]" if ch == "?" else "[a-z]*" if ch == "*" else ch for ch in pattern)
    # (?=[a-z]): a line has at least one letter, so '*' never matches past the last line.
    return re.compile(f"^(?=[a-z]){body}$", re.MULTILINE)


class _MemoryBuckets:
    """Buckets made from the words table, for a database written without them."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        rows = pattern_words(conn)
        folds = {fold(text) for _id, text, _letters, synset in rows if synset}
        words = ((word_id, letters, fold(text) in folds) for word_id, text, letters, _ in rows)
        self.buckets: dict[tuple[int, int], _Bucket] = {
            (scope, length): (letters, play_keys.unpack_ids(ids))
            for scope, length, letters, ids in play_keys.pattern_buckets(words)
        }


def _lengths(conn: sqlite3.Connection, scope: int) -> list[int]:
    """Every letter count that has a bucket of `scope`, ascending."""
    if meta_value(conn, play_keys.META_KEY) != play_keys.VERSION:
        memory = kept(conn).fact(_MemoryBuckets, lambda: _MemoryBuckets(conn)).buckets
        return sorted(length for (s, length) in memory if s == scope)
    return kept(conn).fact(("pattern_lengths", scope), lambda: pattern_lengths(conn, scope))


def _buckets(conn: sqlite3.Connection, scope: int, lengths: Iterable[int]) -> list[_Bucket]:
    """The buckets of `scope` of the given letter counts that exist, each kept with the
    connection once read."""
    connection = kept(conn)
    if meta_value(conn, play_keys.META_KEY) != play_keys.VERSION:
        memory = connection.fact(_MemoryBuckets, lambda: _MemoryBuckets(conn)).buckets
        return [memory[(scope, n)] for n in lengths if (scope, n) in memory]
    found: list[_Bucket] = []
    for length in lengths:

        def read(length: int = length) -> _Bucket | None:
            stored = pattern_bucket(conn, scope, length)
            return None if stored is None else (stored[0], play_keys.unpack_ids(stored[1]))

        bucket = connection.fact(("pattern_bucket", scope, length), read)
        if bucket is not None:
            found.append(bucket)
    return found


def _anchored_lines(lines: str, width: int, stop: int, anchor: str, line: Glob) -> Iterator[int]:
    """Numbers of the lines before offset `stop` that `line` matches, found through the
    literal `anchor` (a fast substring search), in line order."""
    start = lines.find(anchor, 0, stop)
    while start >= 0:
        number = start // width
        begin = number * width
        if line.matches(lines, begin, begin + width - 1):
            yield number
        start = lines.find(anchor, begin + width, stop)


def _line_numbers(pattern: str, lines: str, width: int, stop: int) -> Iterator[int]:
    """Numbers of the lines matching `pattern` before offset `stop` of `lines` (each
    `width` characters with its newline), in order."""
    # One expression over the whole buffer is fastest, and safe for a pattern of one '*'
    # at most or of no fixed letter (_expression). Otherwise the longest run of fixed
    # letters, searched as a plain substring, finds the candidate lines, each then matched
    # without backtracking (Glob).
    anchor = max(re.findall("[a-z]+", pattern), key=len, default="")
    if pattern.count("*") < 2 or not anchor:
        return (match.start() // width for match in _expression(pattern).finditer(lines, 0, stop))
    return _anchored_lines(lines, width, stop, anchor, Glob(pattern))


def _bucket_matches(
    pattern: str, buckets: Iterable[tuple[str, Sequence[int], int]], wanted: int
) -> list[int]:
    """Ids of the first `wanted` lines matching `pattern` among the first `count` lines of
    the buckets (`(lines, ids, count)`: every line as wide as the first, ids ascending),
    in id order."""
    found: list[int] = []
    for lines, ids, count in buckets:
        if count:
            width = lines.index("\n") + 1
            numbers = _line_numbers(pattern, lines, width, count * width)
            found.extend(ids[n] for n in islice(numbers, wanted))  # this bucket's best
    found.sort()  # ids are ranks: merge the buckets' best
    return found[:wanted]


def _pattern_lengths(pattern: str, lengths: Iterable[int]) -> list[int]:
    """The letter counts (of `lengths`) a word matching `pattern` can have."""
    fixed = len(pattern.replace("*", ""))
    return [n for n in lengths if n >= fixed] if "*" in pattern else [fixed]


def _matching_ids(
    conn: sqlite3.Connection, pattern: str, words_end: int | None, wanted: int
) -> list[int]:
    """Ids of the first `wanted` words matching `pattern`, in rank order: dictionary words
    only (ids up to `words_end`, which come first in every bucket) unless it is None."""
    scope = play_keys.SCOPE_ALL
    buckets = _buckets(conn, scope, _pattern_lengths(pattern, _lengths(conn, scope)))
    counted = (
        (lines, ids, len(ids) if words_end is None else bisect_right(ids, words_end))
        for lines, ids in buckets
    )
    return _bucket_matches(pattern, counted, wanted)


def pattern_matches(call: KindCall, pattern: str, vocabulary: str) -> Data:
    """The `pattern` answer: matching words, most frequent first (names and rare spellings
    only with vocabulary='all', after the dictionary words and labelled)."""
    conn, cited, limit = call.conn, call.cited, call.limit
    words_end = call.index.words_end
    ids = _matching_ids(conn, pattern, words_end if vocabulary == "dictionary" else None, limit + 1)
    found: list[Data] = []
    for word_id, text, _letters, zipf, source_id in words_by_id(conn, ids[:limit]):
        match: Data = {
            "word": text,
            "zipf": zipf,
            "spelling_source": cited.key(call.index.table, source_id),
        }
        if word_id > words_end:
            match["dictionary_word"] = False
        found.append(match)
    answer = Answer(len(found), len(ids) > limit, [], [], [])
    return result(call.base, answer, cited, vocabulary=vocabulary, results=found)
