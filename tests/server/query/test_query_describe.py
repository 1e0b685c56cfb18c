"""The reverse dictionary: dictionary_semantic_neighbors asked with a phrase or description
(issue 30 item 2; lexicon_server/query/describe.py) on the mini corpus with its gloss index."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

import pytest
from _support.dumped import dumped

from lexicon_server.builder.gloss_index import write_gloss_index
from lexicon_server.corpus.reader import CapabilityUnavailable, Corpus
from lexicon_server.corpus.rows.glosses import index_stems, match_expression
from lexicon_server.errors import InvalidArgument
from lexicon_server.models import SemanticResult
from lexicon_server.query.describe import (
    STOPWORDS,
    description_genus,
    description_pos,
    description_tokens,
)
from lexicon_server.query.gloss_match import GlossMatcher
from lexicon_server.query.semantic import VectorStore, semantic_neighbors


@pytest.fixture
def indexed(mini_variant: Callable[[str, str, str], Corpus]) -> VectorStore:
    """The mini corpus with the gloss index the builder writes (added before any read)."""
    corpus = mini_variant("glosses", "en/lexical.sqlite", "SELECT 1")
    conn = sqlite3.connect(corpus.selection.files["en/lexical.sqlite"], isolation_level=None)
    conn.execute("BEGIN")
    assert write_gloss_index(conn) > 0
    conn.execute("COMMIT")
    conn.close()
    return VectorStore(corpus)


def test_a_description_finds_the_word_it_describes(indexed: VectorStore) -> None:
    result = semantic_neighbors(indexed, "a young dog")
    assert result.mode == "description" and result.found
    first = result.neighbors[0]
    assert (first.text, first.matched_gloss, first.source) == (
        "puppy",
        "a young dog",
        "wordnet-3.1",
    )
    assert result.searched_words == ["young", "dog"]
    assert result.scope == "monolingual" and result.searched_languages == ["en"]
    assert "dog" not in [n.text for n in result.neighbors]  # the description's own words
    assert set(result.sources) >= {"wordnet-3.1"}
    assert all(n.source in result.sources for n in result.neighbors)
    data = dumped(semantic_neighbors(indexed, "a young dog"))
    assert data["mode"] == "description" and "matched_gloss" in data["neighbors"][0]
    SemanticResult.model_validate(data)


def test_a_single_word_keeps_todays_answer(indexed: VectorStore, corpus: Corpus) -> None:
    before = VectorStore(corpus)
    for word in ("king", "KING", "zzzunknown"):
        now = dumped(semantic_neighbors(indexed, word, "en", None, 5))
        assert json.dumps(now) == json.dumps(
            dumped(semantic_neighbors(before, word, "en", None, 5))
        )
        assert "mode" not in now


def test_without_the_index_a_phrase_answers_as_before(corpus: Corpus) -> None:
    data = dumped(semantic_neighbors(VectorStore(corpus), "a young dog"))
    assert data["found"] is False and data["neighbors"] == [] and "mode" not in data


def test_cross_lingual_phrase_is_not_a_description(indexed: VectorStore) -> None:
    # Answered as before: here French vectors are not installed, so the same refusal.
    with pytest.raises(CapabilityUnavailable, match="capability_not_installed"):
        dumped(semantic_neighbors(indexed, "a young dog", "en", "fr"))


@pytest.mark.parametrize(
    "text",
    [
        'young" OR dog*',
        "NEAR(young dog)",
        "gloss: young ^dog",
        'a "young" - dog AND NOT x',
        "(((",
        "a b",
    ],
)
def test_fts_syntax_in_the_text_is_plain_words(indexed: VectorStore, text: str) -> None:
    data = dumped(semantic_neighbors(indexed, text))  # never an FTS5 syntax error
    SemanticResult.model_validate(data)


def test_bad_arguments_are_refused_naming_the_parameter(indexed: VectorStore) -> None:
    with pytest.raises(InvalidArgument, match="word"):
        dumped(semantic_neighbors(indexed, "a " * 60 + "dog"))
    with pytest.raises(InvalidArgument, match="word"):
        dumped(semantic_neighbors(indexed, "a young\x00dog"))
    with pytest.raises(InvalidArgument, match="limit"):
        dumped(semantic_neighbors(indexed, "a young dog", limit=0))


def test_tokens_and_match_expression() -> None:
    assert description_tokens("dog") is None
    assert description_tokens("a person who cannot sleep") == ["person", "cannot", "sleep"]
    assert description_tokens("of the") == ["of", "the"]  # nothing but function words
    assert match_expression(['a"b', "c"]) == '{gloss lemmas} : ("a""b" OR "c")'
    assert match_expression(["r"], ["o"]) == '{gloss lemmas} : (("r") AND ("r" OR "o"))'
    assert match_expression(["r"], kind="person") == '{kinds} : "person" AND {gloss lemmas} : ("r")'


def test_the_kind_a_description_names(indexed: VectorStore) -> None:
    conn = indexed.corpus.db("en", "lexical")
    assert description_genus(conn, "a young dog") == "dog"  # the last noun of the first run
    assert description_genus(conn, "someone who barks") == "person"
    assert description_genus(conn, "of the") is None


def test_the_part_of_speech_a_description_asks_for(indexed: VectorStore) -> None:
    conn = indexed.corpus.db("en", "lexical")
    assert description_pos(conn, "to bark loudly") == "verb"
    assert description_pos(conn, "a young dog") == "noun"
    assert description_pos(conn, "someone who barks") == "noun"
    assert description_pos(conn, "fear of heights") == "noun"  # a head noun before "of"
    assert description_pos(conn, "puppy that barks") == "noun"  # only a noun here
    assert description_pos(conn, "dog tired") == "adj"  # `dog` is a verb too
    assert description_pos(conn, "very young") == "adj"
    assert description_pos(conn, "") is None


def test_index_stems_are_the_index_tokenizer_s() -> None:
    stems = index_stems(["doctoral", "doctor", "sleeping", "teeth", "self-portrait", "Café"])
    assert stems["doctoral"] == stems["doctor"] == ("doctor",)
    assert stems["sleeping"] == ("sleep",)
    assert stems["teeth"] == ("teeth",)  # Porter leaves irregular plurals: lemma_norms does them
    assert stems["self-portrait"] == ("self", "portrait")
    assert stems["Café"] == ("cafe",)


def test_a_description_with_a_pattern_keeps_the_words_spelled_so(indexed: VectorStore) -> None:
    every = [n.text for n in semantic_neighbors(indexed, "a young dog", limit=100).neighbors]
    spelled = [w for w in every if w.isalpha() and w[0].lower() == every[1][0].lower()]
    # The second answer's initial: the pattern must reach past the first answer.
    assert every[0] not in spelled and spelled
    pattern = every[1][0].lower() + "*"
    result = semantic_neighbors(indexed, "a young dog", limit=1, pattern=pattern)
    assert result.mode == "description"
    assert [n.text for n in result.neighbors] == spelled[:1]
    # A spelling with a digit ('filler7') matches no pattern.
    fillers = semantic_neighbors(indexed, "a young dog", limit=100, pattern="f*")
    assert all(not n.text.startswith("filler") for n in fillers.neighbors)


def test_a_definition_match_counts_the_description_s_words(indexed: VectorStore) -> None:
    conn = indexed.corpus.db("en", "lexical")
    matcher = GlossMatcher(conn, ["young", "dog"], {"young": 1.0, "dog": 3.0})
    found = matcher.match({1: "a young dog", 2: "a dog", 3: "young dogs", 4: "a cat"}, STOPWORDS)
    assert [found[d].share for d in (1, 2, 3, 4)] == [1.0, 0.75, 1.0, 0.0]
    assert all(found[d].cosine == 0.0 for d in found)  # no vectors given


def test_the_words_stemmed_for_a_match_are_every_word_of_a_stem() -> None:
    # GlossMatcher stems only the words that begin with a stem less its last letter.
    words = ["day", "days", "studies", "happily", "relational", "possibly", "sensitivity"]
    for word, stems in index_stems(words).items():
        assert all(word.startswith(s[:-1] if len(s) > 2 else s) for s in stems), word
