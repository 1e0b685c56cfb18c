"""The `pattern` wordplay kind: single-token words spelled like a crossword pattern.

`?` stands for one letter a-z, `*` for any run of letters (none included), and every other
character must be a letter a-z, fixed in place; case and compatibility forms are folded
first (`C?T` is `c?t`). Anything else is refused, so no caller text ever reaches a regular
expression: the expression is built here from the checked tokens alone.

Words come from the component's pattern buckets (lexicon_server/corpus/play_keys.py): one
string of fixed-width lines per letter count, in rank order, so the first matches found
are the most frequent. A pattern without `*` reads one bucket; with `*`, every bucket at
least as long as its fixed part, merged by rank. Only the buckets of every word (scope
all) are read: dictionary words (`words.is_word`) are numbered first, so they are each
bucket's first lines, up to the last dictionary word's id. A database written before the
buckets existed gets them made in memory from its `words` table on first use (a few
hundred ms).

The same syntax filters other tools' candidates (`spelling_filter`: synonyms, semantic
neighbours, rhymes), each candidate matched on its `spelling_form` by `Glob`, which never
backtracks; a regular expression is used only on bucket lines, where it cannot backtrack
far.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
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
from lexicon_server.errors import InvalidArgument
from lexicon_server.query.arguments import check_text
from lexicon_server.query.wordplay_result import Answer, Data, result

if TYPE_CHECKING:
    from array import array

    from lexicon_server.query.provenance import Cited
    from lexicon_server.query.rhymes import RhymeIndex

__all__ = [
    "FILTER_ALLOWED",
    "PATTERN_ALLOWED",
    "Glob",
    "SpellingFilter",
    "check_pattern",
    "pattern_matches",
    "spelling_filter",
    "spelling_form",
]

_RULE = (
    "letters a-z fixed in place, '?' for any one letter and '*' for any run of letters "
    "(none included), e.g. 'c?t', '??ght' or 'un*able'"
)
PATTERN_ALLOWED = "a spelling pattern for kind='pattern': " + _RULE
FILTER_ALLOWED = "a spelling pattern the candidates must match: " + _RULE
_TOKENS = re.compile(r"[a-z?*]+")
_LETTERS = re.compile(r"[a-z]*")
# Left out of a candidate's spelling before it is matched: word separators.
_SEPARATORS = re.compile(r"[\-'’.]+")
_Bucket = tuple[str, "array[int]"]


def check_pattern(text: str, parameter: str = "text", allowed: str = PATTERN_ALLOWED) -> str:
    """The folded pattern with runs of `*` collapsed, or InvalidArgument naming
    `parameter`."""
    folded = fold(text)
    if not _TOKENS.fullmatch(folded):
        raise InvalidArgument(parameter, allowed, text)
    return re.sub(r"\*+", "*", folded)


class Glob:
    """Whole-string matching of a checked pattern without backtracking: the pattern split
    at each '*' into fixed-length pieces, the first anchored at the start, the last at the
    end, and each one between found at its leftmost place after the one before (a later
    place never allows a match an earlier one does not). A regular expression with many
    '*' can instead take exponential time on a word that almost matches."""

    def __init__(self, pattern: str) -> None:
        # Built from checked tokens only: a-z stand for themselves, never as metacharacters.
        pieces = pattern.split("*")
        self.pieces = [re.compile(piece.replace("?", "[a-z]")) for piece in pieces]
        self.lengths = [len(piece) for piece in pieces]

    def matches(self, text: str, start: int = 0, end: int | None = None) -> bool:
        """Whether `text[start:end]` (letters a-z only) matches the whole pattern."""
        end = len(text) if end is None else end
        if len(self.pieces) == 1:
            return end - start == self.lengths[0] and bool(
                self.pieces[0].fullmatch(text, start, end)
            )
        head, tail = start + self.lengths[0], end - self.lengths[-1]
        if tail < head or not self.pieces[0].fullmatch(text, start, head):
            return False
        if not self.pieces[-1].fullmatch(text, tail, end):
            return False
        for piece in self.pieces[1:-1]:
            found = piece.search(text, head, tail)
            if found is None:
                return False
            head = found.end()
        return True


def spelling_form(text: str) -> str | None:
    """The letters a pattern is matched against: case folded, accents dropped (`café` ->
    cafe), spaces, hyphens, apostrophes and dots left out (`well-off` -> welloff); None
    when a letter outside a-z remains (another script, `ø`, a digit)."""
    if text.isascii():
        form = text.lower()
    else:
        decomposed = unicodedata.normalize("NFKD", text)
        form = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    form = _SEPARATORS.sub("", form)
    return form if _LETTERS.fullmatch(form) else None


class SpellingFilter:
    """A checked `pattern` argument, as a test of candidate words (see `spelling_form`)."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.glob = Glob(pattern)

    def __call__(self, word: str) -> bool:
        form = spelling_form(word)
        return form is not None and self.glob.matches(form)


def spelling_filter(pattern: str | None) -> SpellingFilter | None:
    """The `pattern` argument of synonyms, semantic neighbours and rhymes, checked (None
    when omitted), or InvalidArgument naming `pattern`."""
    if pattern is None:
        return None
    if not isinstance(pattern, str):
        raise InvalidArgument("pattern", FILTER_ALLOWED, pattern)
    text = check_text("pattern", pattern)
    return SpellingFilter(check_pattern(text, "pattern", FILTER_ALLOWED))


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


def pattern_matches(
    conn: sqlite3.Connection,
    index: RhymeIndex,
    cited: Cited,
    pattern: str,
    vocabulary: str,
    limit: int,
    base: Data,
) -> Data:
    """The `pattern` answer: matching words, most frequent first (names and rare spellings
    only with vocabulary='all', after the dictionary words and labelled)."""
    words_end = index.words_end
    ids = _matching_ids(conn, pattern, words_end if vocabulary == "dictionary" else None, limit + 1)
    found: list[Data] = []
    for word_id, text, _letters, zipf, source_id in words_by_id(conn, ids[:limit]):
        match: Data = {
            "word": text,
            "zipf": zipf,
            "spelling_source": cited.key(index.table, source_id),
        }
        if word_id > words_end:
            match["dictionary_word"] = False
        found.append(match)
    answer = Answer(len(found), len(ids) > limit, [], [], [])
    return result(base, answer, cited, vocabulary=vocabulary, matches=found)
