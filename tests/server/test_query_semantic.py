"""dictionary_semantic_neighbors: scoping, exact re-rank against brute force, reasons."""

from __future__ import annotations

import numpy as np
import pytest
from _support.provenance import assert_sources_complete

from lexicon_server.corpus.reader import CapabilityUnavailable, Corpus
from lexicon_server.errors import InvalidArgument
from lexicon_server.models import SemanticResult
from lexicon_server.query.semantic import VectorStore, semantic_data, semantic_neighbors


def test_neighbours_match_exact_search(corpus: Corpus) -> None:
    store = VectorStore(corpus)
    result = semantic_neighbors(store, "king", limit=5)
    assert result.found and result.count == 5
    texts = [n.text for n in result.neighbors]
    assert "king" not in texts
    assert set(texts[:3]) == {"queen", "prince", "princess"}
    # brute force over the same float16 matrix
    matrix = np.load(corpus.path("en/semantic.f16.npy")).astype(np.float32)
    query = matrix[0] / np.linalg.norm(matrix[0])
    scores = matrix @ query
    scores[0] = -np.inf
    best = np.argsort(-scores)[:5]
    assert [round(float(scores[i]), 4) for i in best] == [
        round(n.score, 4) for n in result.neighbors
    ]
    assert all(n.source == "wordnet-3.1" and n.sense_scope == "unsensed" for n in result.neighbors)
    assert list(result.sources) == ["wordnet-3.1"]
    assert_sources_complete(result.model_dump(mode="json"))


def test_global_scope_reports_restriction(corpus: Corpus) -> None:
    result = semantic_neighbors(VectorStore(corpus), "king")
    assert result.scope == "global"
    assert result.searched_languages == ["en"]
    assert result.restricted is True
    assert result.not_searched == {"fr": "capability_not_installed"}


def test_monolingual_scope(corpus: Corpus) -> None:
    result = semantic_neighbors(VectorStore(corpus), "king", target_language="en")
    assert result.scope == "monolingual" and result.searched_languages == ["en"]
    assert result.restricted is False


@pytest.mark.parametrize(
    ("language", "target", "reason"),
    [
        ("en", "fr", "capability_not_installed"),
        ("en", "de", "not_available_upstream"),
        ("en", "xx", "unknown_language"),
        ("fr", None, "capability_not_installed"),
        ("de", None, "not_available_upstream"),
    ],
)
def test_reasons(corpus: Corpus, language: str, target: str | None, reason: str) -> None:
    with pytest.raises(CapabilityUnavailable) as info:
        semantic_neighbors(VectorStore(corpus), "king", language=language, target_language=target)
    assert info.value.reason == reason


def test_word_without_vector(corpus: Corpus) -> None:
    result = semantic_neighbors(VectorStore(corpus), "zebra")
    assert not result.found and result.neighbors == []
    assert result.sources == {}


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 101}, "limit"),
        ({"target_language": "??"}, "target_language"),
        ({"word": ""}, "word"),
    ],
)
def test_bad_input(corpus: Corpus, kwargs: dict[str, object], parameter: str) -> None:
    args: dict[str, object] = {"word": "king", **kwargs}
    with pytest.raises(InvalidArgument) as info:
        semantic_neighbors(VectorStore(corpus), **args)  # type: ignore[arg-type]
    assert info.value.parameter == parameter


@pytest.mark.parametrize(
    ("word", "target"), [("king", None), ("king", "en"), ("queen", None), ("zebra", None)]
)
def test_plain_data_is_the_model_dump(corpus: Corpus, word: str, target: str | None) -> None:
    store = VectorStore(corpus)
    data = semantic_data(store, word, target_language=target)
    expected = semantic_neighbors(store, word, target_language=target).model_dump(mode="json")
    assert data == expected
    # what the SDK does with the tool's structured content
    assert SemanticResult.model_validate(data).model_dump(mode="json") == data
