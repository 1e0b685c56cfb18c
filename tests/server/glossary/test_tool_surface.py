"""What a client sees: five tools, honest annotations, output schemas; a cheap import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from lexicon_server.glossary.tools import TOOL_NAMES

from .conftest import call, glossary_server, run


def _tools(path: Path) -> dict[str, Any]:
    async def go() -> dict[str, Any]:
        async with Client(glossary_server(path)) as client:
            return {tool.name: tool for tool in (await client.list_tools()).tools}

    return run(go)


def test_five_tools_with_annotations(gpath: Path) -> None:
    tools = _tools(gpath)
    assert sorted(tools) == sorted(TOOL_NAMES)
    for name in ("glossary_find", "glossary_map"):
        assert tools[name].annotations.read_only_hint is True
    for name in ("glossary_add", "glossary_edit", "glossary_delete"):
        annotations = tools[name].annotations
        assert annotations.read_only_hint is False
        assert annotations.idempotent_hint is True
    assert tools["glossary_add"].annotations.destructive_hint is False  # only appends
    assert tools["glossary_edit"].annotations.destructive_hint is True
    assert tools["glossary_delete"].annotations.destructive_hint is True
    assert all(tool.annotations.open_world_hint is False for tool in tools.values())


def test_schemas_use_the_wire_names(gpath: Path) -> None:
    tools = _tools(gpath)
    find_input = tools["glossary_find"].input_schema["properties"]
    assert find_input["maxResults"]["default"] == 10
    assert find_input["maxResults"]["minimum"] == 1 and find_input["maxResults"]["maximum"] == 100
    assert tools["glossary_find"].input_schema["required"] == ["query"]
    assert "results" in tools["glossary_find"].output_schema["properties"]
    # Output schemas describe successes; a refusal is an error answer with no structured
    # content (its existingEntry or error is in the JSON text).
    assert set(tools["glossary_add"].output_schema["properties"]) == {"totalEntries"}
    assert tools["glossary_add"].output_schema["required"] == ["totalEntries"]
    assert set(tools["glossary_delete"].output_schema["properties"]) == {
        "totalEntries",
        "deletedEntry",
    }
    assert "required" not in tools["glossary_map"].input_schema  # term is optional


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        (
            "glossary_find",
            {"query": "batch", "maxResults": "5"},
            "invalid maxResults='5': maxResults must be an integer from 1 to 100",
        ),
        (
            "glossary_find",
            {"query": "batch", "max_results": 5},
            "unknown argument max_results=5: the parameters are query, maxResults, dictionary "
            "(did you mean maxResults?)",
        ),
        (
            "glossary_find",
            {"query": "batch", "dictionary": "yes"},
            "invalid dictionary='yes': dictionary must be true or false",
        ),
        (
            "glossary_add",
            {"term": "Lot"},
            "missing description: description is required and must be a string",
        ),
        ("glossary_map", {"term": 3}, "invalid term=3: term must be a string, or null"),
    ],
)
def test_argument_refusals_are_in_the_house_form(
    gpath: Path, name: str, args: dict[str, Any], expected: str
) -> None:
    is_error, body, text = call(gpath, name, args)
    assert is_error and body["error"]["reason"] == "invalid_argument"
    assert text == expected


def test_importing_register_loads_no_sdk_or_numpy() -> None:
    code = (
        "import sys; import lexicon_server.glossary.tools; "
        "print(sorted(m for m in ('mcp', 'pydantic', 'numpy', 'httpx') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
