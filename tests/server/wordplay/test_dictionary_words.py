"""Rhymes and wordplay leave names and rare spellings out by default (`words.is_word`);
vocabulary='all' lists them after every dictionary word, each labelled."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from _support.dictionary_words import near_rank

from lexicon_server.corpus.reader import Corpus
from lexicon_server.query.rhymes import rhymes
from lexicon_server.query.wordplay import wordplay


def _is_word(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        return dict(conn.execute("SELECT text, is_word FROM words").fetchall())


@pytest.mark.parametrize("mode", ["perfect", "near"])
@pytest.mark.parametrize("word", ["cat", "read", "flower", "listen", "night"])
def test_rhymes_leave_out_names_unless_asked(
    slice_db: Path, slice_corpus: Corpus, mode: str, word: str
) -> None:
    marks = _is_word(slice_db)
    default = rhymes(slice_corpus, word, mode=mode, limit=100)
    every = rhymes(slice_corpus, word, mode=mode, limit=100, vocabulary="all")
    assert all(marks[r.word] and r.dictionary_word for r in default.results)
    assert [r.dictionary_word for r in every.results] == [
        bool(marks[r.word]) for r in every.results
    ]
    labels = [r.dictionary_word for r in every.results]
    assert labels == sorted(labels, reverse=True)  # every dictionary word first
    assert [r.word for r in every.results if r.dictionary_word] == [r.word for r in default.results]


@pytest.mark.parametrize("word", ["cat", "read", "flower", "night", "that", "hat"])
def test_near_rhymes_prefer_content_words_and_a_changed_sound(
    slice_corpus: Corpus, word: str
) -> None:
    results = rhymes(slice_corpus, word, mode="near", limit=100, vocabulary="all").results
    tiers = [near_rank(r, r.dictionary_word) for r in results]
    assert tiers == sorted(tiers)


@pytest.mark.parametrize(
    ("text", "kind"), [("listen", "anagram"), ("level", "palindrome"), ("c?t", "pattern")]
)
def test_wordplay_labels_what_it_lists_with_all(
    play_db: Path, play_corpus: Corpus, text: str, kind: str
) -> None:
    marks = _is_word(play_db)
    default = wordplay(play_corpus, text, kind, limit=100).results
    every = wordplay(play_corpus, text, kind, limit=100, vocabulary="all").results
    assert all(marks[c.word] for c in default)
    assert [c.dictionary_word for c in every] == [bool(marks[c.word]) for c in every]
    assert any(not c.dictionary_word for c in every), "the slices have names or rare spellings"
    if kind != "palindrome":  # palindromes keep their (letters, id) walk order
        labels = [c.dictionary_word for c in every]
        assert labels == sorted(labels, reverse=True)
