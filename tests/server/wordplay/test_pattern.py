"""wordplay(kind='pattern') on the fixture slices plus a few whole-CMUdict lines."""

from __future__ import annotations

import fnmatch
import shutil
import sqlite3
from pathlib import Path

import pytest
from _support.dumped import dumped

from lexicon_server.corpus.reader import Corpus
from lexicon_server.errors import InvalidArgument
from lexicon_server.query.wordplay import wordplay


def _words(corpus: Corpus, pattern: str, **kwargs: object) -> list[str]:
    result = wordplay(corpus, pattern, "pattern", **kwargs)  # type: ignore[arg-type]
    return [m.word for m in result.results]


def test_c_any_t_gives_cat_cot_cut_first(play_corpus: Corpus) -> None:
    found = _words(play_corpus, "c?t", vocabulary="all")
    assert {"cat", "cot", "cut"} <= set(found[:4]), found
    assert all(len(w) == 3 and w.lower()[0] == "c" and w.lower()[2] == "t" for w in found)


def test_five_letters_ending_ght_led_by_the_common_ones(play_corpus: Corpus) -> None:
    result = wordplay(play_corpus, "??ght", "pattern", vocabulary="all")
    found = [m.word for m in result.results]
    assert found and all(len(w) == 5 and w.endswith("ght") for w in found), found
    assert {"night", "light", "might", "right", "fight", "eight"} <= set(found), found
    # The wordfreq slice has frequencies for its top words only (the rest rank 0, then by
    # spelling): those lead. The starter's order is checked in test_issue_checks.py.
    assert found[:2] == ["right", "night"]
    zipfs = [m.zipf for m in result.results]
    assert zipfs == sorted(zipfs, reverse=True)


def test_dictionary_words_by_default(play_corpus: Corpus) -> None:
    # The WordNet slice has cat and kat, not cot or cut, and the wordfreq slice finds
    # neither common: rare CMUdict-only spellings are left out. 'right' is no WordNet
    # lemma of the slice but common (Zipf >= 4), and 'might' a function word (a modal),
    # so both count (words.is_word).
    result = wordplay(play_corpus, "c?t", "pattern")
    assert result.vocabulary == "dictionary"
    assert [m.word for m in result.results] == ["cat"]
    assert result.results[0].spelling_source == "wordnet-3.1"
    assert result.sources["wordnet-3.1"]
    assert _words(play_corpus, "?ight") == ["right", "night", "might"]
    everything = wordplay(play_corpus, "c?t", "pattern", vocabulary="all").results
    assert [m.word for m in everything if m.dictionary_word] == ["cat"]  # first, unlabelled


def _brute_force(db: Path, pattern: str, dictionary: bool) -> list[str]:
    """Every matching letter string once, by its first word's rank, read straight from the
    tables with fnmatch (an independent reading of ? and *)."""
    conn = sqlite3.connect(db)
    seen: dict[str, str] = {}
    for text, letters, is_word in conn.execute(
        "SELECT text, letters, is_word FROM words WHERE is_single = 1 ORDER BY id"
    ):
        if dictionary and not is_word:
            continue
        if fnmatch.fnmatchcase(letters, pattern) and letters not in seen:
            seen[letters] = text
    conn.close()
    return list(seen.values())


@pytest.mark.parametrize("pattern", ["c?t", "*ght", "?a*", "*", "s*s", "*e*e*", "??", "q*"])
@pytest.mark.parametrize("vocabulary", ["dictionary", "all"])
def test_same_as_a_scan_of_the_words(
    play_db: Path, play_corpus: Corpus, pattern: str, vocabulary: str
) -> None:
    expected = _brute_force(play_db, pattern, vocabulary == "dictionary")
    result = wordplay(play_corpus, pattern, "pattern", limit=100, vocabulary=vocabulary)
    assert [m.word for m in result.results] == expected[:100]
    assert result.truncated == (len(expected) > 100)


def test_case_is_folded_and_star_runs_join(play_corpus: Corpus) -> None:
    assert _words(play_corpus, "**ght") == _words(play_corpus, "*ght")
    assert _words(play_corpus, "C?T", vocabulary="all") == _words(
        play_corpus, "c?t", vocabulary="all"
    )


@pytest.mark.parametrize(
    "text", ["c.t", "c[a]t", "c t", "c%t", "c_t", "c't", "(c)", "c+", "c\\t", "ça?", "c?t|x"]
)
def test_other_characters_are_refused_naming_text(play_corpus: Corpus, text: str) -> None:
    with pytest.raises(InvalidArgument) as caught:
        wordplay(play_corpus, text, "pattern")
    assert caught.value.parameter == "text"
    assert "'?' for any one letter" in str(caught.value)


@pytest.mark.parametrize(("kind", "vocabulary"), [("spoonerism", "all"), ("pattern", "words")])
def test_vocabulary_is_checked(play_corpus: Corpus, kind: str, vocabulary: str) -> None:
    with pytest.raises(InvalidArgument) as caught:
        wordplay(play_corpus, "cat", kind, vocabulary=vocabulary)
    assert caught.value.parameter == "vocabulary"


def test_truncated_and_limit(play_corpus: Corpus) -> None:
    result = wordplay(play_corpus, "*", "pattern", limit=3, vocabulary="all")
    assert len(result.results) == 3 and result.truncated
    zipfs = [m.zipf for m in result.results]
    assert zipfs == sorted(zipfs, reverse=True)


def test_plain_data_is_the_typed_dump(play_corpus: Corpus) -> None:
    data = dumped(wordplay(play_corpus, "??ght", "pattern", vocabulary="all"))
    typed = wordplay(play_corpus, "??ght", "pattern", vocabulary="all")
    assert data == typed.model_dump(mode="json")
    assert list(data) == list(typed.model_dump(mode="json"))


def test_a_database_without_the_keys_answers_the_same(
    play_db: Path, play_corpus: Corpus, make_corpus: object, tmp_path: Path
) -> None:
    old = tmp_path / "wordplay.sqlite"
    shutil.copy(play_db, old)
    conn = sqlite3.connect(old)
    conn.execute("DROP TABLE pattern_buckets")
    conn.execute("DELETE FROM meta WHERE key = 'play_keys'")
    conn.commit()
    conn.close()
    corpus = make_corpus(old)  # type: ignore[operator]
    try:
        for pattern in ("c?t", "*ght", "?a*"):
            for vocabulary in ("dictionary", "all"):
                before = _words(play_corpus, pattern, vocabulary=vocabulary)
                assert _words(corpus, pattern, vocabulary=vocabulary) == before
        with pytest.raises(InvalidArgument) as caught:
            wordplay(corpus, "nite", "sounds_like")
        assert caught.value.parameter == "kind" and "newer" in str(caught.value)
    finally:
        corpus.close()
