"""The slang group inside the real `build_server`: off by default, two tools, five online."""

from __future__ import annotations

from pathlib import Path

import anyio
from mcp import Client

from lexicon_server.config import load_config
from lexicon_server.server import build_server
from lexicon_server.slang.tools import ONLINE_TOOLS, TOOLS


def tool_names(tmp: Path, corpus_factory, env: dict[str, str]) -> set[str]:  # type: ignore[no-untyped-def]
    tmp.mkdir()
    server = build_server(corpus_factory(tmp), load_config(env))

    async def go() -> set[str]:
        async with Client(server) as client:
            return {t.name for t in (await client.list_tools()).tools}

    return anyio.run(go)


def test_tool_list_per_switch(tmp_path: Path, corpus_factory, fake_ud) -> None:  # type: ignore[no-untyped-def]
    base = tool_names(tmp_path / "a", corpus_factory, {})
    assert not base & (set(TOOLS) | set(ONLINE_TOOLS))  # disabled: the list is untouched
    offline = tool_names(tmp_path / "b", corpus_factory, {"LEXICON_SLANG": "1"})
    assert offline == base | set(TOOLS)
    online = tool_names(
        tmp_path / "c",
        corpus_factory,
        {
            "LEXICON_SLANG": "1",
            "LEXICON_URBAN_DICTIONARY": "1",
            "URBAN_DICTIONARY_API_BASE": fake_ud.base_url,
        },
    )
    assert online == base | set(TOOLS) | set(ONLINE_TOOLS)
    assert fake_ud.requests == []
