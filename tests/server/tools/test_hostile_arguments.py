"""Property: hostile arguments to any dictionary tool get a named error, never a crash.

Hypothesis generates argument objects for the seven dictionary tools: the real parameter
names and made-up ones, holding values of every JSON type (huge integers, floats where
integers belong, nested lists and objects, control characters, long and empty text).
They go through the SDK's own client to the real server over the sample corpus (built by
the builder from the committed slices and installed by the store), so the SDK's argument
handling, `lexicon_server.arguments` and the query layer all see them. Every answer keeps
the house rule: an error has a known reason (never `internal_error`) and no traceback; a
success conforms to the tool's published output schema.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import jsonschema
import pytest
from _support.answers import error_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from lexicon_server.config import load_config
from lexicon_server.corpus.reader import Corpus
from lexicon_server.server import DICTIONARY_TOOLS, build_server
from lexicon_server.text_answers import rendered

# The reasons a dictionary tool may answer with (docs/tools.md, "Answers").
KNOWN = {
    "invalid_argument",
    "language_not_installed",
    "unknown_language",
    "capability_not_installed",
    "not_available_upstream",
    "no_such_sense",
}
PARAMETERS = [
    "word",
    "language",
    "target_language",
    "limit",
    "relation",
    "relations",
    "depth",
    "sense_id",
    "pos",
    "kind",
    "mode",
    "include",
    "max_senses",
    "phrase",
    "text",
    "budgets",
]

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["dog", "en", "fr", "de", "xx", "", " ", "\x00", "\u202e", "%", "'; --"]),
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=90, max_size=400),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
ARGUMENTS = st.dictionaries(
    st.one_of(st.sampled_from(PARAMETERS), st.text(max_size=12)), VALUES, max_size=5
)
CALLS = st.lists(st.tuples(st.sampled_from(DICTIONARY_TOOLS), ARGUMENTS), min_size=1, max_size=8)


def _check(name: str, arguments: dict[str, Any], result: Any, schemas: dict[str, Any]) -> None:
    where = f"{name}({json.dumps(arguments)[:300]})"
    if result.is_error:
        error = error_of(result)  # the house rule: JSON body, no structured content
        assert error["reason"] in KNOWN, (where, error)
        assert "Traceback" not in error["message"] and len(error["message"]) < 2000, where
        if error["reason"] == "invalid_argument":
            assert error["message"].startswith(("invalid ", "unknown argument", "missing ")), (
                where,
                error,
            )
        return
    data = result.structured_content
    assert isinstance(data, dict), where
    jsonschema.validate(data, schemas[name])
    assert result.content[0].text == rendered(name, data), where


@pytest.fixture
def server(sample_corpus: Corpus) -> Any:
    """One server for all of a test's examples (building one costs about half a second of
    schema generation); each example talks to it through a client session of its own."""
    return build_server(sample_corpus, load_config({}))


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(calls=CALLS)
def test_hostile_arguments_get_named_errors(
    server: Any, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    async def main() -> None:
        async with Client(server) as client:
            schemas = {t.name: t.output_schema for t in (await client.list_tools()).tools}
            for name, arguments in calls:
                result = await client.call_tool(name, arguments)
                _check(name, arguments, result, schemas)

    anyio.run(main)
