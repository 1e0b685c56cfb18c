"""find: whole query and its words over terms and descriptions, ranked, limited."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_server.glossary import Glossary, InvalidInput

from .conftest import call, jsonl

RANKING = [
    # One entry per match kind of the whole query "stock", each in a different place.
    ("Zeta", "Something that counts the stock on hand."),  # description contains
    ("Stock Level", "How much there is."),  # term contains
    ("Omega", "stock"),  # exact description (after normalization)
    ("STOCK", "Goods held for sale."),  # exact term
    ("Unrelated", "Nothing to see."),
]


@pytest.fixture
def ranked(tmp_path: Path) -> Path:
    path = tmp_path / "g.jsonl"
    path.write_text(jsonl(RANKING), encoding="utf-8")
    return path


def test_match_kinds_rank_in_order(ranked: Path) -> None:
    hits = Glossary(ranked).find("Stock")
    assert [h.entry.term for h in hits] == ["STOCK", "Stock Level", "Omega", "Zeta"]
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_more_matched_words_rank_first(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(
        jsonl(
            [
                ("Batch", "One run."),  # matches one word, as an exact term
                ("Release Batch Plan", "Plan."),  # matches both words, inside the term
                ("Other", "mentions release only"),
            ]
        ),
        encoding="utf-8",
    )
    hits = Glossary(path).find("batch release")
    assert [h.entry.term for h in hits] == ["Release Batch Plan", "Batch", "Other"]


def test_whole_query_beats_scattered_words(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(
        jsonl([("Release of Batch", "x"), ("Batch Release", "y"), ("Big Batch Release Day", "z")]),
        encoding="utf-8",
    )
    assert [h.entry.term for h in Glossary(path).find("batch release")] == [
        "Batch Release",
        "Big Batch Release Day",
        "Release of Batch",
    ]


def test_description_matching_is_normalized(gpath: Path) -> None:
    hits = Glossary(gpath).find("PRODUCTION,  batch")
    terms = [h.entry.term for h in hits]
    assert terms[0] == "Production Batch"
    assert "Batch Release" in terms and "Batch Record" in terms


def test_ties_keep_file_order(gpath: Path) -> None:
    hits = Glossary(gpath).find("batch")
    assert [h.entry.term for h in hits][:3] == ["Batch Release", "Production Batch", "Batch Record"]


def test_no_match_is_empty(gpath: Path) -> None:
    assert Glossary(gpath).find("zebra") == []


def test_max_results_limits(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(jsonl([(f"Term {i}", "common words") for i in range(30)]), encoding="utf-8")
    glossary = Glossary(path)
    assert len(glossary.find("common")) == 10  # the default
    assert len(glossary.find("common", 3)) == 3
    assert len(glossary.find("common", 100)) == 30


@pytest.mark.parametrize(
    ("query", "limit", "parameter"),
    [
        ("x", 0, "maxResults"),
        ("x", 101, "maxResults"),
        ("  ,. ", 5, "query"),
        ("x" * 1001, 5, "query"),
    ],
)
def test_bad_input_names_the_parameter(gpath: Path, query: str, limit: int, parameter: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        Glossary(gpath).find(query, limit)
    assert caught.value.parameter == parameter


def test_find_through_the_client(ranked: Path) -> None:
    is_error, body, text = call(ranked, "glossary_find", {"query": "stock", "maxResults": 2})
    assert not is_error
    assert [r["entry"]["term"] for r in body["results"]] == ["STOCK", "Stock Level"]
    assert body["results"][0]["entry"] == {"term": "STOCK", "description": "Goods held for sale."}
    assert isinstance(body["results"][0]["score"], int)
    assert "dictionary" not in body  # only when asked for
    assert '"STOCK"' in text  # the same answer as text for clients without structured output


def test_find_default_limit_through_the_client(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(jsonl([(f"Term {i}", "common") for i in range(12)]), encoding="utf-8")
    _, body, _ = call(path, "glossary_find", {"query": "common"})
    assert len(body["results"]) == 10


@pytest.mark.parametrize(
    ("arguments", "needle"),
    [
        ({"query": "x", "maxResults": 0}, "maxResults"),
        ({"query": "x", "maxResults": 500}, "maxResults"),
        ({"query": " ; "}, "query"),
    ],
)
def test_bad_input_is_a_tool_error(gpath: Path, arguments: dict[str, object], needle: str) -> None:
    is_error, body, text = call(gpath, "glossary_find", arguments)
    assert is_error and body["error"]["reason"] == "invalid_argument"
    assert needle in text
