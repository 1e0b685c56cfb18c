"""The rhyme walk: every rhyme of a query's rhyme parts, in rank order, from the wordplay
component's tables. The builder stores each rhyme part's first candidates from it (the
rhyme documents) and the query reads it where no document decides, so the two cannot
disagree."""

from __future__ import annotations

import sqlite3
from collections.abc import Generator, Iterable, Sequence
from functools import lru_cache
from typing import Any

from lexicon_server.corpus.function_words import FUNCTION_WORDS
from lexicon_server.corpus.wordplay_keys import fold

__all__ = ["EDITS", "SOUND_CLASSES", "Candidate", "candidates", "sound_class"]

# Row layout. Each column read costs time on every row (more than the SQL arithmetic that
# saves one), so a statement reads only what varies, packing small ints together: the
# word id (the grouping key; near rows: `word_id << 2 | edit`), syllables, phones, text,
# zipf, the sources (`spelling source << 16 | pronunciation source`); then the rhyme part
# unless it is the query's (perfect rhymes of one query rhyme); when several query rhymes
# are merged, near rows add the query rhyme's id, and every row ends with the pron id
# (the merge key).
_KEY, _SYLLABLES, _PHONES, _TEXT, _ZIPF, _SOURCES, _RHYME, _QUERY_RHYME = range(8)
_M = "m.syllables, m.phones, m.text, m.zipf, (m.word_source << 16) | m.pron_source"
_PERFECT = f"SELECT m.word_id, {_M} FROM rhyme_members m WHERE m.rhyme_id = ?"
_PERFECT_MERGED = (
    f"SELECT m.word_id, {_M}, m.rhyme, m.pron_id FROM rhyme_members m WHERE m.rhyme_id = ?"
)
# Spelled n.pron_id (not m.pron_id) so SQLite sees the primary key already gives the order.
_NEAR = (
    f"SELECT (m.word_id << 2) | n.edit, {_M}, m.rhyme{{}} FROM near_rhymes n "
    "JOIN rhyme_members m ON m.rhyme_id = n.member_rhyme_id AND m.pron_id = n.pron_id "
    "WHERE n.rhyme_id = ?"
)
EDITS = ("identical", "substitution", "insertion", "deletion")
# How close a near rhyme sounds, closest first (docs/wordplay.md, "Near rhymes ranked by
# sound"): 1 the edit is a consonant changed, added or dropped, every vowel kept (cat ->
# cap, cats); 2 a vowel after the stressed one changed, added or dropped; 3 the stressed
# vowel itself changed (cat -> cut). 0 is a perfect rhyme.
SOUND_CLASSES = ("perfect", "vowel_kept", "unstressed_vowel_changed", "stressed_vowel_changed")

Row = tuple[Any, ...]
# One candidate word as the walk yields it and a rhyme document stores it (see
# rhyme_docs.py): text, syllables, zipf, phones, edit, spelling source id, pronunciation
# source id, its rhyme part, the query rhyme it answers, its sound class, and 1 when it is
# a dictionary word (0: a name or a rare spelling, see `words.is_word`).
Candidate = tuple[str, int, float, str, int, int, int, str, str, int, int]
# Within a sound class a changed consonant comes before an added one, and that before a
# dropped one (`heart`: hard, then hearts, then are); see docs/wordplay.md.
_EDIT_ORDER = (0, 0, 1, 2)  # by edit code: identical, substitution, insertion, deletion


@lru_cache(maxsize=1 << 16)
def sound_class(query_rhyme: str, rhyme: str, edit: int) -> int:
    """The sound class (index into SOUND_CLASSES) of `rhyme` as a near rhyme of `query_rhyme`.

    `edit` is the walk's code: 1 substitution, 2 insertion (rhyme one token longer), 3
    deletion. The edited token is the first position where the two differ; a vowel is a
    token with a stress digit.
    """
    q, c = query_rhyme.split(), rhyme.split()
    if edit == 0:
        return 0
    at = next(
        (i for i, (a, b) in enumerate(zip(q, c, strict=False)) if a != b), min(len(q), len(c))
    )
    if at == 0:
        return 3  # a rhyme part starts at its stressed vowel: that vowel is what changed
    tokens = (q[at], c[at]) if edit == 1 else (c[at],) if edit == 2 else (q[at],)
    return 2 if any(t[-1].isdigit() for t in tokens) else 1


def _statement(
    rhymes: Sequence[tuple[str, int]], mode: str, syllables: int | None
) -> tuple[str, list[object]]:
    """One SQL statement whose rows come in rank order.

    Each query rhyme is one index range already in pron-id (rank) order; several rhymes
    make one statement whose ORDER BY SQLite answers by merging them, not sorting.
    """
    if len(rhymes) == 1:
        ((_rhyme, rhyme_id),) = rhymes
        if mode == "perfect":
            if syllables is None:
                return _PERFECT + " ORDER BY m.pron_id", [rhyme_id]
            return _PERFECT + " AND m.syllables = ? ORDER BY m.pron_id", [rhyme_id, syllables]
        if syllables is None:
            return _NEAR.format("") + " ORDER BY n.pron_id", [rhyme_id]
        # Perfect rows stay in whatever the filter, so their words can be dropped.
        return (
            _NEAR.format("") + " AND (n.edit = 0 OR m.syllables = ?) ORDER BY n.pron_id",
            [rhyme_id, syllables],
        )
    parts: list[str] = []
    params: list[object] = []
    near = _NEAR.format(", n.rhyme_id, n.pron_id")
    for _rhyme, rhyme_id in rhymes:
        if mode == "perfect":
            parts.append(
                _PERFECT_MERGED if syllables is None else _PERFECT_MERGED + " AND m.syllables = ?"
            )
        else:
            parts.append(
                near if syllables is None else near + " AND (n.edit = 0 OR m.syllables = ?)"
            )
        params += [rhyme_id] if syllables is None else [rhyme_id, syllables]
    merge_key = _RHYME + 2 if mode == "perfect" else _QUERY_RHYME + 2  # the pron id, 1-based
    return " UNION ALL ".join(parts) + f" ORDER BY {merge_key}", params


def candidates(
    conn: sqlite3.Connection,
    rhymes: Sequence[tuple[str, int]],
    mode: str,
    syllables: int | None,
    excluded: frozenset[int],
    folded: str,
    words_end: int,
    dictionary_only: bool,
) -> Generator[Candidate, None, None]:
    """Every rhyme of the query rhymes, one spelling per fold, dictionary words first:
    perfect ones in rank order, near ones by closeness (`_tier`) and then rank.

    `excluded` are the query's own word ids and `folded` its fold (the builder passes
    neither, to store what any query would see). Word ids up to `words_end` are
    dictionary words and come first in every range (see `dictionary_words_end`);
    `dictionary_only` stops the walk at the first other word. A word's rows are adjacent
    (pron ids follow word ids). In perfect mode its first row is the one listed; in near
    mode a word is decided when its last row has gone by (any perfect row rules it out),
    and its closest row is the one listed. The cursor is read lazily: the caller stops it
    by not asking for more (near rhymes past the first tier need the whole range read).
    """
    if not rhymes:
        return
    seen = {folded}
    sql, params = _statement(rhymes, mode, syllables)
    merged = len(rhymes) > 1
    only = rhymes[0][0]  # the rhyme part of every row when there is one query rhyme
    rows = conn.execute(sql, params)
    end = words_end if dictionary_only else None
    if mode == "perfect":
        yield from _perfect(rows, excluded, seen, merged, only, words_end, end)
    else:
        walk = _NearWalk(rhymes, seen, merged, only, words_end)
        yield from walk.read(rows, excluded, end)


def _perfect(
    rows: Iterable[Row],
    excluded: frozenset[int],
    seen: set[str],
    merged: bool,
    only: str,
    words_end: int,
    end: int | None,
) -> Generator[Candidate, None, None]:
    """Perfect rhymes in rank order: each word's first row, one spelling per fold."""
    last = None
    for row in rows:
        word_id = row[_KEY]
        if word_id == last:
            continue
        if end is not None and word_id > end:
            return  # the rest are names and rare spellings
        last = word_id
        text = row[_TEXT]
        # fold() inlined for ASCII, the common case: this runs once per candidate.
        candidate_fold = text.lower() if text.isascii() else fold(text)
        if word_id in excluded or candidate_fold in seen:
            continue  # 'Pat' after 'pat': one spelling per word is enough
        seen.add(candidate_fold)
        rhyme = row[_RHYME] if merged else only
        pair = row[_SOURCES]
        yield (
            text,
            row[_SYLLABLES],
            row[_ZIPF],
            row[_PHONES],
            0,
            pair >> 16,
            pair & 0xFFFF,
            rhyme,
            rhyme,
            0,
            int(word_id <= words_end),
        )


# A near rhyme's tier: (0 for a dictionary word else 1, sound class, 1 for a function
# word else 0, edit order). Lower tiers come first; the first tier is yielded as read.
_Tier = tuple[int, int, int, int]
_FIRST: _Tier = (0, 1, 0, 0)


class _NearWalk:
    """Near rhymes, closest tier first and rank order within a tier: a word of the first
    tier (a dictionary content word with a consonant changed) is yielded as soon as it is
    decided, the others wait here until the walk is over. A word's sound class and edit
    are those of its closest row."""

    def __init__(
        self,
        rhymes: Sequence[tuple[str, int]],
        seen: set[str],
        merged: bool,
        only: str,
        words_end: int,
    ) -> None:
        self.names = {rhyme_id: rhyme for rhyme, rhyme_id in rhymes}
        self.seen = seen
        self.merged = merged
        self.only = only
        self.words_end = words_end
        self.later: dict[_Tier, list[Candidate]] = {}

    def closeness(self, row: Row) -> tuple[int, int]:
        """(sound class, edit order) of one near row."""
        query_rhyme = self.names[row[_QUERY_RHYME]] if self.merged else self.only
        edit = row[_KEY] & 3
        return sound_class(query_rhyme, row[_RHYME], edit), _EDIT_ORDER[edit]

    def read(
        self, rows: Iterable[Row], excluded: frozenset[int], end: int | None
    ) -> Generator[Candidate, None, None]:
        best: Row = ()  # the closest row so far of the word being read
        best_close = (0, 0)
        current = -1  # its word id (none yet)
        keep = False
        for row in rows:
            key = row[_KEY]
            if key >> 2 == current:
                # A word with any pronunciation rhyming perfectly is not a near rhyme; its
                # perfect rows (edit 0) come through every filter.
                if not key & 3:
                    keep = False
                elif keep and best_close != (1, 0):
                    close = self.closeness(row)
                    if close < best_close:
                        best, best_close = row, close
                continue
            if keep:
                decided = self.decided(best, best_close, current)
                if decided is not None:
                    yield decided
            current = key >> 2
            if end is not None and current > end:
                keep = False
                break  # the rest are names and rare spellings
            best = row
            keep = key & 3 != 0 and current not in excluded
            if keep:
                best_close = self.closeness(row)
        if keep:
            decided = self.decided(best, best_close, current)
            if decided is not None:
                yield decided
        for tier in sorted(self.later):
            yield from self.later[tier]

    def decided(self, row: Row, close: tuple[int, int], word_id: int) -> Candidate | None:
        """A word's closest row, decided: the candidate to yield now (first tier), else
        None, having put it in its tier's list (or dropped a spelling already listed)."""
        text = row[_TEXT]
        candidate_fold = text.lower() if text.isascii() else fold(text)
        if candidate_fold in self.seen:
            return None
        self.seen.add(candidate_fold)
        pair = row[_SOURCES]
        query_rhyme = self.names[row[_QUERY_RHYME]] if self.merged else self.only
        is_word = int(word_id <= self.words_end)
        cls, edit_order = close
        candidate: Candidate = (
            text,
            row[_SYLLABLES],
            row[_ZIPF],
            row[_PHONES],
            row[_KEY] & 3,
            pair >> 16,
            pair & 0xFFFF,
            row[_RHYME],
            query_rhyme,
            cls,
            is_word,
        )
        tier = (1 - is_word, cls, int(candidate_fold in FUNCTION_WORDS), edit_order)
        if tier == _FIRST:
            return candidate
        self.later.setdefault(tier, []).append(candidate)
        return None
