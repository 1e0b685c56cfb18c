"""A glossary server in its own process, making many edits through the SDK client.

Run by test_concurrency.py as `python _edit_worker.py PATH PREFIX COUNT GO_FILE`: waits for
GO_FILE to appear (so both workers start together), then for each i adds "PREFIX i",
edits its description, and deletes every fifth one again.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import anyio
from mcp import Client
from mcp.server.mcpserver import MCPServer

from lexicon_server.glossary.tools import register


async def main(path: Path, prefix: str, count: int, go: Path) -> None:
    server: MCPServer = MCPServer("worker")
    register(server, path, None)
    while not go.exists():
        time.sleep(0.005)
    async with Client(server) as client:
        for i in range(count):
            term = f"{prefix} {i}"
            for name, arguments in (
                ("glossary_add", {"term": term, "description": "first"}),
                ("glossary_edit", {"term": term.upper(), "description": f"final {prefix} {i}"}),
            ):
                result = await client.call_tool(name, arguments)
                if result.is_error:
                    raise SystemExit(f"{name} {term}: {result.content}")
            if i % 5 == 0:
                result = await client.call_tool("glossary_delete", {"term": term})
                if result.is_error:
                    raise SystemExit(f"delete {term}: {result.content}")


if __name__ == "__main__":
    anyio.run(main, Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), Path(sys.argv[4]))
