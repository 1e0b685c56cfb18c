"""A glossary server in its own process, making many edits through the SDK client.

Run by test_concurrency.py as `python _edit_worker.py MODE PATH PREFIX COUNT GO_FILE`:
waits for GO_FILE to appear (so both workers start together), then for each i adds
"PREFIX i", edits its description, and deletes every fifth one again. MODE `mcp` goes
through an MCPServer and the SDK's client, `library` calls `Glossary` directly (no MCP
import, so the process starts fast).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from lexicon_server.glossary import Glossary


def library(path: Path, prefix: str, count: int, go: Path) -> None:
    glossary = Glossary(path)
    while not go.exists():
        time.sleep(0.005)
    for i in range(count):
        term = f"{prefix} {i}"
        glossary.add(term, "first")
        glossary.edit(term.upper(), f"final {prefix} {i}")
        if i % 5 == 0:
            glossary.delete(term)


async def mcp(path: Path, prefix: str, count: int, go: Path) -> None:
    from mcp import Client
    from mcp.server.mcpserver import MCPServer

    from lexicon_server.glossary.tools import register

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
    mode, args = sys.argv[1], (Path(sys.argv[2]), sys.argv[3], int(sys.argv[4]), Path(sys.argv[5]))
    if mode == "mcp":
        import anyio

        anyio.run(mcp, *args)
    else:
        library(*args)
