"""The `rhymes` tool: perfect and near rhymes of an English word."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from mcp_types import CallToolResult
from pydantic import Field

from lexicon_server.query.rhymes import MAX_SYLLABLES, rhymes_data
from lexicon_server.query.wordplay_models import RhymesResult
from lexicon_server.tools._shared import (
    Limit,
    Text,
    published_output,
    respond,
    tool_annotations,
)

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from lexicon_server.corpus.reader import Corpus

__all__ = ["register"]

# Module level: the SDK resolves the tool's return annotation in this namespace.
RhymesOutput = published_output(RhymesResult)

_DESCRIPTION = """English rhymes from the CMU Pronouncing Dictionary, most frequent words
first, each with its syllable count. Every pronunciation of the word is used and the word
itself is never returned. mode='perfect': the sounds from the last stressed vowel to the end
are identical. mode='near': they differ by exactly one ARPAbet sound inserted, deleted or
substituted (perfect rhymes excluded); `edit` names the kind of change, and `rhyme` beside
`query_rhyme` shows the sounds. `syllables` keeps only rhymes of that many syllables.
`found` is false when CMUdict has no pronunciation of the word."""


def register(server: MCPServer, corpus: Corpus) -> None:
    async def rhymes_tool(
        word: Annotated[
            Text, Field(description="an English word, as written (1 to 100 characters)")
        ],
        mode: Annotated[
            Literal["perfect", "near"],
            Field(description="'perfect' (identical rhyme part) or 'near' (one sound differs)"),
        ] = "perfect",
        limit: Limit = 20,
        syllables: Annotated[
            int | None,
            Field(
                ge=1,
                le=MAX_SYLLABLES,
                description=f"only rhymes with this many syllables (1 to {MAX_SYLLABLES}); "
                "omit for any",
            ),
        ] = None,
    ) -> Annotated[CallToolResult, RhymesOutput]:
        return respond(corpus, lambda: rhymes_data(corpus, word, mode, limit, syllables))

    server.add_tool(
        rhymes_tool,
        name="rhymes",
        description=_DESCRIPTION,
        annotations=tool_annotations("Rhymes"),
        structured_output=True,
    )
