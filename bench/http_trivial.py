"""A trivial one-tool MCP server served over HTTP exactly as `lexicon-mcp` serves it.

Same ASGI app (`lexicon_server.http.build_app`), same options, same uvicorn: only the
tool differs, so bench/http_throughput.py can show what the dictionary itself costs.

    python bench/http_trivial.py --port 8766 --stateless --json-response [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))


def _server() -> Any:
    from mcp.server.mcpserver import MCPServer

    server: MCPServer = MCPServer("trivial", log_level="WARNING")

    @server.tool()
    def dictionary_lookup(word: str) -> str:
        """Return the word unchanged (the same tool name and argument as the real one)."""
        return word

    return server


def _options() -> Any:
    from lexicon_server.http import HttpOptions

    args = os.environ["HTTP_TRIVIAL_ARGS"].split(",")
    return HttpOptions(
        port=int(args[0]),
        stateless=args[1] == "1",
        json_response=args[2] == "1",
        workers=int(args[3]),
    )


def app() -> Any:
    """The uvicorn factory (one call per worker process)."""
    from lexicon_server.http import build_app

    return build_app(_server(), _options())


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--stateless", action="store_true")
    parser.add_argument("--json-response", action="store_true")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--sdk-defaults",
        action="store_true",
        help="serve with the SDK's own MCPServer.run (its session defaults), for comparison",
    )
    ns = parser.parse_args()
    if ns.sdk_defaults:
        _server().run("streamable-http", host="127.0.0.1", port=ns.port)
        return
    os.environ["HTTP_TRIVIAL_ARGS"] = (
        f"{ns.port},{int(ns.stateless)},{int(ns.json_response)},{ns.workers}"
    )
    if ns.workers > 1:
        from lexicon_server.http import run_workers

        run_workers("http_trivial:app", _options())
    else:
        uvicorn.run(app(), host="127.0.0.1", port=ns.port, log_level="warning")


if __name__ == "__main__":
    main()
