"""The rhyme walk: every rhyme of a query's rhyme parts, in rank order, from the wordplay
component's tables. The builder stores each rhyme part's first candidates from it (the
rhyme documents) and the query reads it where no document decides, so the two cannot
disagree."""

from __future__ import annotations

import sqlite3
from collections.abc import Generator, Iterable, Sequence
from functools import lru_cache
from typing import Any

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
# source id, its rhyme part, the query rhyme it answers, and its sound class.
Candidate = tuple[str, int, float, str, int, int, int, str, str, int]


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
) -> Generator[Candidate, None, None]:
    """Every rhyme of the query rhymes: perfect ones in rank order, near ones by sound
    class and then rank (see SOUND_CLASSES), one spelling per fold.

    `excluded` are the query's own word ids and `folded` its fold (the builder passes
    neither, to store what any query would see). A word's rows are adjacent (pron ids
    follow word ids). In perfect mode its first row is the one listed; in near mode a
    word is decided when its last row has gone by (any perfect row rules it out), and
    its closest row is the one listed. The cursor is read lazily: the caller stops it by
    not asking for more (near rhymes of classes 2 and 3 need the whole range read).
    """
    if not rhymes:
        return
    seen = {folded}
    sql, params = _statement(rhymes, mode, syllables)
    merged = len(rhymes) > 1
    only = rhymes[0][0]  # the rhyme part of every row when there is one query rhyme
    rows = conn.execute(sql, params)
    if mode == "perfect":
        yield from _perfect(rows, excluded, seen, merged, only)
    else:
        yield from _near(rows, rhymes, excluded, seen, merged, only)


def _perfect(
    rows: Iterable[Row], excluded: frozenset[int], seen: set[str], merged: bool, only: str
) -> Generator[Candidate, None, None]:
    """Perfect rhymes in rank order: each word's first row, one spelling per fold."""
    last = None
    for row in rows:
        word_id = row[_KEY]
        if word_id == last:
            continue
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
        )


def _near(
    rows: Iterable[Row],
    rhymes: Sequence[tuple[str, int]],
    excluded: frozenset[int],
    seen: set[str],
    merged: bool,
    only: str,
) -> Generator[Candidate, None, None]:
    """Near rhymes, closest sound class first, rank order within a class: a class-1
    word is yielded as soon as it is decided, words of classes 2 and 3 wait here until
    the walk is over. A word's class is that of its closest row."""
    names = {rhyme_id: rhyme for rhyme, rhyme_id in rhymes}
    later: tuple[list[Candidate], list[Candidate]] = ([], [])
    best: Row = ()  # the closest row so far of the word being read
    best_class = 0
    current = -1  # its word id (none yet)
    keep = False
    for row in rows:
        key = row[_KEY]
        if key >> 2 == current:
            # A word with any pronunciation rhyming perfectly is not a near rhyme; its
            # perfect rows (edit 0) come through every filter.
            if not key & 3:
                keep = False
            elif keep and best_class > 1:
                query_rhyme = names[row[_QUERY_RHYME]] if merged else only
                cls = sound_class(query_rhyme, row[_RHYME], key & 3)
                if cls < best_class:
                    best, best_class = row, cls
            continue
        if keep:
            decided = _decided(best, best_class, seen, names if merged else None, only, later)
            if decided is not None:
                yield decided
        best = row
        current = key >> 2
        keep = key & 3 != 0 and current not in excluded
        if keep:
            query_rhyme = names[row[_QUERY_RHYME]] if merged else only
            best_class = sound_class(query_rhyme, row[_RHYME], key & 3)
    if keep:
        decided = _decided(best, best_class, seen, names if merged else None, only, later)
        if decided is not None:
            yield decided
    for bucket in later:
        yield from bucket


def _decided(
    row: Row,
    cls: int,
    seen: set[str],
    names: dict[int, str] | None,
    only: str,
    later: tuple[list[Candidate], list[Candidate]],
) -> Candidate | None:
    """A word's closest row, decided: the candidate to yield now (class 1), else None,
    having put a class 2 or 3 candidate in its `later` bucket."""
    candidate = _near_candidate(row, cls, seen, names, only)
    if candidate is None or cls == 1:
        return candidate
    later[cls - 2].append(candidate)
    return None


def _near_candidate(
    row: Row, cls: int, seen: set[str], names: dict[int, str] | None, only: str
) -> Candidate | None:
    """A decided near row as a candidate, unless its spelling was already listed."""
    text = row[_TEXT]
    candidate_fold = text.lower() if text.isascii() else fold(text)
    if candidate_fold in seen:
        return None
    seen.add(candidate_fold)
    pair = row[_SOURCES]
    query_rhyme = names[row[_QUERY_RHYME]] if names is not None else only
    return (
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
    )
