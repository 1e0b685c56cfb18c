"""Run `lexicon-mcp` over streamable HTTP on a free loopback port for the length of a test."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

__all__ = ["free_port", "serving_http"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving_http(
    arguments: Sequence[str], timeout: float = 60, env: Mapping[str, str] | None = None
) -> Iterator[str]:
    """`lexicon-mcp --transport streamable-http --port P ARGUMENTS` listening (in `env`, else
    this environment); yields its MCP URL."""
    port = free_port()
    command = [sys.executable, "-m", "lexicon_server.cli", "--transport", "streamable-http"]
    command += ["--port", str(port), *arguments]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=None if env is None else dict(env),
    )
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise AssertionError(proc.stderr.read().decode() if proc.stderr else "")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start listening"
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
