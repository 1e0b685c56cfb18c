"""The slang issue's sentence, and `slang_interpret` called on it through the MCP client."""

from __future__ import annotations

from pathlib import Path

import anyio
from mcp import Client

from lexicon_server.config import load_config
from lexicon_server.server import build_server
from lexicon_server.slang import open_corpus

__all__ = ["TERMS", "TEXT", "interpret_over_mcp"]

TEXT = "that party was lit, no cap 😂"
TERMS = ["lit", "no cap", "😂"]


def interpret_over_mcp(data_dir: Path) -> dict[str, object]:
    """`slang_interpret` of TEXT and TERMS on a server over `data_dir`: its structured answer."""
    server = build_server(open_corpus(data_dir), load_config({"LEXICON_SLANG": "1"}))

    async def go() -> dict[str, object]:
        async with Client(server) as client:
            result = await client.call_tool("slang_interpret", {"text": TEXT, "terms": TERMS})
            assert result.structured_content is not None
            return result.structured_content

    return anyio.run(go)
