"""Property tests: any input gets a result or a clear InvalidArgument, never a crash, and
every response stays within the response budget."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _support.dumped import dumped
from _support.provenance import assert_sources_complete
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexicon_server.corpus.reader import Corpus
from lexicon_server.errors import InvalidArgument
from lexicon_server.models import MAX_RESPONSE_CHARS
from lexicon_server.query.rhymes import rhymes
from lexicon_server.query.wordplay import wordplay

# Real words from the slice mixed with arbitrary text, so both paths get exercised.
WORDS = st.sampled_from(
    [
        "cat",
        "listen",
        "knight",
        "read",
        "belly jelly",
        "jelly beans",
        "level",
        "a",
        "Flower",
        "record",
        "earth either",
        "kayak",
        "tomato",
        "x",
        "a's",
    ]
)
TEXT = st.one_of(WORDS, st.text(max_size=120), st.text(alphabet="abcdeilnst ", max_size=30))
LIMIT = st.one_of(st.integers(min_value=1, max_value=100), st.integers(-5, 200))
SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _bounded(model: Any) -> None:
    assert len(model.model_dump_json()) <= MAX_RESPONSE_CHARS
    assert_sources_complete(model.model_dump(mode="json"))


@SETTINGS
@given(
    word=TEXT,
    mode=st.one_of(st.sampled_from(["perfect", "near"]), st.text(max_size=8)),
    limit=LIMIT,
    syllables=st.one_of(st.none(), st.integers(-2, 25)),
)
def test_rhymes_answers_or_refuses_clearly(
    slice_corpus: Corpus, word: str, mode: str, limit: int, syllables: int | None
) -> None:
    try:
        result = rhymes(slice_corpus, word, mode, limit, syllables)
    except InvalidArgument as exc:
        assert exc.parameter in {"word", "mode", "limit", "syllables"}
        assert exc.parameter in str(exc)
        return
    assert len(result.results) <= limit
    assert all(r.word.casefold() != word.strip().casefold() for r in result.results)
    _bounded(result)
    # The plain data the tool sends is the typed result, field for field.
    data = dumped(rhymes(slice_corpus, word, mode, limit, syllables))
    assert json.dumps(data) == json.dumps(result.model_dump(mode="json"))


@SETTINGS
@given(
    text=TEXT,
    kind=st.one_of(
        st.sampled_from(["anagram", "palindrome", "spoonerism", "pun"]), st.text(max_size=10)
    ),
    context=st.one_of(st.none(), st.text(max_size=600)),
    limit=LIMIT,
)
def test_wordplay_answers_or_refuses_clearly(
    slice_corpus: Corpus, text: str, kind: str, context: str | None, limit: int
) -> None:
    try:
        result = wordplay(slice_corpus, text, kind, context, limit)
    except InvalidArgument as exc:
        assert exc.parameter in {"text", "kind", "context", "limit"}
        assert exc.parameter in str(exc)
        return
    assert result.kind == kind
    assert context is None or kind == "pun"
    assert len(result.results) <= limit
    if kind == "pun":
        assert result.context_scope in {"uncontextualized", "context_ranked"}
    _bounded(result)
    data = dumped(wordplay(slice_corpus, text, kind, context, limit))
    assert json.dumps(data) == json.dumps(result.model_dump(mode="json"))


ARGUMENT = st.one_of(st.none(), st.booleans(), st.integers(-3, 150), st.text(max_size=40), WORDS)


@pytest.fixture
def wordplay_server(slice_corpus: Corpus) -> Any:
    """The two wordplay tools on one server for all of a test's examples; each example
    talks to it through a client session of its own."""
    from mcp.server.mcpserver import MCPServer

    from lexicon_server.sdk import add_tools
    from lexicon_server.tool_table import DICTIONARY

    server: MCPServer[Any] = MCPServer(name="wordplay-properties")
    rows = [spec for spec in DICTIONARY if spec.name in ("rhymes", "wordplay")]
    add_tools(server, rows, {"corpus": slice_corpus})
    return server


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=st.sampled_from(["rhymes", "wordplay"]),
    args=st.dictionaries(
        st.sampled_from(["word", "text", "kind", "mode", "limit", "syllables", "context", "x"]),
        ARGUMENT,
        max_size=5,
    ),
    kind=st.sampled_from(["anagram", "palindrome", "spoonerism", "pun", None]),
)
def test_any_arguments_through_the_client_get_a_result_or_a_tool_error(
    wordplay_server: Any, name: str, args: dict[str, Any], kind: str | None
) -> None:
    import anyio
    from mcp import Client

    if kind is not None and name == "wordplay":
        args = {**args, "kind": kind}

    async def main() -> Any:
        async with Client(wordplay_server) as client:
            return await client.call_tool(name, args)

    result = anyio.run(main)
    text = " ".join(getattr(block, "text", "") for block in result.content)
    assert len(text) <= 2 * MAX_RESPONSE_CHARS
    if result.is_error:
        # Never the bare crash message; always the parameter that needs fixing.
        assert text.strip() != f"Error executing tool {name}", text
        assert any(
            p in text for p in ("word", "text", "kind", "mode", "limit", "syllables", "context")
        ), text
    else:
        assert result.structured_content is not None
        assert result.structured_content["language"] == "en"
        assert_sources_complete(result.structured_content)
