"""Local-only paths open no connection and never load a network library."""

from __future__ import annotations

import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from lexicon_server.config import load_config
from lexicon_server.corpus.reader import Corpus
from lexicon_server.slang import interpret, lookup, rewrite
from lexicon_server.slang.tools import register


class ConnectionAttempted(AssertionError):
    pass


@pytest.fixture
def no_connections(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Make every outgoing connection fail loudly, and record the attempts."""
    attempts: list[object] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args)
        raise ConnectionAttempted(f"a connection was attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    return attempts


def test_the_guard_itself_catches_a_connection(no_connections: list[object]) -> None:
    with pytest.raises(ConnectionAttempted), socket.socket() as s:
        s.connect(("127.0.0.1", 9))
    assert len(no_connections) == 1


def test_library_calls_open_no_connection(
    no_connections: list[object], corpus: Corpus, project_glossary: Path
) -> None:
    text = "No cap, this works fr!"
    assert rewrite(text, [("no cap", "honestly")]).output == "honestly, this works fr!"
    result = interpret(text, ["no cap", "fr", "yeet"], corpus=corpus, glossary=project_glossary)
    assert [e.status for e in result.entries] == ["found", "found", "not_in_text"]
    assert lookup("cap", corpus=corpus).definitions
    assert no_connections == []


def test_offline_tool_group_opens_no_connection(
    no_connections: list[object], corpus: Corpus, project_glossary: Path
) -> None:
    # The config names an API base, but the online switch is off: nothing may use it.
    config = load_config({"URBAN_DICTIONARY_API_BASE": "http://127.0.0.1:9/v0"})
    server = MCPServer("offline")
    register(server, corpus=corpus, glossary_path=project_glossary, online=False, config=config)

    async def go() -> list[str]:
        async with Client(server) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            r = await client.call_tool(
                "slang_interpret", {"text": "fr, no cap", "terms": ["fr", "no cap"]}
            )
            assert r.structured_content is not None
            assert not r.structured_content["has_errors"]
            # An unknown tool (the online group is not there) is a protocol error.
            with pytest.raises(MCPError) as refused:
                await client.call_tool("urban_dictionary_define", {"term": "fr"})
            assert refused.value.code == INVALID_PARAMS
            return names

    assert sorted(anyio.run(go)) == ["slang_interpret", "slang_rewrite"]
    assert no_connections == []


def test_importing_and_using_the_local_paths_never_loads_httpx(tmp_path: Path) -> None:
    glossary = tmp_path / "g.jsonl"
    glossary.write_text('{"term": "fr", "description": "for real"}\n', encoding="utf-8")
    script = textwrap.dedent(
        f"""
        import sys
        import lexicon_server, lexicon_server.slang, lexicon_server.slang.tools
        from lexicon_server.slang import interpret, lookup, rewrite
        from lexicon_server.config import load_config
        from mcp.server.mcpserver import MCPServer
        rewrite("fr", [("fr", "for real")])
        interpret("fr", ["fr"], glossary={str(glossary)!r})
        lookup("fr", glossary={str(glossary)!r})
        lexicon_server.slang.tools.register(
            MCPServer("x"), corpus=None, glossary_path=None, online=False, config=load_config({{}})
        )
        loaded = sorted(m for m in ("httpx", "httpcore") if m in sys.modules)
        print(",".join(loaded) or "none")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "none", out.stderr
