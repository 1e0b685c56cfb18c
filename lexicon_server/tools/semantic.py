"""The `dictionary_semantic_neighbors` tool."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from mcp_types import CallToolResult
from pydantic import Field

from lexicon_server.models import SemanticResult
from lexicon_server.query.semantic import VectorStore, semantic_data
from lexicon_server.tools._shared import Language, Word, published_output, respond, tool_annotations

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from lexicon_server.corpus.reader import Corpus

__all__ = ["register"]

# Module level: the SDK resolves the tool's return annotation in this namespace.
SemanticOutput = published_output(SemanticResult)

_DESCRIPTION = """Words nearest in meaning by word-vector similarity (exact cosine).
Omit target_language to search the installed languages with trained vectors and the
word's own (global); set it to the word's own language for monolingual neighbours, or to
another language for cross-lingual ones (a language with derived vectors is searched only
when named). The result lists the languages searched and whether the search was
restricted to fewer vector languages than the corpus has. Neighbours are unsensed."""


def register(server: MCPServer, corpus: Corpus, store: VectorStore | None = None) -> None:
    vectors = store if store is not None else VectorStore(corpus)

    async def dictionary_semantic_neighbors(
        word: Word,
        language: Language = "en",
        target_language: Annotated[
            str | None,
            Field(
                description="omit for global search; same tag = monolingual; other = cross-lingual"
            ),
        ] = None,
        limit: Annotated[
            int, Field(ge=1, le=100, description="neighbours returned: 1 to 100")
        ] = 10,
    ) -> Annotated[CallToolResult, SemanticOutput]:
        return respond(
            corpus, lambda: semantic_data(vectors, word, language, target_language, limit)
        )

    server.add_tool(
        dictionary_semantic_neighbors,
        description=_DESCRIPTION,
        annotations=tool_annotations("Semantic neighbours"),
        structured_output=True,
    )
