"""The `dictionary_relations` tool."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from mcp_types import CallToolResult
from pydantic import Field

from lexicon_server.models import RelationsResult
from lexicon_server.query.relations import RELATIONS, TRANSITIVE_RELATIONS, relations_data
from lexicon_server.tools._shared import Language, Word, published_output, respond, tool_annotations

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from lexicon_server.corpus.reader import Corpus

__all__ = ["register"]

# Module level: the SDK resolves the tool's return annotation in this namespace.
RelationsOutput = published_output(RelationsResult)

_DESCRIPTION = f"""Lexical relations of a word (hypernyms, hyponyms, antonyms, meronyms,
...), each with the sense it starts from, its target, and the directed edge(s) with
source and licence. Direct edges are relation_scope='direct', distance=1. For
{", ".join(sorted(TRANSITIVE_RELATIONS))}, max_depth=2 adds a bounded two-edge expansion
(relation_scope='transitive', distance=2) whose `path` holds both edges. Targets say
whether their own entry is installed."""


def register(server: MCPServer, corpus: Corpus) -> None:
    async def dictionary_relations(
        word: Word,
        relation: Annotated[
            str, Field(description="relation name, one of: " + ", ".join(sorted(RELATIONS)))
        ],
        language: Language = "en",
        limit: Annotated[
            int, Field(ge=1, le=100, description="total results returned: 1 to 100")
        ] = 20,
        max_depth: Annotated[
            int,
            Field(ge=1, le=2, description="1 = direct edges; 2 = also two-edge hyper/hyponyms"),
        ] = 1,
        transitive_limit: Annotated[
            int | None,
            Field(
                description=(
                    "results reserved for distance-2 results when max_depth=2: 0 disables, "
                    "1..limit is explicit; omitted means 5 (or limit if smaller). -1 is not "
                    "accepted. Unused allocation goes back to direct results."
                )
            ),
        ] = None,
    ) -> Annotated[CallToolResult, RelationsOutput]:
        return respond(
            corpus,
            lambda: relations_data(
                corpus, word, relation, language, limit, max_depth, transitive_limit
            ),
        )

    server.add_tool(
        dictionary_relations,
        description=_DESCRIPTION,
        annotations=tool_annotations("Lexical relations"),
        structured_output=True,
    )
