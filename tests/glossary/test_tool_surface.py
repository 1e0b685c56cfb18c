"""What a client sees: five tools, honest annotations, output schemas; a cheap import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from mcp import Client

from lexicon_server.glossary.tools import TOOL_NAMES

from .conftest import glossary_server, run


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
    assert set(tools["glossary_add"].output_schema["properties"]) == {
        "totalEntries",
        "existingEntry",
        "error",
    }
    assert set(tools["glossary_delete"].output_schema["properties"]) == {
        "totalEntries",
        "deletedEntry",
        "error",
    }
    assert "required" not in tools["glossary_map"].input_schema  # term is optional


def test_importing_register_loads_no_sdk_or_numpy() -> None:
    code = (
        "import sys; import lexicon_server.glossary.tools; "
        "print(sorted(m for m in ('mcp', 'pydantic', 'numpy', 'httpx') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
