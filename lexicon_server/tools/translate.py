"""The `dictionary_translate` tool."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from mcp_types import CallToolResult
from pydantic import Field

from lexicon_server.models import TranslateResult
from lexicon_server.query.senses import MAX_SENSES_DEFAULT
from lexicon_server.query.translate import translate
from lexicon_server.tools._shared import Language, Word, published_output, respond, tool_annotations

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from lexicon_server.corpus.reader import Corpus

__all__ = ["register"]

# Module level: the SDK resolves the tool's return annotation in this namespace.
TranslateOutput = published_output(TranslateResult)

_DESCRIPTION = """Translate a word into another language. Candidates are grouped by the
source-language sense they translate and dealt round-robin across those groups, with
translations not tied to a sense last. Each candidate says whether the target word has
its own installed entry; `target_language_status` says whether the target language is
installed (translations into a language you have not installed are still returned).
Pass `sense_id` (from dictionary_lookup) to translate one sense only."""


def register(server: MCPServer, corpus: Corpus) -> None:
    async def dictionary_translate(
        word: Word,
        target_language: Annotated[
            str, Field(description="language to translate into, e.g. 'fr', 'de', 'ja'")
        ],
        source_language: Language = "en",
        limit: Annotated[
            int, Field(ge=1, le=100, description="total translation candidates: 1 to 100")
        ] = 20,
        max_senses: Annotated[
            int,
            Field(ge=1, le=100, description="how many source senses to inspect: 1 to 100"),
        ] = MAX_SENSES_DEFAULT,
        sense_id: Annotated[
            str | None,
            Field(description="restrict to one sense, by the id dictionary_lookup returned"),
        ] = None,
    ) -> Annotated[CallToolResult, TranslateOutput]:
        return respond(
            corpus,
            lambda: translate(
                corpus, word, target_language, source_language, limit, max_senses, sense_id
            ),
        )

    server.add_tool(
        dictionary_translate,
        description=_DESCRIPTION,
        annotations=tool_annotations("Translate"),
        structured_output=True,
    )
