"""The streamable HTTP transport, on a loopback port, through the SDK's own client."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
from _support.provenance import assert_sources_complete
from mcp import Client


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_streamable_http_on_loopback(mini_data_dir: Path) -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "lexicon_server.cli",
            "--data-dir",
            str(mini_data_dir),
            "--transport",
            "streamable-http",
            "--port",
            str(port),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "server did not start listening"
                time.sleep(0.1)

        async def main() -> tuple[set[str], dict[str, object] | None]:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                names = {t.name for t in (await client.list_tools()).tools}
                result = await client.call_tool(
                    "dictionary_translate", {"word": "house", "target_language": "fr"}
                )
                return names, result.structured_content

        names, data = anyio.run(main)
        assert "dictionary_lookup" in names
        assert data is not None and data["target_language_status"] == "installed"
        sources = data["sources"]
        assert isinstance(sources, dict) and "freedict-eng-fra" in sources
        assert_sources_complete(data)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
