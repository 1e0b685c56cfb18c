"""The protocol's floor: an MCP server with one trivial tool, for bench/server_latency.py."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

server: MCPServer = MCPServer("trivial", log_level="WARNING")


@server.tool()
async def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


if __name__ == "__main__":
    server.run("stdio")
