"""The `pattern` wordplay kind: single-token words spelled like a crossword pattern.

`?` stands for one letter a-z, `*` for any run of letters (none included), and every other
character must be a letter a-z, fixed in place; case and compatibility forms are folded
first (`C?T` is `c?t`). Anything else is refused, so no caller text ever reaches a regular
expression: the expression is built here from the checked tokens alone.

Words come from the component's pattern buckets (lexicon_server/corpus/play_keys.py): one
string of fixed-width lines per letter count, in rank order, so the first matches found
are the most frequent. A pattern without `*` reads one bucket; with `*`, every bucket at
least as long as its fixed part, merged by rank. A database written before the buckets
existed gets them made in memory from its `words` table on first use (a few hundred ms).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator
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
from lexicon_server.errors import InvalidArgument
from lexicon_server.query.wordplay_result import Answer, Data, KindCall, result

if TYPE_CHECKING:
    from array import array


__all__ = ["PATTERN_ALLOWED", "check_pattern", "pattern_matches"]

PATTERN_ALLOWED = (
    "a spelling pattern for kind='pattern': letters a-z fixed in place, '?' for any one "
    "letter and '*' for any run of letters (none included), e.g. 'c?t', '??ght' or 'un*able'"
)
_TOKENS = re.compile(r"[a-z?*]+")
_Bucket = tuple[str, "array[int]"]


def check_pattern(text: str) -> str:
    """The folded pattern with runs of `*` collapsed, or InvalidArgument naming `text`."""
    folded = fold(text)
    if not _TOKENS.fullmatch(folded):
        raise InvalidArgument("text", PATTERN_ALLOWED, text)
    return re.sub(r"\*+", "*", folded)


def _expressions(pattern: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(every matching line of a bucket, one line as fullmatch sees it)."""
    # Built from checked tokens only: a-z stand for themselves, never as metacharacters.
    body = "".join("[a-z]" if ch == "?" else "[a-z]*" if ch == "*" else ch for ch in pattern)
    # (?=[a-z]): a line has at least one letter, so '*' never matches past the last line.
    return re.compile(f"^(?=[a-z]){body}$", re.MULTILINE), re.compile(body)


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


def _anchored_lines(lines: str, width: int, anchor: str, line: re.Pattern[str]) -> Iterator[int]:
    """Numbers of the lines that `line` matches, found through the literal `anchor` (a
    fast substring search), in line order."""
    start = lines.find(anchor)
    while start >= 0:
        number = start // width
        begin = number * width
        if line.fullmatch(lines, begin, begin + width - 1):
            yield number
        start = lines.find(anchor, begin + width)


def _scanned_lines(lines: str, width: int, expression: re.Pattern[str]) -> Iterator[int]:
    return (match.start() // width for match in expression.finditer(lines))


def _matching_ids(conn: sqlite3.Connection, pattern: str, scope: int, wanted: int) -> list[int]:
    """Ids of the first `wanted` words matching `pattern`, in rank order."""
    fixed = len(pattern.replace("*", ""))
    lengths = [n for n in _lengths(conn, scope) if n >= fixed] if "*" in pattern else [fixed]
    # The longest run of fixed letters, searched as a plain substring, finds the candidate
    # lines much faster than the expression tries every line; a pattern of ? and * only
    # is matched line by line.
    anchor = max(re.findall("[a-z]+", pattern), key=len, default="")
    expression, line = _expressions(pattern)
    found: list[int] = []
    for lines, ids in _buckets(conn, scope, lengths):
        width = lines.index("\n") + 1
        if anchor:
            numbers = _anchored_lines(lines, width, anchor, line)
        else:
            numbers = _scanned_lines(lines, width, expression)
        found.extend(ids[n] for n in islice(numbers, wanted))  # this bucket's best
    found.sort()  # ids are ranks: merge the buckets' best
    return found[:wanted]


def pattern_matches(call: KindCall, pattern: str, vocabulary: str) -> Data:
    """The `pattern` answer: matching words, most frequent first."""
    scope = play_keys.SCOPE_DICTIONARY if vocabulary == "dictionary" else play_keys.SCOPE_ALL
    ids = _matching_ids(call.conn, pattern, scope, call.limit + 1)
    table = call.index.table
    found: list[Data] = [
        {"word": text, "zipf": zipf, "spelling_source": call.cited.key(table, source_id)}
        for _id, text, _letters, zipf, source_id in words_by_id(call.conn, ids[: call.limit])
    ]
    answer = Answer(len(found), len(ids) > call.limit, [], [], [])
    return result(call.base, answer, call.cited, vocabulary=vocabulary, matches=found)
