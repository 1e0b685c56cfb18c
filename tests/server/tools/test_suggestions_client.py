"""Suggestions on a miss, through the SDK client: every dictionary tool that looks a word
up answers `found: false` with ranked suggestions from the installed headwords; a found
word never carries any (query/suggest.py `with_suggestions`)."""

from __future__ import annotations

from typing import Any

from _support.mcp_client import with_server_client

from lexicon_server.config import load_config
from lexicon_server.corpus.normalize import norm
from lexicon_server.corpus.reader import Corpus
from lexicon_server.server import build_server

CALLS = {
    "dictionary_lookup": {},
    "dictionary_synonyms": {},
    "dictionary_translate": {"target_language": "fr"},
    "dictionary_relations": {"relation": "hypernym"},
    "rhymes": {},
}


def _frequent_word(corpus: Corpus) -> str:
    """The sample's most frequent plain word of six letters or more that has a sense."""
    conn = corpus.db("en", "lexical")
    row = conn.execute(
        "SELECT t.text FROM terms t WHERE length(t.norm) >= 6 AND t.norm NOT GLOB '*[^a-z]*' "
        "AND EXISTS (SELECT 1 FROM entries e WHERE e.term_id = t.id) "
        "AND EXISTS (SELECT 1 FROM spelling_keys k WHERE k.term_id = t.id) "
        "ORDER BY t.zipf DESC LIMIT 1"
    ).fetchone()
    assert row, "no frequent word in the sample"
    return str(row[0])


def _answers(corpus: Corpus, word: str) -> dict[str, Any]:
    async def body(client: Any) -> dict[str, Any]:
        out = {}
        for tool, extra in CALLS.items():
            result = await client.call_tool(tool, {"word": word, **extra})
            assert not result.is_error, (tool, result.content)
            out[tool] = result.structured_content
        return out

    return with_server_client(build_server(corpus, load_config({})), body)


def test_a_misspelling_gets_the_word_back_from_every_tool(sample_corpus: Corpus) -> None:
    word = _frequent_word(sample_corpus)
    typo = word[:2] + word[3] + word[2] + word[4:]  # two letters swapped
    for tool, answer in _answers(sample_corpus, typo).items():
        assert answer["found"] is False, tool
        offered = answer["suggestions"]
        assert norm(offered[0]["text"]) == norm(word), (tool, offered)
        assert offered[0]["kind"] == "spelling" and offered[0]["distance"] > 0
        assert all(norm(s["text"]) != norm(typo) for s in offered)


def test_a_found_word_carries_no_suggestions(sample_corpus: Corpus) -> None:
    word = _frequent_word(sample_corpus)
    for tool, answer in _answers(sample_corpus, word).items():
        if answer["found"]:
            assert "suggestions" not in answer, tool
