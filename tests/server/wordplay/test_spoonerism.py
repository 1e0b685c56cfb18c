"""wordplay(kind='spoonerism') on the real fixture slices and the whole CMUdict."""

from __future__ import annotations

import pytest

from lexicon_server.corpus.reader import Corpus
from lexicon_server.errors import InvalidArgument
from lexicon_server.query.wordplay import wordplay


def test_swap_with_one_half_missing_is_a_generated_candidate(slice_corpus: Corpus) -> None:
    # The slice has 'belly' but not 'jeans'.
    result = wordplay(slice_corpus, "jelly beans", "spoonerism")
    assert len(result.results) == 1
    swap = result.results[0]
    assert swap.swapped_phones == ["B EH1 L IY0", "JH IY1 N Z"]
    assert swap.source_phones == ["JH EH1 L IY0", "B IY1 N Z"]
    assert swap.onsets == ["JH", "B"]
    assert swap.lexicality_scope == "generated_candidate"
    assert swap.first_headwords == ["belly"] and swap.second_headwords == []
    assert swap.word == "belly /JH IY1 N Z/"
    assert swap.pronunciation_source == "cmudict" and swap.spelling_sources


def test_unknown_word_is_reported_not_guessed(slice_corpus: Corpus) -> None:
    result = wordplay(slice_corpus, "belly jeans", "spoonerism")
    assert result.unresolved == ["jeans"] and result.results == []


def test_identical_and_empty_onsets_are_never_swapped(slice_corpus: Corpus) -> None:
    assert wordplay(slice_corpus, "cat cap", "spoonerism").results == []  # K and K
    assert wordplay(slice_corpus, "earth either", "spoonerism").results == []  # '' and ''


@pytest.mark.parametrize("text", ["belly", "belly jeans jam", "  one  "])
def test_exactly_two_words_are_required(slice_corpus: Corpus, text: str) -> None:
    with pytest.raises(InvalidArgument) as caught:
        wordplay(slice_corpus, text, "spoonerism")
    assert caught.value.parameter == "text"
    assert "two" in str(caught.value)


@pytest.mark.slow
def test_belly_jeans_spoonerizes_to_jelly_beans(cmudict_corpus: Corpus) -> None:
    result = wordplay(cmudict_corpus, "belly jeans", "spoonerism")
    lexical = [s for s in result.results if s.lexicality_scope == "lexical_term"]
    assert lexical, result
    best = lexical[0]
    assert best.word == "jelly beans"
    assert "jelly" in best.first_headwords and "beans" in best.second_headwords
    # Every spelling of the swapped sounds is listed, not only the first.
    assert len(best.first_headwords) + len(best.second_headwords) >= 2


@pytest.mark.slow
def test_vowel_initial_word_swaps_with_a_consonant_onset(cmudict_corpus: Corpus) -> None:
    result = wordplay(cmudict_corpus, "eat hat", "spoonerism")
    assert result.results
    swap = result.results[0]
    assert swap.onsets == ["", "HH"]
    assert swap.swapped_phones == ["HH IY1 T", "AE1 T"]
    assert "heat" in swap.first_headwords and "at" in swap.second_headwords
    assert swap.lexicality_scope == "lexical_term"


def test_a_word_given_twice_is_listed_once(slice_corpus: Corpus) -> None:
    result = wordplay(slice_corpus, "belly belly", "spoonerism")
    assert result.query_words == ["belly"]
    assert result.results == []  # the same onsets: nothing to swap
