"""glossary_find with dictionary=true: general English senses, kept apart from the project's.

The corpus here is a few rows written with the published lexical schema (see
`mini_corpus` in conftest.py), until the root `sample_data_dir` fixture exists.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_server.corpus.reader import Corpus
from lexicon_server.glossary.dictionary import MAX_SENSES_PER_WORD, dictionary_senses

from .conftest import call, glossary_server, jsonl, mini_corpus


@pytest.fixture
def corpus(tmp_path: Path) -> Corpus:
    return mini_corpus(tmp_path / "data", frozenset({"lexical"}))


@pytest.fixture
def release_glossary(tmp_path: Path) -> Path:
    path = tmp_path / "glossary.jsonl"
    path.write_text(
        jsonl(
            [("Release", "A signed-off build that customers may install."), ("Batches", "Lots.")]
        ),
        encoding="utf-8",
    )
    return path


def test_senses_are_separate_from_the_project_definition(
    corpus: Corpus, release_glossary: Path
) -> None:
    server = glossary_server(release_glossary, corpus)
    is_error, body, _ = call(server, "glossary_find", {"query": "release", "dictionary": True})
    assert not is_error
    assert body["results"][0]["entry"] == {
        "term": "Release",
        "description": "A signed-off build that customers may install.",
    }
    dictionary = body["dictionary"]
    assert dictionary["status"] == "ok"
    (word,) = dictionary["words"]  # the query and the matched term are the same word
    assert word["word"] == "release"
    assert [s["gloss"] for s in word["senses"]] == [
        "let go of something held",
        "the act of making something public",
        "a formal relinquishment of a claim",
    ][:MAX_SENSES_PER_WORD]
    assert {s["source"] for s in word["senses"]} == {"test-lexicon"}
    assert all("project" not in s["gloss"] for s in word["senses"])


def test_inflected_term_finds_its_lemma(corpus: Corpus, release_glossary: Path) -> None:
    server = glossary_server(release_glossary, corpus)
    _, body, _ = call(server, "glossary_find", {"query": "lots", "dictionary": True})
    words = {w["word"]: w["senses"] for w in body["dictionary"]["words"]}
    assert words["lots"] == []  # not a dictionary word here: looked up, nothing found
    assert words["Batches"][0]["headword"] == "batch"


def test_without_the_flag_the_corpus_is_not_consulted(
    corpus: Corpus, release_glossary: Path
) -> None:
    _, body, _ = call(
        glossary_server(release_glossary, corpus), "glossary_find", {"query": "release"}
    )
    assert "dictionary" not in body


def test_no_corpus_says_so(release_glossary: Path) -> None:
    _, body, _ = call(release_glossary, "glossary_find", {"query": "release", "dictionary": True})
    assert body["results"][0]["entry"]["term"] == "Release"  # the project's answer still comes
    assert body["dictionary"]["status"] == "unavailable"
    assert "lexicon-data install" in body["dictionary"]["message"]
    assert body["dictionary"]["words"] == []


def test_english_lexical_not_installed_says_why(tmp_path: Path, release_glossary: Path) -> None:
    corpus = mini_corpus(tmp_path / "data", frozenset())
    _, body, _ = call(
        glossary_server(release_glossary, corpus),
        "glossary_find",
        {"query": "release", "dictionary": True},
    )
    assert body["dictionary"]["status"] == "unavailable"
    assert "language_not_installed" in body["dictionary"]["message"]
    assert "lexicon-data add-language" in body["dictionary"]["message"]


def test_library_limits(corpus: Corpus) -> None:
    report = dictionary_senses(
        corpus, ["release", "RELEASE", "batch"] + [f"w{i}" for i in range(20)]
    )
    assert report.status == "ok"
    assert [w.word for w in report.words][:2] == ["release", "batch"]  # duplicates folded
    assert len(report.words) <= 6
    assert all(len(w.senses) <= MAX_SENSES_PER_WORD for w in report.words)


def test_search_text_is_never_sql(corpus: Corpus) -> None:
    report = dictionary_senses(corpus, ["release' OR 1=1 --", "%"])
    assert report.status == "ok" and all(w.senses == () for w in report.words)
