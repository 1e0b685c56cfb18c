"""wordplay(kind='anagram') on the real fixture slices."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from lexicon_server.corpus.reader import Corpus
from lexicon_server.errors import InvalidArgument
from lexicon_server.query.wordplay import wordplay


def test_listen_finds_silent_and_excludes_itself(slice_corpus: Corpus) -> None:
    result = wordplay(slice_corpus, "listen", "anagram", vocabulary="all")
    words = [a.word for a in result.results]
    assert {"silent", "enlist", "tinsel", "inlets"} <= set(words)
    assert "listen" not in words
    assert result.letters == "listen" and len(result.results) == len(words)
    for a in result.results:
        assert sorted(a.letters) == sorted("listen")
        assert a.spelling_source in {"cmudict", "wordnet-3.1"}
        assert result.sources[a.spelling_source]
        assert a.pronunciation_source is None  # an anagram is about letters only


def test_query_spelling_is_excluded_whatever_its_case(slice_corpus: Corpus) -> None:
    words = [a.word.casefold() for a in wordplay(slice_corpus, "LISTEN", "anagram").results]
    assert "listen" not in words and "silent" in words


def test_only_single_alphabetic_headwords_are_claimed(slice_db: Path, slice_corpus: Corpus) -> None:
    conn = sqlite3.connect(slice_db)
    # The slice has "a's" and "a." whose letters are 'as' and 'a'; neither is a word of letters.
    assert conn.execute("SELECT count(*) FROM words WHERE text IN ('a''s', 'a.')").fetchone()[0]
    words = [a.word for a in wordplay(slice_corpus, "sa", "anagram").results]
    assert "a's" not in words
    multi = conn.execute("SELECT text FROM words WHERE text LIKE '% %' LIMIT 50").fetchall()
    assert multi, "the WordNet slice has multi-word lemmas"
    for (text,) in multi:
        for a in wordplay(slice_corpus, text, "anagram").results:
            assert a.word.isalpha() and a.word.isascii(), a.word


def test_ranked_by_frequency(slice_corpus: Corpus) -> None:
    zipfs = [a.zipf for a in wordplay(slice_corpus, "listen", "anagram").results]
    assert zipfs == sorted(zipfs, reverse=True)


def test_phrase_query_uses_its_letters(slice_corpus: Corpus) -> None:
    words = [a.word for a in wordplay(slice_corpus, "Tin Sel!", "anagram").results]
    assert "listen" in words and "tinsel" not in words


def test_text_without_letters_is_refused(slice_corpus: Corpus) -> None:
    with pytest.raises(InvalidArgument) as caught:
        wordplay(slice_corpus, "1234 !!", "anagram")
    assert caught.value.parameter == "text"


def test_limit_truncates(slice_corpus: Corpus) -> None:
    result = wordplay(slice_corpus, "listen", "anagram", limit=1, vocabulary="all")
    assert len(result.results) == 1 and result.truncated
