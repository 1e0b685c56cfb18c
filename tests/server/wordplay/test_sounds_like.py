"""wordplay(kind='sounds_like') and its letter-to-sound rules, on the fixture slices plus a
few whole-CMUdict lines."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from _support.dictionary_words import dictionary_first
from _support.dumped import dumped
from _support.rhyme_oracle import phone_distance

from lexicon_server.corpus.reader import Corpus
from lexicon_server.errors import InvalidArgument
from lexicon_server.query.wordplay import wordplay
from lexicon_server.query.wordplay_letter_sounds import letter_sounds


@pytest.mark.parametrize(
    ("spelling", "phones"),
    [
        ("fone", "F OW N"),
        ("nite", "N AY T"),
        ("phone", "F OW N"),
        ("kwik", "K W IH K"),
        ("rite", "R AY T"),
        ("laff", "L AE F"),
        ("skool", "S K UW L"),
        ("becuz", "B EH K AH Z"),
        ("happy", "HH AE P IY"),
        ("my", "M AY"),
        ("cent", "S EH N T"),
        ("hoped", "HH OW P D"),
        ("knight", "N AY T"),
        ("nation", "N AE SH AH N"),
    ],
)
def test_letter_to_sound_rules(spelling: str, phones: str) -> None:
    assert " ".join(letter_sounds(spelling)) == phones


def _bare(phones: str) -> list[str]:
    return [token.rstrip("012") for token in phones.split()]


def test_unknown_spellings_go_through_letter_to_sound(play_corpus: Corpus) -> None:
    nite = wordplay(play_corpus, "nite", "sounds_like")
    assert nite.phones_from == "letter_to_sound" and nite.query_phones == ["N AY T"]
    assert [s.word for s in nite.results[:2]] == ["night", "knight"]  # dictionary words
    assert all(s.distance == 0 for s in nite.results[:2])
    fone = wordplay(play_corpus, "fone", "sounds_like", vocabulary="all")
    assert "phone" in [s.word for s in fone.results[:10]]
    # 'phone' is no dictionary word of the slices: it leads the others, after the words.
    marks = dictionary_first(play_corpus, [s.word for s in fone.results])
    others = [s for s in fone.results if not marks[s.word]]
    assert others[0].word == "phone" and others[0].distance == 0


def test_known_words_use_cmudict_and_leave_themselves_out(play_corpus: Corpus) -> None:
    result = wordplay(play_corpus, "Night", "sounds_like", vocabulary="all")
    assert result.phones_from == "cmudict" and result.query_phones == ["N AY1 T"]
    assert "night" in result.query_words
    words = [s.word for s in result.results]
    assert "night" not in words and words[0] == "knight"
    for sound in result.results:
        assert sound.pronunciation_source == "cmudict"
        assert result.sources[sound.spelling_source] and result.sources["cmudict"]


@pytest.mark.parametrize("text", ["fone", "nite", "cat", "light", "kwik", "unstable"])
def test_distances_order_and_completeness(play_db: Path, play_corpus: Corpus, text: str) -> None:
    result = wordplay(play_corpus, text, "sounds_like", vocabulary="all", limit=100)
    queries = [_bare(p) for p in result.query_phones]
    # Dictionary words first (names and rare spellings after them), each closest first.
    marks = dictionary_first(play_corpus, [s.word for s in result.results])
    keys = [(not marks[s.word], s.distance) for s in result.results]
    assert keys == sorted(keys)
    for sound in result.results:  # the distance is the exact phoneme edit distance
        assert sound.distance == min(phone_distance(q, _bare(sound.phones)) for q in queries)
    # Every word within one phoneme edit is found (scan of the whole table, independently).
    conn = sqlite3.connect(play_db)
    near = {
        word.lower()
        for word, phones in conn.execute(
            "SELECT w.text, p.phones FROM prons p JOIN words w ON w.id = p.word_id"
        )
        if min(phone_distance(q, _bare(phones)) for q in queries) <= 1
    }
    conn.close()
    near.discard(text)
    if not result.truncated:
        assert near <= {s.word.lower() for s in result.results}


def test_ties_go_to_the_more_frequent(play_corpus: Corpus) -> None:
    result = wordplay(play_corpus, "cat", "sounds_like", vocabulary="all", limit=100)
    marks = dictionary_first(play_corpus, [s.word for s in result.results])
    for first, second in zip(result.results, result.results[1:], strict=False):
        if first.distance == second.distance and marks[first.word] == marks[second.word]:
            assert first.zipf >= second.zipf


@pytest.mark.parametrize("text", ["12", "a b c", "c?t", "x_y"])
def test_text_that_is_no_word_is_refused(play_corpus: Corpus, text: str) -> None:
    with pytest.raises(InvalidArgument) as caught:
        wordplay(play_corpus, text, "sounds_like")
    assert caught.value.parameter == "text"
    assert "kind='sounds_like'" in str(caught.value)


def test_plain_data_is_the_typed_dump(play_corpus: Corpus) -> None:
    data = dumped(wordplay(play_corpus, "fone", "sounds_like", vocabulary="all"))
    typed = wordplay(play_corpus, "fone", "sounds_like", vocabulary="all")
    assert data == typed.model_dump(mode="json")
    assert list(data) == list(typed.model_dump(mode="json"))
