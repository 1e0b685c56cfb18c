"""Wordplay keys (`en/wordplay.sqlite`): words by spelling, signature or palindrome
letters, their pronunciations, rhyme documents and synsets; and, from the lexical
component, a word's synsets in sense order and a synset's gloss."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any

from lexicon_server.corpus.rows.facts import ID_LIST, id_list

__all__ = [
    "anagram_words",
    "dictionary_words_end",
    "distinct_phones",
    "folded_pronunciations",
    "homophones",
    "palindrome_words",
    "pattern_bucket",
    "pattern_lengths",
    "pattern_words",
    "pronunciations_of_words",
    "rhyme_document",
    "sound_neighbours",
    "spelled_pronunciations",
    "spelling_frequency",
    "synset_gloss",
    "synsets_in_sense_order",
    "word_synsets",
    "words_by_id",
    "words_spelled",
]


def words_spelled(conn: sqlite3.Connection, spellings: Sequence[str]) -> list[tuple[int, str, int]]:
    """(id, text, source id) of the words spelled exactly one of `spellings`, by id."""
    sql = f"SELECT id, text, source_id FROM words WHERE text IN {ID_LIST} ORDER BY id"
    return conn.execute(sql, (json.dumps(list(spellings), ensure_ascii=False),)).fetchall()


def dictionary_words_end(conn: sqlite3.Connection) -> int:
    """The largest id of a dictionary word (`words.is_word`): the writer numbers them
    first (meta `word_order` = `dictionary_first`), so every id above it is a name or a
    rare spelling. Found by bisection, a few point reads. A database without that order
    has no such mark: every word counts."""
    (last,) = conn.execute("SELECT coalesce(max(id), 0) FROM words").fetchone()
    order = conn.execute("SELECT value FROM meta WHERE key = 'word_order'").fetchone()
    if order is None or order[0] != "dictionary_first":
        return int(last)
    low, high = 0, int(last)  # ids up to `low` are words, ids above `high` are not
    while low < high:
        middle = (low + high + 1) // 2
        row = conn.execute(
            "SELECT is_word FROM words WHERE id <= ? ORDER BY id DESC LIMIT 1", (middle,)
        ).fetchone()
        if row is not None and row[0]:
            low = middle
        else:
            high = middle - 1
    return low


_PRON_COLUMNS = "p.id, w.id, w.text, p.variant, p.phones, p.rhyme, p.syllables, p.rhyme_id"
# Databases with rhyme documents: one index range of spelling_prons, in pron-id order.
_FOLDED_PRONS = (
    "SELECT pron_id, word_id, text, variant, phones, rhyme, syllables, rhyme_id "
    "FROM spelling_prons WHERE fold = ?"
)
# Others: one equality probe per spelling, joined by UNION ALL (about 2 µs cheaper per
# query than `text IN (...)`).
_SPELLED_PRONS = (
    f"SELECT {_PRON_COLUMNS} FROM words w JOIN prons p ON p.word_id = w.id WHERE w.text = ?"
)
_SPELLED_PRONS_BY_COUNT = ["", *(" UNION ALL ".join([_SPELLED_PRONS] * n) for n in range(1, 7))]


_SPELLING_ZIPF = (
    "SELECT max(w.zipf), (SELECT p.syllables FROM prons p JOIN words x ON x.id = p.word_id "
    "WHERE x.text = ? ORDER BY p.id LIMIT 1) FROM words w WHERE w.text = ? AND w.zipf > 0"
)


def spelling_frequency(conn: sqlite3.Connection, folded: str) -> tuple[float | None, int | None]:
    """The wordfreq Zipf value of the spelling `folded` and the syllables of its first
    pronunciation (each None when unknown)."""
    row = conn.execute(_SPELLING_ZIPF, (folded, folded)).fetchone()
    return (None, None) if row is None else (row[0], row[1])


def folded_pronunciations(conn: sqlite3.Connection, folded: str) -> list[tuple[Any, ...]]:
    """(pron id, word id, text, variant, phones, rhyme, syllables, rhyme id) of the words
    whose fold is `folded` (a database with rhyme documents), in pron id order."""
    return conn.execute(_FOLDED_PRONS, (folded,)).fetchall()


def spelled_pronunciations(
    conn: sqlite3.Connection, spellings: Sequence[str]
) -> list[tuple[Any, ...]]:
    """The same rows for the words spelled exactly one of (at most six) `spellings`,
    unordered."""
    return conn.execute(_SPELLED_PRONS_BY_COUNT[len(spellings)], tuple(spellings)).fetchall()


_DOCUMENT = {
    "perfect": "SELECT perfect FROM rhyme_docs WHERE rhyme_id = ?",
    "near": "SELECT near FROM rhyme_docs WHERE rhyme_id = ?",
}


def rhyme_document(conn: sqlite3.Connection, rhyme_id: int, mode: str) -> str | None:
    """The stored `mode` ('perfect' or 'near') document of a rhyme, or None."""
    row = conn.execute(_DOCUMENT[mode], (rhyme_id,)).fetchone()
    return None if row is None else str(row[0])


def anagram_words(conn: sqlite3.Connection, signature: str) -> Iterator[tuple[Any, ...]]:
    """(id, text, letters, zipf, source id) of the single words of letter `signature`, in
    id (rank) order, read as iterated."""
    # `is_single = 1` lets SQLite use the partial signature index.
    return conn.execute(
        "SELECT id, text, letters, zipf, source_id FROM words "
        "WHERE signature = ? AND is_single = 1 ORDER BY id",
        (signature,),
    )


def palindrome_words(
    conn: sqlite3.Connection, letters: str, after: bool
) -> Iterator[tuple[int, str, str, int]]:
    """(id, text, letters, source id) of the palindromes from `letters` on (`after`), or
    before them, in (letters, id) order, read as iterated."""
    compare = ">=" if after else "<"
    return conn.execute(
        "SELECT id, text, letters, source_id FROM words "
        f"WHERE is_palindrome = 1 AND letters {compare} ? ORDER BY letters, id",
        (letters,),
    )


def pronunciations_of_words(
    conn: sqlite3.Connection, word_ids: Sequence[int]
) -> list[tuple[str, str, str, int]]:
    """(phones, onset, rest, source id) of the words' pronunciations, by word then variant."""
    sql = (
        f"SELECT phones, onset, rest, source_id FROM prons WHERE word_id IN {ID_LIST} "
        "ORDER BY word_id, variant"
    )
    return conn.execute(sql, (id_list(word_ids),)).fetchall()


def distinct_phones(conn: sqlite3.Connection, word_ids: Sequence[int]) -> list[str]:
    """The words' distinct phone strings, first pronunciation first."""
    sql = f"SELECT DISTINCT phones FROM prons WHERE word_id IN {ID_LIST} ORDER BY id"
    return [row[0] for row in conn.execute(sql, (id_list(word_ids),))]


def homophones(conn: sqlite3.Connection, phones: str) -> list[tuple[int, str, int, int]]:
    """(word id, text, spelling source id, pronunciation source id) of every word
    pronounced exactly `phones`, by word id."""
    return conn.execute(
        "SELECT w.id, w.text, w.source_id, p.source_id FROM prons p "
        "JOIN words w ON w.id = p.word_id WHERE p.phones = ? ORDER BY w.id",
        (phones,),
    ).fetchall()


def word_synsets(conn: sqlite3.Connection, word_ids: Sequence[int]) -> list[str]:
    """The distinct synsets (external ids) of the words, sorted."""
    if not word_ids:
        return []
    sql = f"SELECT DISTINCT synset FROM word_synsets WHERE word_id IN {ID_LIST} ORDER BY synset"
    return [row[0] for row in conn.execute(sql, (id_list(word_ids),))]


# The word's synsets in the dictionary's sense order: the term spelled as given first
# ('night' before the goddess 'Night'), then by sense rank, so each part of speech's
# first sense comes before any second one, then by entry.
_SENSE_ORDER = (
    "SELECT y.external_id FROM terms t JOIN entries e ON e.term_id = t.id "
    "JOIN senses s ON s.entry_id = e.id JOIN synsets y ON y.id = s.synset_id "
    "WHERE t.norm = ? ORDER BY t.text <> ?, s.rank, e.id, s.id"
)


def synsets_in_sense_order(lexical: sqlite3.Connection, norm: str, word: str) -> list[str]:
    """(Lexical component) the synsets of the terms spelled `norm`, `word`'s own spelling
    first, then in sense rank, entry and sense order (repeats kept)."""
    return [row[0] for row in lexical.execute(_SENSE_ORDER, (norm, word))]


def synset_gloss(lexical: sqlite3.Connection, synset: str) -> str | None:
    """(Lexical component) the gloss of the synset with external id `synset`."""
    row = lexical.execute("SELECT gloss FROM synsets WHERE external_id = ?", (synset,))
    found = row.fetchone()
    return None if found is None else str(found[0])


def pattern_bucket(conn: sqlite3.Connection, scope: int, length: int) -> tuple[str, bytes] | None:
    """(letters, word ids) of the stored pattern bucket of `scope` and letter count, or None
    when the database has none."""
    row = conn.execute(
        "SELECT letters, word_ids FROM pattern_buckets WHERE scope = ? AND length = ?",
        (scope, length),
    ).fetchone()
    return None if row is None else (str(row[0]), bytes(row[1]))


def pattern_words(conn: sqlite3.Connection) -> list[tuple[int, str, str, bool]]:
    """(id, text, letters, has a synset) of every single-token word, in id (rank) order:
    what the pattern buckets are made of, for a database written without them."""
    return conn.execute(
        "SELECT w.id, w.text, w.letters, EXISTS "
        "(SELECT 1 FROM word_synsets s WHERE s.word_id = w.id) "
        "FROM words w WHERE w.is_single = 1 ORDER BY w.id"
    ).fetchall()


def words_by_id(conn: sqlite3.Connection, word_ids: Sequence[int]) -> list[tuple[Any, ...]]:
    """(id, text, letters, zipf, source id) of the words, in id order."""
    sql = f"SELECT id, text, letters, zipf, source_id FROM words WHERE id IN {ID_LIST} ORDER BY id"
    return conn.execute(sql, (id_list(word_ids),)).fetchall()


def sound_neighbours(
    conn: sqlite3.Connection, keys: Sequence[str], dictionary_only: bool
) -> list[tuple[Any, ...]]:
    """(pron id, phones, word id, text, zipf, spelling source, pronunciation source) of the
    pronunciations filed under one of the sound `keys`, each once, unordered."""
    sql = (
        "SELECT DISTINCT p.id, p.phones, w.id, w.text, w.zipf, w.source_id, p.source_id "
        "FROM sound_keys k JOIN prons p ON p.id = k.pron_id JOIN words w ON w.id = p.word_id "
        f"WHERE k.key IN {ID_LIST} AND k.dictionary >= ?"
    )
    found = conn.execute(sql, (json.dumps(list(keys)), int(dictionary_only)))
    return found.fetchall()


def pattern_lengths(conn: sqlite3.Connection, scope: int) -> list[int]:
    """The letter counts that have a stored pattern bucket of `scope`, ascending."""
    rows = conn.execute(
        "SELECT length FROM pattern_buckets WHERE scope = ? ORDER BY length", (scope,)
    )
    return [int(row[0]) for row in rows]
