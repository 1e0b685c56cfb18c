"""The `dictionary_lookup` tool."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from mcp_types import CallToolResult
from pydantic import Field

from lexicon_server.models import LookupResult
from lexicon_server.query.lookup import DEFAULT_BUDGETS, lookup_data
from lexicon_server.tools._shared import (
    Language,
    Limit,
    Word,
    published_output,
    respond,
    tool_annotations,
)

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from lexicon_server.corpus.reader import Corpus

__all__ = ["register"]

# Module level: the SDK resolves the tool's return annotation in this namespace.
LookupOutput = published_output(LookupResult)

_DESCRIPTION = """Look a word up in the local dictionary: its senses (definitions, part of
speech, synset), with examples, pronunciations and translations attached to each sense.
An inflected form ('dogs', 'ran') is resolved to its lemma and `resolutions` says how.
`limit` caps the senses. Examples, pronunciations and translations each have one total
budget shared round-robin across the returned senses (0 disables a class); a sense lists
in `truncated_fields` every class it has more of than it received. Every item names its
source and licence. A language that is not installed is reported with its reason."""


def _budget(default: int, what: str) -> object:
    return Field(
        ge=0,
        le=100,
        description=f"total {what} across all returned senses (0 disables; default {default})",
    )


def register(server: MCPServer, corpus: Corpus) -> None:
    async def dictionary_lookup(
        word: Word,
        language: Language = "en",
        limit: Limit = 10,
        examples_limit: Annotated[int, _budget(DEFAULT_BUDGETS["examples"], "examples")] = 8,
        pronunciations_limit: Annotated[
            int, _budget(DEFAULT_BUDGETS["pronunciations"], "pronunciations")
        ] = 8,
        translations_limit: Annotated[
            int, _budget(DEFAULT_BUDGETS["translations"], "translations")
        ] = 20,
    ) -> Annotated[CallToolResult, LookupOutput]:
        return respond(
            corpus,
            lambda: lookup_data(
                corpus,
                word,
                language,
                limit,
                examples_limit,
                pronunciations_limit,
                translations_limit,
            ),
        )

    server.add_tool(
        dictionary_lookup,
        description=_DESCRIPTION,
        annotations=tool_annotations("Dictionary look-up"),
        structured_output=True,
    )
