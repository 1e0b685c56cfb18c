"""Run a coroutine against a server through the MCP SDK's own in-memory client."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio
from mcp import Client
from mcp.server.mcpserver import MCPServer

__all__ = ["with_server_client"]

T = TypeVar("T")


def with_server_client(server: MCPServer[Any], body: Callable[[Client], Awaitable[T]]) -> T:
    """`body(client)` with a client connected to `server`, run to completion."""

    async def main() -> T:
        async with Client(server) as client:
            return await body(client)

    return anyio.run(main)
