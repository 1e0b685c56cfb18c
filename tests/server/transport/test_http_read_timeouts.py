"""Every HTTP connection has read deadlines: headers, then body (issue 27, case 7).

A real `lexicon-mcp` on a loopback port, with a bearer token and short deadlines set by
its options, and raw sockets that misbehave as slow clients do: half a header, nothing
at all, one byte at a time, a body that never ends. The server closes each of them, the
token check never having seen a request, and still answers a client that behaves. The
only time bound is a generous one on the socket: "closed before 30 s", not "closed at
1 s".
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import anyio
import httpx2
from _support.http_server import serving_http
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

TOKEN = "correct-horse-battery-staple-0123"
BOUND = 30.0  # seconds a misbehaving socket may stay open before the test fails


def _read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (fails at BOUND)."""
    sock.settimeout(BOUND)
    received = b""
    while True:
        try:
            chunk = sock.recv(4096)
        except ConnectionResetError:
            return received
        except TimeoutError:
            raise AssertionError(f"still open after {BOUND} s; received {received!r}") from None
        if not chunk:
            return received
        received += chunk


def _half_header(sock: socket.socket) -> None:
    sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appli")


def _nothing(sock: socket.socket) -> None:
    pass


def _endless_body(sock: socket.socket) -> None:
    sock.sendall(
        b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + TOKEN.encode()
        + b'\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc"'
    )


def _open(url: str) -> socket.socket:
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    return socket.create_connection((parts.hostname, parts.port), timeout=BOUND)


def test_slow_requests_are_closed_and_good_ones_served(mini_data_dir: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    env["LEXICON_HTTP_TOKEN"] = TOKEN
    args = ["--data-dir", str(mini_data_dir), "--header-timeout", "1", "--body-timeout", "1"]
    with serving_http(args, env=env) as url:
        stalls: dict[str, Callable[[socket.socket], None]] = {
            "half header": _half_header,
            "nothing": _nothing,
            "endless body": _endless_body,
        }
        for name, stall in stalls.items():
            with _open(url) as sock:
                stall(sock)
                answer = _read_until_closed(sock)
            # Closed by the server, with a 408 (or reset before it could be read).
            assert answer == b"" or answer.startswith(b"HTTP/1.1 408 "), (name, answer)

        # One byte at a time, each well within uvicorn's keep-alive timeout (which every
        # byte resets): the header deadline still runs from the first byte.
        with _open(url) as sock:
            request = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 10_000
            started = time.monotonic()
            closed = False
            for byte in request:
                try:
                    sock.sendall(bytes([byte]))
                except (BrokenPipeError, ConnectionResetError):
                    closed = True
                    break
                sock.settimeout(0.2)
                try:
                    if sock.recv(4096) is not None:
                        closed = True  # the 408, or the end of the connection
                        break
                except TimeoutError:
                    pass
                assert time.monotonic() - started < BOUND, "the trickle was never cut off"
            assert closed

        # A client that behaves is served, by the same process.
        async def lookup() -> object:
            http = httpx2.AsyncClient(headers={"authorization": f"Bearer {TOKEN}"}, timeout=30)
            async with Client(streamable_http_client(url, http_client=http)) as client:
                return await client.call_tool("dictionary_lookup", {"word": "dog"})

        result = anyio.run(lookup)
        assert not getattr(result, "is_error", True)
