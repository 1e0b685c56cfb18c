"""The streamable HTTP transport, on a loopback port, through the SDK's own client."""

from __future__ import annotations

from pathlib import Path

import anyio
from _support.http_server import serving_http
from _support.provenance import assert_sources_complete
from mcp import Client


def test_streamable_http_on_loopback(mini_data_dir: Path) -> None:
    with serving_http(["--data-dir", str(mini_data_dir)]) as url:

        async def main() -> tuple[set[str], dict[str, object] | None]:
            async with Client(url) as client:
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
