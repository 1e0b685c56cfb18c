"""The official MCP conformance suite, and the capabilities the server advertises."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from _support.http_server import serving_http
from _support.mcp_client import with_server_client
from _support.node_clients import CLIENTS, bin_path
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_MODERN_VERSION

from lexicon_server.config import load_config
from lexicon_server.corpus.reader import Corpus
from lexicon_server.server import build_server

BASELINE = CLIENTS / "conformance-baseline.yml"
# What the server implements: tools and resources, neither of which changes while it runs.
CAPABILITIES = {
    "tools": {"listChanged": False},
    "resources": {"listChanged": False, "subscribe": False},
}


@pytest.mark.slow
def test_conformance_suite_passes_but_for_the_listed_scenarios(
    sample_data_dir: Path, tmp_path: Path
) -> None:
    with serving_http(["--data-dir", str(sample_data_dir)]) as url:
        suite = [bin_path("conformance"), "server", "--url", url]
        proc = subprocess.run(
            [*suite, "--expected-failures", str(BASELINE), "-o", str(tmp_path / "results")],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    # The suite exits non-zero on a failure the baseline does not list, and on a listed
    # scenario that now passes, so the list stays exact.
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    assert "Baseline check passed" in proc.stdout


def test_every_expected_conformance_failure_says_why() -> None:
    entries = [line for line in BASELINE.read_text().splitlines() if line.startswith("  - ")]
    assert entries
    for line in entries:
        assert re.fullmatch(r"  - [a-z0-9-]+ +# \S.*", line), line


def _post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    response = httpx.post(
        url,
        json=body,
        headers={"accept": "application/json, text/event-stream", **(headers or {})},
        timeout=30,
    )
    response.raise_for_status()
    text = response.text
    if response.headers["content-type"].startswith("text/event-stream"):
        text = next(line[5:] for line in text.splitlines() if line.startswith("data:"))
    return httpx.Response(200, text=text).json()


def test_capabilities_are_exactly_what_is_implemented_on_every_protocol_version(
    mini_data_dir: Path,
) -> None:
    with serving_http(["--data-dir", str(mini_data_dir)]) as url:
        for version in HANDSHAKE_PROTOCOL_VERSIONS:
            params = {"protocolVersion": version, "capabilities": {}}
            params["clientInfo"] = {"name": "tests", "version": "1"}
            body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}
            result = _post(url, body)["result"]
            assert result["capabilities"] == CAPABILITIES, version
            assert result["serverInfo"]["description"], version
        meta = {
            "io.modelcontextprotocol/protocolVersion": LATEST_MODERN_VERSION,
            "io.modelcontextprotocol/clientCapabilities": {},
        }
        discover = {"jsonrpc": "2.0", "id": 1, "method": "server/discover"}
        headers = {"mcp-protocol-version": LATEST_MODERN_VERSION, "mcp-method": "server/discover"}
        result = _post(url, {**discover, "params": {"_meta": meta}}, headers)["result"]
    assert result["capabilities"] == CAPABILITIES
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["description"]


@pytest.mark.parametrize("method", ["list_tools", "list_resources", "list_resource_templates"])
def test_a_cursor_the_server_never_gave_is_invalid_params(corpus: Corpus, method: str) -> None:
    async def body(client: Client) -> None:
        with pytest.raises(MCPError) as refused:
            await getattr(client, method)(cursor="bogus")
        assert refused.value.code == INVALID_PARAMS
        assert "without a cursor" in refused.value.error.message
        await getattr(client, method)()  # the same call without one still answers

    with_server_client(build_server(corpus, load_config({})), body)
