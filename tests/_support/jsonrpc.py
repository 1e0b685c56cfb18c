"""Raw JSON-RPC messages, for tests that speak to a transport without the SDK's client."""

from __future__ import annotations

__all__ = ["INITIALIZE"]

# The first request of any MCP session, as a client sends it.
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"},
    },
}
