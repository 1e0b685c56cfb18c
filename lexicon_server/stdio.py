"""The stdio transport, answering lines it cannot parse instead of dropping them.

The SDK's `stdio_server` hands a line that fails to parse to the session as an exception,
which the session only logs: the client gets no answer and waits out its own timeout.
Here every line is checked first; a line that is not JSON gets a JSON-RPC parse error
(-32700) and JSON that is not a JSON-RPC message gets an invalid-request error (-32600),
both with `"id": null` unless the request's id can be read. Good lines go on to the SDK
unchanged.

As the SDK does, stdout and stdin are moved to private descriptors while serving, so
stray output from a library (a `print`) lands on stderr, never on the wire.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from io import TextIOWrapper
from typing import TYPE_CHECKING, Any

import anyio
import mcp_types as types
from mcp.server.stdio import stdio_server
from pydantic_core import from_json

from lexicon_server.sdk import lowlevel_server

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

__all__ = ["error_for_line", "run_stdio"]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


def error_for_line(line: str) -> str | None:
    """None when the SDK can parse `line`; else the JSON-RPC error line to answer with."""
    if not line.strip():
        return None  # blank lines are skipped, as the SDK skips them
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        return None
    except Exception:
        pass
    request_id: Any = None
    try:
        # The SDK's own JSON parser: what it cannot read (lone surrogate escapes, numbers
        # of thousands of digits, non-JSON) is a parse error.
        body = from_json(line)
    except ValueError:
        code, message = PARSE_ERROR, "Parse error: the line is not valid JSON"
    else:
        code, message = INVALID_REQUEST, "Invalid Request: not a valid JSON-RPC 2.0 message"
        found = body.get("id") if isinstance(body, dict) else None
        if isinstance(found, (str, int)) and not isinstance(found, bool):
            request_id = found
    error = {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
    return json.dumps(error, separators=(",", ":"))


class _Wire:
    """The private stdout, shared by the SDK's writer and our error answers."""

    def __init__(self, fd: int) -> None:
        self._file = anyio.wrap_file(TextIOWrapper(os.fdopen(fd, "wb"), encoding="utf-8"))
        self._lock = anyio.Lock()

    async def write(self, text: str) -> int:
        async with self._lock:
            return await self._file.write(text)

    async def flush(self) -> None:
        async with self._lock:
            await self._file.flush()

    async def answer(self, line: str) -> None:
        async with self._lock:
            await self._file.write(line + "\n")
            await self._file.flush()


class _CheckedLines:
    """The private stdin's lines, minus those answered with an error on the wire."""

    def __init__(self, fd: int, wire: _Wire) -> None:
        raw = TextIOWrapper(os.fdopen(fd, "rb"), encoding="utf-8", errors="replace")
        self._file = anyio.wrap_file(raw)
        self._wire = wire

    async def __aiter__(self) -> AsyncIterator[str]:
        async for line in self._file:
            error = error_for_line(line)
            if error is None:
                yield line
            else:
                await self._wire.answer(error)


def _divert(fd: int, flags: int, target: int | None) -> int:
    """Keep `fd`'s file on a private descriptor and point `fd` elsewhere."""
    private = os.dup(fd)
    os.set_inheritable(private, False)
    replacement = os.open(os.devnull, flags) if target is None else os.dup(target)
    os.dup2(replacement, fd)
    os.close(replacement)
    return private


def run_stdio(server: MCPServer[Any]) -> None:
    """Serve `server` over this process's stdin and stdout."""
    sys.stdout.flush()
    out_fd = _divert(1, os.O_WRONLY, 2)
    in_fd = _divert(0, os.O_RDONLY, None)
    wire = _Wire(out_fd)
    lines = _CheckedLines(in_fd, wire)
    # MCPServer.run_stdio_async minus its own stdio_server() (the low-level server is a
    # private attribute; tests/server/transport/test_stdio_parse_errors.py guards it).
    lowlevel = lowlevel_server(server)

    async def serve() -> None:
        async with stdio_server(stdin=lines, stdout=wire) as (read_stream, write_stream):  # type: ignore[arg-type]
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())

    anyio.run(serve)
