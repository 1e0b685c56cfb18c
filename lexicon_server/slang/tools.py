"""The opt-in slang tool group on an MCPServer.

`slang_rewrite` and `slang_interpret` are always part of the group; the three Urban
Dictionary tools exist only when the online provider is switched on, and say so with an
open-world annotation. The tools are rows of the tool table (`tool_table.slang_tools`,
`urban_dictionary_tools`); what they do is in `slang/tool_calls.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lexicon_server.sdk import add_tools
from lexicon_server.slang.glossary_source import ProjectGlossary
from lexicon_server.slang.online import UrbanDictionary
from lexicon_server.slang.sources import MeaningSources
from lexicon_server.tool_table import slang_tools, urban_dictionary_tools

if TYPE_CHECKING:
    from pathlib import Path

    from mcp.server.mcpserver import MCPServer

    from lexicon_server.config import ServerConfig
    from lexicon_server.slang.corpus_source import LexicalCorpus

__all__ = ["ONLINE_TOOLS", "TOOLS", "register"]

TOOLS = ("slang_rewrite", "slang_interpret")
ONLINE_TOOLS = ("urban_dictionary_define", "urban_dictionary_random", "urban_dictionary_defid")


def register(
    server: MCPServer,
    *,
    corpus: LexicalCorpus | None,
    glossary_path: Path | None,
    online: bool,
    config: ServerConfig,
) -> None:
    """Add the slang tools to `server`; the Urban Dictionary ones only when `online`."""
    provider = UrbanDictionary.from_config(config) if online else None
    sources = MeaningSources(
        corpus=corpus,
        glossary=ProjectGlossary(glossary_path) if glossary_path is not None else None,
        online=provider,
    )
    specs = slang_tools(sources, online=provider is not None)
    if provider is not None:
        specs += urban_dictionary_tools()
    add_tools(server, specs, {"slang": sources, "urban_dictionary": provider})
