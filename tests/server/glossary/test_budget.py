"""Every glossary answer stays within the response budget, and says what it left out
(issue 27, case 6: find with 100 long hits answered 1.0M characters, map of 20,000 terms 958k)."""

from __future__ import annotations

import json
from pathlib import Path

from lexicon_server.glossary.fileformat import MAX_DESCRIPTION_CHARS
from lexicon_server.models import MAX_RESPONSE_CHARS

from .conftest import call, glossary_server


def _write(path: Path, count: int, description_chars: int) -> Path:
    """`count` entries, each description mentioning the next term and `alpha` many times."""
    with path.open("w", encoding="utf-8") as handle:
        for i in range(count):
            filler = ("alpha " * (description_chars // 6 + 1))[: description_chars - 20]
            entry = {"term": f"term{i:05d}", "description": f"{filler} term{(i + 1) % count:05d}"}
            handle.write(json.dumps(entry) + "\n")
    return path


def _fits(text: str, body: object) -> None:
    assert len(text) <= MAX_RESPONSE_CHARS
    compact = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    assert len(compact) <= MAX_RESPONSE_CHARS
    assert json.loads(text) == body  # the text content is the same JSON, compact


def test_find_with_100_long_hits_keeps_the_best_and_says_what_it_left_out(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path / "glossary.jsonl", 100, MAX_DESCRIPTION_CHARS)
    error, body, text = call(path, "glossary_find", {"query": "alpha", "maxResults": 100})
    assert not error
    _fits(text, body)
    kept = body["results"]
    assert 1 <= len(kept) < 100
    assert kept[0]["entry"]["term"] == "term00000"  # ties keep file order: the best stay
    (note,) = body["budget"]["cut"]
    assert f"the last {100 - len(kept)} of 100 matching entries left out" in note
    assert body["budget"]["max_chars"] == MAX_RESPONSE_CHARS


def test_map_of_20000_terms_keeps_the_first_terms_and_names_the_first_left_out(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path / "glossary.jsonl", 20_000, 40)
    server = glossary_server(path)
    error, body, text = call(server, "glossary_map", {})
    assert not error
    _fits(text, body)
    kept = len(body["terms"])
    assert 0 < kept < 20_000
    assert body["terms"][-1]["term"] == f"term{kept - 1:05d}"
    (note,) = body["budget"]["cut"]
    assert f"the last {20_000 - kept} of 20000 terms" in note
    assert f"'term{kept:05d}'" in note
    # One term mentioned by every other description: its mentions are cut, not the term.
    path.write_text(
        "".join(
            json.dumps({"term": f"t{i:05d}", "description": f"see hub {'x' * 30}"}) + "\n"
            for i in range(20_000)
        )
        + json.dumps({"term": "hub", "description": "the centre"})
        + "\n"
    )
    error, body, text = call(server, "glossary_map", {"term": "hub"})
    assert not error
    _fits(text, body)
    (item,) = body["terms"]
    assert item["term"] == "hub" and 0 < len(item["mentionedIn"]) < 20_000
    assert "mentionedIn of 'hub'" in body["budget"]["cut"][0]


def test_an_answer_within_the_budget_has_no_budget_field(tmp_path: Path) -> None:
    path = _write(tmp_path / "glossary.jsonl", 3, 100)
    error, body, _text = call(path, "glossary_find", {"query": "alpha"})
    assert not error and "budget" not in body and len(body["results"]) == 3
    error, body, _text = call(path, "glossary_map", {})
    assert not error and "budget" not in body and len(body["terms"]) == 3


def test_hits_of_control_characters_count_as_their_json_escapes(tmp_path: Path) -> None:
    """A description of 10,000 control characters is 60,000 JSON characters: two such
    hits pass the budget though their texts are 20,000 characters together."""
    path = tmp_path / "glossary.jsonl"
    description = "\u0001" * MAX_DESCRIPTION_CHARS
    lines = [json.dumps({"term": f"ctl{i}", "description": description}) for i in range(2)]
    path.write_text("\n".join(lines) + "\n")
    error, body, text = call(path, "glossary_find", {"query": "ctl", "maxResults": 2})
    assert not error
    _fits(text, body)
    assert [r["entry"]["term"] for r in body["results"]] == ["ctl0"]
    assert body["results"][0]["entry"]["description"] == description  # kept whole
    assert "the last 1 of 2 matching entries left out" in body["budget"]["cut"][0]
