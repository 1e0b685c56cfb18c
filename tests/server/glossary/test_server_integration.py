"""The glossary group inside the real Lexicon server: opt-in, five tools on top of seven."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from lexicon_server.config import load_config
from lexicon_server.glossary import GlossaryFormatError
from lexicon_server.glossary.tools import TOOL_NAMES
from lexicon_server.server import build_server

from .conftest import mini_corpus, run


def _tool_names(server: Any) -> list[str]:
    async def go() -> list[str]:
        async with Client(server) as client:
            return [tool.name for tool in (await client.list_tools()).tools]

    return run(go)


def test_off_by_default_on_with_a_path(tmp_path: Path, gpath: Path) -> None:
    config = load_config({})
    plain = _tool_names(build_server(mini_corpus(tmp_path / "a", frozenset({"lexical"})), config))
    assert len(plain) == 7 and not set(plain) & set(TOOL_NAMES)
    with_glossary = dataclasses.replace(config, glossary_path=gpath)
    names = _tool_names(
        build_server(mini_corpus(tmp_path / "b", frozenset({"lexical"})), with_glossary)
    )
    assert sorted(names) == sorted(plain + list(TOOL_NAMES))


def test_environment_variable_switches_it_on(tmp_path: Path, gpath: Path) -> None:
    config = load_config({"LEXICON_GLOSSARY": str(gpath)})
    server = build_server(mini_corpus(tmp_path / "a", frozenset({"lexical"})), config)

    async def go() -> Any:
        async with Client(server) as client:
            return await client.call_tool("glossary_find", {"query": "release", "dictionary": True})

    result = run(go)
    assert not result.is_error
    body = result.structured_content
    assert body["results"][0]["entry"]["term"] == "Batch Release"
    assert body["dictionary"]["status"] == "ok"  # the server's own corpus is used


def test_bad_glossary_stops_the_server_build(tmp_path: Path) -> None:
    bad = tmp_path / "glossary.jsonl"
    bad.write_text('{"term":"A","description":"a"}\n{"term":"a","description":"b"}\n', "utf-8")
    config = dataclasses.replace(load_config({}), glossary_path=bad)
    with pytest.raises(GlossaryFormatError, match=r"glossary.jsonl:2: duplicate term"):
        build_server(mini_corpus(tmp_path / "a", frozenset({"lexical"})), config)
