"""After a plain prune, every retained activation activates, verifies and is served by the
real lexicon-mcp (over stdio, through the MCP SDK's own client)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import anyio

from lexicon_store import gc, integrity, ops
from lexicon_store.selection import load_active


async def _ask(data_dir: Path) -> tuple[Any, Any]:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    from lexicon_server.release.start import tool_command

    env = dict(os.environ) | {"LEXICON_DATA_DIR": str(data_dir)}
    params = StdioServerParameters(command=tool_command("lexicon-mcp")[0], args=[], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        lookup = await session.call_tool("dictionary_lookup", {"word": "dog", "language": "en"})
        french = await session.call_tool("dictionary_lookup", {"word": "chien", "language": "fr"})
    return lookup, french


def test_every_retained_activation_is_served_after_a_plain_prune(
    sample_release: tuple[Path, str], tmp_path: Path
) -> None:
    release, digest = sample_release
    data_dir = tmp_path / "data"
    en = ops.install(
        data_dir=data_dir, source=str(release), languages=["en"], manifest_digest=digest
    )
    en_fr = ops.install(
        data_dir=data_dir, source=str(release), languages=["en", "fr"], manifest_digest=digest
    )
    ops.activate(en.activation_id, data_dir=data_dir)
    assert gc.prune(data_dir).dropped_activations == ()

    for activation, has_french in ((en_fr.activation_id, True), (en.activation_id, False)):
        ops.activate(activation, data_dir=data_dir)
        assert load_active(data_dir).activation_id == activation
        assert integrity.verify(data_dir).ok
        lookup, french = anyio.run(_ask, data_dir)
        assert not lookup.is_error and lookup.structured_content["senses"]
        if has_french:
            assert not french.is_error and french.structured_content["found"]
        else:
            assert "language_not_installed" in str(french.content) + str(french.structured_content)
