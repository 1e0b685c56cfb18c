"""dictionary_semantic_neighbors: scoping, exact re-rank against brute force, reasons."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from _support.dumped import dumped
from _support.provenance import assert_sources_complete

from lexicon_server.corpus.reader import CapabilityUnavailable, Corpus
from lexicon_server.errors import InvalidArgument
from lexicon_server.models import SemanticResult
from lexicon_server.query.headwords import normalize
from lexicon_server.query.semantic import VectorStore, semantic_neighbors
from lexicon_store.selection import load_active


def test_neighbours_match_exact_search(corpus: Corpus) -> None:
    store = VectorStore(corpus)
    result = semantic_neighbors(store, "king", limit=5)
    assert result.found and len(result.neighbors) == 5
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
    assert result.method.startswith("no search")
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
    data = dumped(semantic_neighbors(store, word, target_language=target))
    expected = semantic_neighbors(store, word, target_language=target).model_dump(mode="json")
    assert data == expected
    # what the SDK does with the tool's structured content
    assert SemanticResult.model_validate(data).model_dump(mode="json") == data


@pytest.fixture
def frequent_corpus(mini_variant: Callable[[str, str, str], Corpus]) -> Corpus:
    """The mini corpus with 'king' and 'prince' as frequent words (Zipf 5), the rest rare."""
    frequent = "UPDATE vocab SET zipf = 5.0 WHERE norm IN ('king', 'prince')"
    return mini_variant("frequent", "en/semantic.sqlite", frequent)


def _exact(matrix: np.ndarray, row: int, count: int) -> list[tuple[int, float]]:
    query = matrix[row] / np.linalg.norm(matrix[row])
    scores = matrix @ query
    scores[row] = -np.inf
    best = np.argsort(-scores, kind="stable")[:count]
    return [(int(i), round(float(scores[i]), 4)) for i in best]


@pytest.mark.parametrize("word", ["king", "prince", "queen", "river"])
def test_frequent_and_rare_words_both_match_exact_search(
    frequent_corpus: Corpus, word: str
) -> None:
    store = VectorStore(frequent_corpus)
    vectors = store.get("en")
    matrix = np.asarray(vectors.matrix, dtype=np.float32)
    hit = vectors.find(normalize(word))
    assert hit is not None
    row, _, zipf = hit
    result = dumped(semantic_neighbors(store, word, limit=8))
    rows = {text: r for r, text in vectors.conn.execute("SELECT id, text FROM vocab")}
    got = [(rows[n["text"]], round(n["score"], 4)) for n in result["neighbors"]]
    assert got == _exact(matrix, row, 8)
    # The search looked as hard as the word's frequency asks, and the next search of
    # another frequency is not left with this one's setting.
    assert vectors.index.expansion_search == vectors.expansion_for(zipf)
    assert vectors.expansion_for(zipf) == (64 if word in ("king", "prince") else 192)


def test_expansion_follows_each_query_word(frequent_corpus: Corpus) -> None:
    store = VectorStore(frequent_corpus)
    vectors = store.get("en")
    seen = []
    for word in ("king", "queen", "prince", "river", "king"):
        dumped(semantic_neighbors(store, word))
        seen.append(vectors.index.expansion_search)
    assert seen == [64, 192, 64, 192, 64]


def test_vector_languages_are_copies(corpus: Corpus) -> None:
    store = VectorStore(corpus)
    searched, skipped = store.vector_languages()
    searched.append("xx")
    skipped["en"] = "changed"
    assert store.vector_languages() == (["en"], {"fr": "capability_not_installed"})
    result = dumped(semantic_neighbors(store, "king"))
    assert result["searched_languages"] == ["en"]
    assert result["not_searched"] == {"fr": "capability_not_installed"}


def test_starter_neighbours_recall_against_exact_search(starter_data_dir: Path) -> None:
    """recall@10 of the tool's answers against exact search over the float16 matrix, for
    the most frequent words (searched with less effort) and rarer ones."""
    corpus = Corpus(load_active(starter_data_dir))
    try:
        store = VectorStore(corpus)
        vectors = store.get("en")
        matrix = np.asarray(vectors.matrix, dtype=np.float32)
        frequent = vectors.conn.execute(
            "SELECT id, text FROM vocab WHERE text GLOB '[a-z]*' ORDER BY zipf DESC, id LIMIT 300"
        ).fetchall()
        edge = vectors.conn.execute(
            "SELECT id, text FROM vocab WHERE text GLOB '[a-z]*' AND zipf >= 4 "
            "ORDER BY zipf, id LIMIT 300"
        ).fetchall()
        rare = vectors.conn.execute(
            "SELECT id, text FROM vocab WHERE text GLOB '[a-z]*' AND zipf BETWEEN 3 AND 3.9 "
            "ORDER BY id LIMIT 200"
        ).fetchall()
        texts = dict(vectors.conn.execute("SELECT id, text FROM vocab").fetchall())
        for rows in (frequent, edge, rare):
            hits = total = 0
            for row, text in rows:
                hit = vectors.find(normalize(text))
                if hit is None or hit[0] != row:
                    continue  # another spelling of the same norm is the more frequent one
                truth = {texts[r] for r, _ in _exact(matrix, row, 10)}
                got = {n["text"] for n in dumped(semantic_neighbors(store, text))["neighbors"]}
                hits += len(truth & got)
                total += 10
            assert total >= 1_000
            assert hits / total >= 0.99, (rows[0], hits / total)
    finally:
        corpus.close()
