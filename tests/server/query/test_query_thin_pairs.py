"""A thin English pair filled through third languages (query/bridges.py), on the sample
build: the committed slices of eng-nld and nld-eng know no 'queen', while eng-deu and
eng-fra do, and the slices of deu-nld and fra-nld translate Königin and reine."""

from __future__ import annotations

from _support.provenance import assert_sources_complete

from lexicon_server.corpus.reader import Corpus
from lexicon_server.corpus.rows.translations import pair_sizes
from lexicon_server.query.bridges import bridge_languages, is_thin
from lexicon_server.query.translate import translate


def _texts(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [c.text for g in result.groups for c in g.candidates]


def test_the_builder_counts_each_pair(sample_corpus: Corpus) -> None:
    sizes = pair_sizes(sample_corpus.db("en", "lexical"))
    # eng-nld's two headwords and the English words nld-eng's entries name.
    assert sizes["nl"] < sizes["de"] and sizes["nl"] < sizes["fr"]
    assert pair_sizes(sample_corpus.db("de", "lexical"))["nl"] > 0


def test_english_to_dutch_is_thin_and_german_is_not(sample_corpus: Corpus) -> None:
    assert is_thin(sample_corpus, "en", "nl")
    assert not is_thin(sample_corpus, "en", "de")
    assert set(bridge_languages(sample_corpus, "en", "nl")) == {"de", "fr"}


def test_a_thin_pair_is_filled_through_two_languages_that_agree(sample_corpus: Corpus) -> None:
    result = translate(sample_corpus, "queen", "nl")
    assert result.found and result.note is None
    group = result.groups[-1]
    assert group.sense_scope == "pivot" and all(c.sense_scope == "pivot" for c in group.candidates)
    first = group.candidates[0]
    # Königin (deu-nld) and reine (fra-nld) both give koningin first.
    assert first.text == "koningin"
    assert set(first.via_languages) == {"de", "fr"}
    assert {"Königin", "reine"} <= set(first.via)
    assert len(first.via) == len(first.via_languages)
    texts = _texts(result)
    assert len(texts) == len(set(texts))  # no candidate twice
    assert_sources_complete(result.model_dump(mode="json"))


def test_a_direct_answer_comes_first_and_is_not_repeated(sample_corpus: Corpus) -> None:
    result = translate(sample_corpus, "dog", "nl")
    direct = [c.text for g in result.groups if g.sense_scope != "pivot" for c in g.candidates]
    assert direct and direct[0] == "hond"
    texts = _texts(result)
    assert texts[: len(direct)] == direct and len(texts) == len(set(texts))


def test_a_well_linked_pair_is_not_filled(sample_corpus: Corpus) -> None:
    result = translate(sample_corpus, "queen", "de")
    assert result.groups and all(g.sense_scope != "pivot" for g in result.groups)
