"""Property: hostile arguments to the slang tools get a named error, never a crash.

The dictionary tools' property test (tests/server/tools/test_hostile_arguments.py) for
the opt-in slang group: Hypothesis builds argument objects for `slang_interpret` and
`slang_rewrite` from their real parameter names and made-up ones, holding every JSON
type (nested glossaries, huge numbers, control characters, long texts). They go through
the SDK's own client to the real server over the sample corpus. An error has a known
reason (never `internal_error`) and no traceback; a success conforms to the published
output schema and stays within the response budget.
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
from lexicon_server.models import MAX_RESPONSE_CHARS
from lexicon_server.server import build_server
from lexicon_server.slang.tools import TOOLS

KNOWN = {"invalid_argument", "source_unreadable"}
PARAMETERS = ["text", "terms", "limit", "order", "glossary", "direction", "slang", "plain"]

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["lit", "no cap", "😂", "", " ", "\x00", "\u202e", "auto", "to_slang"]),
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=200, max_size=2000),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.sampled_from(["slang", "plain", "x"]), inner, max_size=3),
    ),
    max_leaves=16,
)
ARGUMENTS = st.dictionaries(
    st.one_of(st.sampled_from(PARAMETERS), st.text(max_size=12)), VALUES, max_size=5
)
CALLS = st.lists(st.tuples(st.sampled_from(TOOLS), ARGUMENTS), min_size=1, max_size=6)


def _check(name: str, arguments: dict[str, Any], result: Any, schemas: dict[str, Any]) -> None:
    where = f"{name}({json.dumps(arguments)[:300]})"
    if result.is_error:
        error = error_of(result)
        assert error["reason"] in KNOWN, (where, error)
        assert "Traceback" not in error["message"] and len(error["message"]) < 2000, where
        return
    data = result.structured_content
    assert isinstance(data, dict), where
    jsonschema.validate(data, schemas[name])
    assert len(result.content[0].text) <= MAX_RESPONSE_CHARS, where


@pytest.fixture
def server(sample_corpus: Corpus) -> Any:
    """One server with the slang group for all of a test's examples (building one costs
    about half a second); each example talks to it through a client session of its own."""
    return build_server(sample_corpus, load_config({"LEXICON_SLANG": "1"}))


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(calls=CALLS)
def test_hostile_slang_arguments_get_named_errors(
    server: Any, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    async def main() -> None:
        async with Client(server) as client:
            schemas = {t.name: t.output_schema for t in (await client.list_tools()).tools}
            for name, arguments in calls:
                result = await client.call_tool(name, arguments)
                _check(name, arguments, result, schemas)

    anyio.run(main)
