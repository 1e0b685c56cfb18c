"""Shared helpers for the glossary tests: real files in tmp_path, the SDK's own client."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer

from lexicon_server.corpus.reader import Corpus
from lexicon_server.glossary.tools import register

T = TypeVar("T")

BRIEF_ENTRIES = [
    (
        "Batch Release",
        "Formal approval of a production batch before further processing or shipping.",
    ),
    ("Target Stock", "Planned or expected inventory level used for comparison with actual stock."),
    ("Production Batch", "A quantity made in one run; see Batch Record for its paperwork."),
    ("Batch Record", "The document trail of one production batch."),
]


def jsonl(entries: list[tuple[str, str]]) -> str:
    return "".join(
        json.dumps({"term": t, "description": d}, ensure_ascii=False) + "\n" for t, d in entries
    )


@pytest.fixture
def gpath(tmp_path: Path) -> Path:
    """A glossary file holding the brief's sample entries."""
    path = tmp_path / "glossary.jsonl"
    path.write_text(jsonl(BRIEF_ENTRIES), encoding="utf-8")
    return path


def run(fn: Callable[[], Awaitable[T]]) -> T:
    return anyio.run(fn)


def glossary_server(path: Path, corpus: Corpus | None = None) -> MCPServer[Any]:
    """A server with only the glossary tools, as lexicon-mcp --glossary PATH would add them."""
    server: MCPServer[Any] = MCPServer("glossary-test")
    register(server, path, corpus)
    return server


def call(
    path_or_server: Path | MCPServer[Any], name: str, arguments: dict[str, Any]
) -> tuple[bool, Any, str]:
    """One tool call through the SDK's in-memory client: (is_error, structured, text)."""
    server = (
        path_or_server if isinstance(path_or_server, MCPServer) else glossary_server(path_or_server)
    )

    async def go() -> tuple[bool, Any, str]:
        async with Client(server) as client:
            result = await client.call_tool(name, arguments)
            text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
            return bool(result.is_error), result.structured_content, text

    return run(go)
