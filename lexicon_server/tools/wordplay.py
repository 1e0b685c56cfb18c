"""The `wordplay` tool: anagrams, palindromes, spoonerisms, pun candidates, spelling
patterns and sounds-like words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from mcp_types import CallToolResult
from pydantic import Field

from lexicon_server.query.wordplay import MAX_CONTEXT_CHARS, wordplay_data
from lexicon_server.query.wordplay_models import WordplayResult
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
WordplayOutput = published_output(WordplayResult)

_DESCRIPTION = """English wordplay, one `kind` per call. anagram: words rearranging its
letters. palindrome: is the text one, plus stored palindromes. spoonerism: two
words, first sounds swapped. pun: homophones with another meaning; `context` ranks them.
pattern: `?` one letter, `*` any run ('c?t'). sounds_like: closest pronunciations
('fone' -> phone)."""


def register(server: MCPServer, corpus: Corpus) -> None:
    async def wordplay_tool(
        text: Annotated[
            Text,
            Field(description="1 to 100 characters: a word, two (spoonerism), a pattern ('c?t')"),
        ],
        kind: Annotated[
            Literal["anagram", "palindrome", "spoonerism", "pun", "pattern", "sounds_like"],
            Field(description="which wordplay"),
        ],
        context: Annotated[
            str | None,
            Field(
                min_length=1,
                max_length=MAX_CONTEXT_CHARS,
                description="pun only: the setting, to put fitting meanings first",
            ),
        ] = None,
        limit: Limit = 20,
        vocabulary: Annotated[
            Literal["dictionary", "all"] | None,
            Field(description="pattern, sounds_like: dictionary words (default) or all"),
        ] = None,
    ) -> Annotated[CallToolResult, WordplayOutput]:
        return respond(
            corpus, lambda: wordplay_data(corpus, text, kind, context, limit, vocabulary)
        )

    server.add_tool(
        wordplay_tool,
        name="wordplay",
        description=_DESCRIPTION,
        annotations=tool_annotations("Wordplay"),
        structured_output=True,
    )
