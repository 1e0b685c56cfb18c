"""Property: any input to any dictionary tool gives a bounded result or a clear tool error,
and every result's `sources` map names exactly the sources its facts cite.

Run on the schema-built mini corpus (every reason reachable) and on the builder-made
sample corpus.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from _support.answers import error_of
from _support.provenance import assert_sources_complete
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp_types import CallToolResult
from pydantic import BaseModel

from lexicon_server.corpus.reader import Corpus
from lexicon_server.models import MAX_RESPONSE_CHARS
from lexicon_server.query.lookup import lookup
from lexicon_server.query.relations import RELATIONS, relations
from lexicon_server.query.semantic import VectorStore, semantic_neighbors
from lexicon_server.query.synonyms import synonyms
from lexicon_server.query.translate import translate
from lexicon_server.tools._shared import respond

WORDS = st.one_of(
    st.sampled_from(["dog", "dogs", "house", "set", "ran", "king", "good", "Canis familiaris"]),
    st.text(max_size=120),
)
LANGS = st.one_of(
    st.sampled_from(["en", "fr", "de", "xx", "EN", "pt-br", ""]), st.text(max_size=12)
)
INTS = st.integers(min_value=-3, max_value=110)
ALLOC = st.one_of(st.none(), INTS)
SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def check(corpus: Corpus, tool: str, query: Callable[[], BaseModel]) -> None:
    result = respond(corpus, query, tool)
    assert isinstance(result, CallToolResult)
    text = result.content[0].text  # type: ignore[union-attr]
    assert len(text) <= MAX_RESPONSE_CHARS
    if result.is_error:
        error = error_of(result)
        if error["reason"] in ("invalid_argument", "no_such_sense"):
            message = error["message"]
            assert message.startswith("invalid ") or "sense" in message, message
            assert len(message) < 1000
        else:
            assert error["reason"] in {
                "language_not_installed",
                "unknown_language",
                "capability_not_installed",
                "not_available_upstream",
            }
    else:
        assert result.structured_content is not None
        assert_sources_complete(result.structured_content)


@SETTINGS
@given(word=WORDS, language=LANGS, limit=INTS, e=INTS, p=INTS, t=INTS)
def test_lookup(
    any_corpus: Corpus, word: str, language: str, limit: int, e: int, p: int, t: int
) -> None:
    corpus = any_corpus
    check(corpus, "dictionary_lookup", lambda: lookup(corpus, word, language, limit, e, p, t))


@SETTINGS
@given(word=WORDS, language=LANGS, limit=INTS, max_senses=INTS, alloc=ALLOC)
def test_synonyms(
    any_corpus: Corpus, word: str, language: str, limit: int, max_senses: int, alloc: int | None
) -> None:
    corpus = any_corpus
    check(
        corpus,
        "dictionary_synonyms",
        lambda: synonyms(corpus, word, language, limit, max_senses, alloc),
    )


@SETTINGS
@given(
    word=WORDS,
    target=LANGS,
    source=LANGS,
    limit=INTS,
    max_senses=INTS,
    sense_id=st.one_of(st.none(), st.sampled_from(["en:s1", "en:s999999", "fr:s1", "x"])),
)
def test_translate(
    any_corpus: Corpus,
    word: str,
    target: str,
    source: str,
    limit: int,
    max_senses: int,
    sense_id: str | None,
) -> None:
    corpus = any_corpus
    check(
        corpus,
        "dictionary_translate",
        lambda: translate(corpus, word, target, source, limit, max_senses, sense_id),
    )


@SETTINGS
@given(
    word=WORDS,
    relation=st.one_of(st.sampled_from(sorted(RELATIONS)), st.text(max_size=20)),
    language=LANGS,
    limit=INTS,
    depth=st.integers(-1, 4),
    alloc=ALLOC,
)
def test_relations(
    any_corpus: Corpus,
    word: str,
    relation: str,
    language: str,
    limit: int,
    depth: int,
    alloc: int | None,
) -> None:
    corpus = any_corpus
    check(
        corpus,
        "dictionary_relations",
        lambda: relations(corpus, word, relation, language, limit, depth, alloc),
    )


@pytest.fixture
def store(any_corpus: Corpus) -> VectorStore:
    return VectorStore(any_corpus)


@pytest.fixture(params=["mini", "sample"])
def any_corpus(request: pytest.FixtureRequest) -> Corpus:
    name = "corpus" if request.param == "mini" else "sample_corpus"
    return request.getfixturevalue(name)  # type: ignore[no-any-return]


@SETTINGS
@given(word=WORDS, language=LANGS, target=st.one_of(st.none(), LANGS), limit=INTS)
def test_semantic(
    store: VectorStore, word: str, language: str, target: str | None, limit: int
) -> None:
    check(
        store.corpus,
        "dictionary_semantic_neighbors",
        lambda: semantic_neighbors(store, word, language, target, limit),
    )
