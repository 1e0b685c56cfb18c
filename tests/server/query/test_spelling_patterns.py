"""The `pattern` argument of dictionary_synonyms and dictionary_semantic_neighbors: only
candidates spelled so, chosen before the limit (issue 30: 'means happy, starts with j')."""

from __future__ import annotations

import fnmatch
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from _support.dumped import dumped

from lexicon_server.corpus.reader import Corpus
from lexicon_server.errors import InvalidArgument
from lexicon_server.query.semantic import VectorStore, semantic_neighbors
from lexicon_server.query.synonyms import synonyms

MOBY = Path(__file__).parents[2] / "fixtures" / "moby" / "words.txt"


def _moby(root: str) -> list[str]:
    for line in MOBY.read_text(encoding="ascii").splitlines():
        if line.split(",", 1)[0] == root:
            return line.split(",")[1:]
    raise AssertionError(root)


def _texts(result: object) -> list[str]:
    return [c for g in result.groups for c in g.candidates]  # type: ignore[attr-defined]


def test_happy_starting_with_j(sample_corpus: Corpus) -> None:
    # Moby's one-word terms for 'happy' spelled j*, whatever their place in its long list.
    wanted = {w for w in _moby("happy") if " " not in w and w.startswith("j")}
    assert {"jolly", "joyful", "jubilant"} <= wanted
    result = synonyms(sample_corpus, "happy", pattern="j*")
    texts = _texts(result)
    assert wanted <= set(texts)
    assert all(fnmatch.fnmatchcase(t.lower(), "j*") and " " not in t for t in texts)
    assert dumped(result) == result.model_dump(mode="json")
    # Without the pattern the same limit shows other words first.
    assert not wanted <= set(_texts(synonyms(sample_corpus, "happy")))


def test_a_pattern_nothing_matches_answers_empty(sample_corpus: Corpus) -> None:
    result = synonyms(sample_corpus, "happy", pattern="zq*")
    assert result.found and result.groups == []


def test_synonym_pattern_is_checked(sample_corpus: Corpus) -> None:
    with pytest.raises(InvalidArgument) as caught:
        synonyms(sample_corpus, "happy", pattern="j+")
    assert caught.value.parameter == "pattern"


def _vocabulary(corpus: Corpus) -> list[str]:
    with sqlite3.connect(corpus.path("en/semantic.sqlite")) as conn:
        return [text for (text,) in conn.execute("SELECT text FROM vocab ORDER BY id")]


@pytest.mark.parametrize("pattern", ["p*", "*ess", "?ueen", "*i*e*", "*"])
def test_neighbours_spelled_so_match_an_exact_search(corpus: Corpus, pattern: str) -> None:
    texts = _vocabulary(corpus)
    matrix = np.load(corpus.path("en/semantic.f16.npy")).astype(np.float32)
    row = texts.index("king")
    query = matrix[row] / np.linalg.norm(matrix[row])
    scores = matrix @ query
    # Letters a-z only: a spelling with a digit ('filler55') matches no pattern.
    allowed = [
        i
        for i, text in enumerate(texts)
        if i != row and text.isalpha() and fnmatch.fnmatchcase(text.lower(), pattern)
    ]
    best = sorted(allowed, key=lambda i: (-scores[i], i))[:3]
    result = semantic_neighbors(
        VectorStore(corpus), "king", target_language="en", limit=3, pattern=pattern
    )
    assert [n.text for n in result.neighbors] == [texts[i] for i in best]
    assert [n.score for n in result.neighbors] == pytest.approx(
        [float(scores[i]) for i in best], abs=1e-4
    )
    assert "spelled like the pattern" in result.method


def test_semantic_pattern_is_checked(corpus: Corpus) -> None:
    with pytest.raises(InvalidArgument) as caught:
        semantic_neighbors(VectorStore(corpus), "king", pattern="k[a-z]")
    assert caught.value.parameter == "pattern"
