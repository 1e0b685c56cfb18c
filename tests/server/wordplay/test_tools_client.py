"""`rhymes` and `wordplay` through the MCP SDK's own in-memory client.

The server here has only the two tools of this area registered, on the real wordplay
database built from the fixture slices.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from _support.answers import error_of
from _support.mcp_client import with_server_client
from _support.provenance import assert_sources_complete
from _support.tool_listing import assert_offline_tool_listed
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult

from lexicon_server.corpus.reader import Corpus
from lexicon_server.sdk import add_tools
from lexicon_server.tool_table import DICTIONARY

T = TypeVar("T")


def with_client(corpus: Corpus, body: Callable[[Client], Awaitable[T]]) -> T:
    server: MCPServer[Any] = MCPServer(name="wordplay-test")
    rows = [spec for spec in DICTIONARY if spec.name in ("rhymes", "wordplay")]
    add_tools(server, rows, {"corpus": corpus})
    return with_server_client(server, body)


def call(corpus: Corpus, name: str, args: dict[str, Any]) -> CallToolResult:
    return with_client(corpus, lambda c: c.call_tool(name, args))


def error_text(result: CallToolResult) -> str:
    assert result.is_error
    return " ".join(getattr(block, "text", "") for block in result.content)


def test_listed_with_output_schema_annotations_and_described_parameters(
    slice_corpus: Corpus,
) -> None:
    tools = {t.name: t for t in with_client(slice_corpus, lambda c: c.list_tools()).tools}
    assert set(tools) == {"rhymes", "wordplay"}
    for tool in tools.values():
        props = assert_offline_tool_listed(tool)
        # Every candidate names its facts' sources in fields, a rhyme and a wordplay one.
        assert "pronunciation_source" in str(tool.output_schema)
        assert (props["limit"]["minimum"], props["limit"]["maximum"]) == (1, 100)
        assert tool.description
    kinds = tools["wordplay"].input_schema["properties"]["kind"]
    assert set(kinds["enum"]) == {
        "anagram",
        "palindrome",
        "spoonerism",
        "pun",
        "pattern",
        "sounds_like",
    }
    vocabulary = tools["wordplay"].input_schema["properties"]["vocabulary"]
    assert {"dictionary", "all"} <= set(str(vocabulary).replace("'", " ").split())
    assert tools["wordplay"].input_schema["required"] == ["text", "kind"]


def test_rhymes_structured_result(slice_corpus: Corpus) -> None:
    result = call(slice_corpus, "rhymes", {"word": "cat"})
    assert not result.is_error
    data = result.structured_content
    assert data is not None
    words = [r["word"] for r in data["results"]]
    assert "hat" in words and "cat" not in words
    assert data["language"] == "en" and data["dataset_version"]
    assert "sense_scope" not in data  # every rhyme is unsensed: the default, left out
    assert data["pronunciation_source"] == "cmudict"  # every result's, said once
    assert data["sources"]["cmudict"] == "BSD-2-Clause"
    assert_sources_complete(data)


@pytest.mark.parametrize(
    ("args", "check"),
    [
        (
            {"text": "listen", "kind": "anagram"},
            lambda d: "silent" in [a["word"] for a in d["results"]],
        ),
        ({"text": "racecar", "kind": "palindrome"}, lambda d: d["input_is_palindrome"] is True),
        (
            {"text": "jelly beans", "kind": "spoonerism"},
            lambda d: d["results"][0]["lexicality_scope"] == "generated_candidate",
        ),
        (
            {"text": "c?t", "kind": "pattern"},
            lambda d: (
                d["vocabulary"] == "dictionary" and [m["word"] for m in d["results"]] == ["cat"]
            ),
        ),
        (
            {"text": "nite", "kind": "sounds_like"},
            lambda d: (
                d["phones_from"] == "letter_to_sound"
                and d["query_phones"] == ["N AY T"]
                and [s["word"] for s in d["results"]][:2] == ["night", "knight"]
                and d["results"][0]["distance"] == 0
            ),
        ),
        (
            {"text": "knight", "kind": "pun"},
            lambda d: (
                "night" in [p["word"] for p in d["results"]]
                and d["context_scope"] == "uncontextualized"
            ),
        ),
    ],
)
def test_wordplay_kinds(
    slice_corpus: Corpus, args: dict[str, Any], check: Callable[[dict[str, Any]], bool]
) -> None:
    result = call(slice_corpus, "wordplay", args)
    assert not result.is_error, result.content
    assert result.structured_content is not None and check(result.structured_content)
    assert_sources_complete(result.structured_content)


@pytest.mark.parametrize(
    ("name", "args", "parameter"),
    [
        ("rhymes", {"word": "cat", "limit": 0}, "limit"),
        ("rhymes", {"word": "cat", "limit": 101}, "limit"),
        ("rhymes", {"word": "", "limit": 5}, "word"),
        ("rhymes", {"word": "cat", "mode": "slant"}, "mode"),
        ("rhymes", {"word": "cat", "syllables": 0}, "syllables"),
        ("wordplay", {"text": "cat", "kind": "riddle"}, "kind"),
        ("wordplay", {"text": "cat", "kind": "anagram", "limit": 101}, "limit"),
        ("wordplay", {"text": "cat", "kind": "anagram", "context": "zoo"}, "context"),
        ("wordplay", {"text": "knight", "kind": "pun", "context": "x" * 513}, "context"),
        ("wordplay", {"text": "x" * 101, "kind": "pun"}, "text"),
        ("wordplay", {"text": "one two three", "kind": "spoonerism"}, "text"),
        ("wordplay", {"text": "c[a]t", "kind": "pattern"}, "text"),
        ("wordplay", {"text": "c?t", "kind": "pattern", "vocabulary": "some"}, "vocabulary"),
        ("wordplay", {"text": "cat", "kind": "pun", "vocabulary": "all"}, "vocabulary"),
        ("wordplay", {"text": "1 2", "kind": "sounds_like"}, "text"),
        ("rhymes", {"word": "cat", "pattern": "c.t"}, "pattern"),
        ("rhymes", {"word": "cat", "pattern": "   "}, "pattern"),
        ("rhymes", {"word": "cat", "vocabulary": "names"}, "vocabulary"),
    ],
)
def test_bad_input_is_a_tool_error_naming_the_parameter(
    slice_corpus: Corpus, name: str, args: dict[str, Any], parameter: str
) -> None:
    text = error_text(call(slice_corpus, name, args))
    assert parameter in text


def test_rhymes_with_a_pattern_and_every_word(slice_corpus: Corpus) -> None:
    result = call(slice_corpus, "rhymes", {"word": "cat", "pattern": "?at", "vocabulary": "all"})
    assert not result.is_error, result.content
    data = result.structured_content
    assert data is not None
    words = [r["word"] for r in data["results"]]
    assert {"hat", "bat"} <= set(words) and all(len(w) == 3 and w[1:] == "at" for w in words)
    labelled = [r["word"] for r in data["results"] if r.get("dictionary_word") is False]
    assert labelled and "hat" not in labelled  # names and rare spellings, after the words
    assert words[-len(labelled) :] == labelled
    refused = error_text(call(slice_corpus, "rhymes", {"word": "cat", "pattern": "c.t"}))
    assert "invalid pattern='c.t'" in refused and "'?' for any one letter" in refused


@pytest.mark.parametrize(
    ("installed", "reason"),
    [(frozenset({"lexical"}), "capability_not_installed"), (None, "language_not_installed")],
)
def test_missing_wordplay_data_names_the_reason(
    slice_db: Path, make_corpus: Any, installed: frozenset[str] | None, reason: str
) -> None:
    corpus = make_corpus(slice_db, installed=installed or frozenset())
    if installed is None:
        corpus = Corpus(type(corpus.selection)(**{**corpus.selection.__dict__, "installed": {}}))
    for name, args in (
        ("rhymes", {"word": "cat"}),
        ("wordplay", {"text": "cat", "kind": "anagram"}),
    ):
        result = call(corpus, name, args)
        assert reason in error_text(result)
        assert error_of(result)["reason"] == reason
