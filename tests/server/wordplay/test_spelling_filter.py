"""The `pattern` argument of rhymes (and of synonyms and semantic neighbours): checked like
wordplay kind='pattern', matched without backtracking, applied before the limit."""

from __future__ import annotations

import fnmatch
import random

import pytest

from lexicon_server.corpus.reader import Corpus
from lexicon_server.errors import InvalidArgument
from lexicon_server.query.rhymes import rhymes
from lexicon_server.query.spelling_pattern import spelling_filter, spelling_form


def test_glob_agrees_with_fnmatch_on_random_patterns() -> None:
    generator = random.Random(30)
    for _ in range(3000):
        word = "".join(generator.choice("abc") for _ in range(generator.randint(0, 9)))
        pattern = "".join(generator.choice("ab??**c") for _ in range(generator.randint(1, 7)))
        spelled = spelling_filter(pattern)
        assert spelled is not None
        assert spelled(word) == fnmatch.fnmatchcase(word, spelled.pattern), (word, pattern)


def test_many_stars_on_a_near_miss_answer() -> None:
    # A regular expression backtracks through every split of the a's here (minutes).
    spelled = spelling_filter("*a" * 20 + "*b")
    assert spelled is not None
    assert not spelled("a" * 40)
    assert spelled("a" * 40 + "b")


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("Café", "cafe"),
        ("well-off", "welloff"),
        ("o'clock", "oclock"),
        ("Ｃａｔ", "cat"),
        ("Straße", "strasse"),
        ("just right", None),
        ("smørrebrød", None),
        ("χαρά", None),
        ("4x4", None),
    ],
)
def test_spelling_forms(text: str, form: str | None) -> None:
    assert spelling_form(text) == form


@pytest.mark.parametrize("pattern", ["j.*", "[a-z]", "   ", "a b", "j%", "x" * 101])
def test_bad_patterns_name_the_parameter_and_the_form(slice_corpus: Corpus, pattern: str) -> None:
    with pytest.raises(InvalidArgument) as caught:
        rhymes(slice_corpus, "cat", pattern=pattern)
    assert caught.value.parameter == "pattern"


def test_the_refusal_says_what_a_pattern_is() -> None:
    with pytest.raises(InvalidArgument) as caught:
        spelling_filter("j.*")
    assert "'?' for any one letter" in str(caught.value) and "'j.*'" in str(caught.value)


@pytest.mark.parametrize("vocabulary", ["dictionary", "all"])
@pytest.mark.parametrize(
    ("word", "mode", "pattern"),
    [
        ("cat", "perfect", "?at"),
        ("night", "perfect", "k*"),
        ("cat", "near", "*t"),
        ("night", "near", "?at"),
        ("read", "near", "?e*"),
    ],
)
def test_rhymes_are_filtered_before_the_limit(
    slice_corpus: Corpus, mode: str, vocabulary: str, word: str, pattern: str
) -> None:
    every = rhymes(slice_corpus, word, mode=mode, limit=100, vocabulary=vocabulary).results
    spelled = [r.word for r in every if fnmatch.fnmatchcase(r.word.lower(), pattern)]
    assert spelled, "the slice has such rhymes"
    for limit in (1, 2, 100):
        result = rhymes(
            slice_corpus, word, mode=mode, limit=limit, vocabulary=vocabulary, pattern=pattern
        )
        assert [r.word for r in result.results] == spelled[:limit]
        assert result.truncated == (len(spelled) > limit)


def test_the_pattern_is_folded_and_an_empty_one_is_none(slice_corpus: Corpus) -> None:
    folded = rhymes(slice_corpus, "cat", pattern="H**", vocabulary="all")
    assert folded.results and all(r.word.lower().startswith("h") for r in folded.results)
    assert folded == rhymes(slice_corpus, "cat", pattern="h*", vocabulary="all")
    assert rhymes(slice_corpus, "cat", pattern="") == rhymes(slice_corpus, "cat")
