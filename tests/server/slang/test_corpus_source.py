"""Corpus meanings: the look-up key, slang-first ordering, hostile input stays data."""

from __future__ import annotations

from lexicon_server.corpus.reader import Corpus
from lexicon_server.slang import SLANG_TAGS, lookup
from lexicon_server.slang.corpus_source import corpus_definitions, norm


def test_norm_matches_the_documented_terms_norm() -> None:
    assert norm("  No\u00a0 CAP ") == "no cap"  # NBSP folds to a space under NFKC
    assert norm("ﬁne") == "fine"  # NFKC splits the ligature
    assert norm("Straße") == "strasse"  # casefold
    assert norm("no_cap") == "no cap"  # WordNet writes spaces as underscores


def test_lookup_ignores_case_and_spacing(corpus: Corpus) -> None:
    assert lookup("NO  CAP", corpus=corpus).definitions[0].headword == "no cap"


def test_tag_labels_are_compared_ignoring_case(corpus: Corpus) -> None:
    assert "internet" in SLANG_TAGS
    (d,) = corpus_definitions(corpus, "no cap", 5)
    assert d.slang and d.tags == ("slang", "Internet")


def test_any_sense_when_none_is_labelled(corpus: Corpus) -> None:
    (d,) = corpus_definitions(corpus, "headdress", 5)
    assert (d.text, d.slang, d.pos) == ("clothing for the head", False, "noun")


def test_hostile_phrase_is_only_a_parameter(corpus: Corpus) -> None:
    for phrase in ("'; DROP TABLE terms; --", "cap' OR '1'='1", "%", "_"):
        assert corpus_definitions(corpus, phrase, 5) == []
    assert corpus_definitions(corpus, "cap", 5)  # the table is still there


def test_wordnet_usage_domain_marks_a_sense_as_slang(corpus: Corpus) -> None:
    # Lexical pointer: only "cat" in the Caterpillar synset is slang, not "Caterpillar".
    first, second = corpus_definitions(corpus, "cat", 5)
    assert (first.text, first.slang, first.tags) == (
        "a large tracked vehicle",
        True,
        ("usage:slang",),
    )
    assert (second.text, second.slang) == ("a small domesticated feline", False)
    (caterpillar,) = corpus_definitions(corpus, "Caterpillar", 5)
    assert caterpillar.slang is False
    # Semantic pointer: every member of the synset carries the domain.
    (queen,) = corpus_definitions(corpus, "queen", 5)
    assert queen.slang and queen.tags == ("usage:disparagement",)
