"""Every slang answer stays within the response budget and says what it left out
(issue 27, case 6: slang_rewrite of a 10,000-unit text answered 1.57-1.8 million
characters, slang_interpret 424k)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp_types import CallToolResult, TextContent

from lexicon_server.config import load_config
from lexicon_server.corpus.reader import Corpus
from lexicon_server.models import MAX_RESPONSE_CHARS
from lexicon_server.slang import rewrite
from lexicon_server.slang.phrases import MAX_PHRASE_UNITS, MAX_TEXT_UNITS

from .test_tools import make_server, run


def _answer(result: CallToolResult) -> dict[str, Any]:
    """A success's structured content, checked to be within the budget and the same JSON
    as its text."""
    assert not result.is_error, result.content
    (content,) = result.content
    assert isinstance(content, TextContent)
    assert len(content.text) <= MAX_RESPONSE_CHARS
    assert json.loads(content.text) == result.structured_content
    body = result.structured_content
    assert isinstance(body, dict)
    return body


def _call(corpus: Corpus, glossary: Path | None, name: str, args: dict[str, Any]) -> dict[str, Any]:
    _, (result,) = run(make_server(corpus, glossary, False, load_config({})), [(name, args)])
    return _answer(result)


TEXT = "a " * (MAX_TEXT_UNITS // 2)  # 5,000 matches of `a`


def test_a_rewrite_whose_output_is_too_long_rewrites_a_leading_part_and_says_where(
    corpus: Corpus,
) -> None:
    long_plain = "p" * MAX_PHRASE_UNITS  # 5,000 x 100 units: a 500,000-character output
    pairs = [{"slang": "a", "plain": long_plain}]
    body = _call(corpus, None, "slang_rewrite", {"text": TEXT, "glossary": pairs})
    kept = body["text"]
    assert 0 < len(kept) < len(TEXT) and TEXT.startswith(kept)
    # The output is the whole rewrite of the part it covers, nothing half-replaced.
    assert body["output"] == rewrite(kept, [("a", long_plain)]).output
    cut = " ".join(body["budget"]["cut"])
    assert f"only the first {len(kept)} code points" in cut
    assert f"from code point {len(kept)}" in cut
    assert "replacements: all 5000 left out" in cut


def test_a_rewrite_with_thousands_of_replacements_keeps_the_whole_output(corpus: Corpus) -> None:
    pairs = [{"slang": "a", "plain": "b"}]
    body = _call(corpus, None, "slang_rewrite", {"text": TEXT, "glossary": pairs})
    assert body["text"] == TEXT
    assert body["output"] == "b " * (MAX_TEXT_UNITS // 2)
    listed = len(body["replacements"])
    assert 0 < listed < 5000
    assert body["replacements"][-1]["start"] == 2 * (listed - 1)  # the first ones, in order
    (note,) = body["budget"]["cut"]
    assert f"the last {5000 - listed} of 5000 left out" in note


def test_interpret_of_thousands_of_occurrences_lists_what_fits(
    corpus: Corpus, project_glossary: Path
) -> None:
    text = "cap fr " * (MAX_TEXT_UNITS // 7)
    args = {"text": text, "terms": ["cap", "fr", "dope"], "limit": 10}
    body = _call(corpus, project_glossary, "slang_interpret", args)
    cap, fr, dope = body["entries"]
    assert cap["status"] == fr["status"] == "found" and dope["status"] == "not_in_text"
    assert cap["definitions"] and fr["definitions"]  # meanings are kept, occurrences cut
    assert 0 < len(cap["occurrences"]) < MAX_TEXT_UNITS // 7
    assert len(fr["occurrences"]) == len(cap["occurrences"])  # the same share each
    notes = body["budget"]["cut"]
    assert any(n.startswith("occurrences of 'cap': the last") for n in notes)
    assert any(n.startswith("occurrences of 'fr': the last") for n in notes)


def test_answers_within_the_budget_have_no_budget_field(corpus: Corpus) -> None:
    pairs = [{"slang": "fr", "plain": "for real"}]
    body = _call(corpus, None, "slang_rewrite", {"text": "fr fr", "glossary": pairs})
    assert "budget" not in body and body["output"] == "for real for real"
    body = _call(corpus, None, "slang_interpret", {"text": "no cap", "terms": ["no cap"]})
    assert "budget" not in body and body["entries"][0]["status"] == "found"
