"""The glossary tool group, added to an MCPServer only when a glossary file is configured.

Importing this module is cheap (no MCP SDK, no pydantic): `register` imports them when it
runs. The tools themselves are rows of the tool table (`tool_table.glossary_tools`); what
they do is in `glossary/tool_calls.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from mcp.server.mcpserver import MCPServer

    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.glossary.glossary import Glossary

__all__ = ["TOOL_NAMES", "register"]

TOOL_NAMES = ("glossary_find", "glossary_map", "glossary_add", "glossary_edit", "glossary_delete")


def register(server: MCPServer[Any], glossary_path: Path, corpus: Corpus | None) -> Glossary:
    """Add glossary_find/map/add/edit/delete to `server`, serving the JSONL file at `glossary_path`.

    The file is read and validated now, so a bad file stops start-up with its name, line
    and reason (GlossaryFormatError); a missing file is an empty glossary.
    """
    from lexicon_server.glossary.tool_calls import GlossaryTools
    from lexicon_server.sdk import add_tools
    from lexicon_server.tool_table import glossary_tools

    tools = GlossaryTools(glossary_path, corpus)
    add_tools(server, glossary_tools(), {"glossary": tools})
    return tools.glossary
