"""The `dictionary_semantic_neighbors` tool: description and arguments (a row of `tool_table`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from lexicon_server.tools._shared import Language, Word

__all__ = ["DESCRIPTION", "SemanticArguments"]


DESCRIPTION = """Words nearest in meaning by word-vector similarity (exact cosine).
Omit target_language to search the installed languages with trained vectors and the
word's own (global); set it to the word's own language for monolingual neighbours, or to
another language for cross-lingual ones (a language with derived vectors is searched only
when named). The result lists the languages searched and whether the search was
restricted to fewer vector languages than the corpus has. Neighbours are unsensed.
A phrase gets words it describes."""


class SemanticArguments(BaseModel):
    model_config = ConfigDict(defer_build=True)

    word: Word
    language: Language = "en"
    target_language: Annotated[
        str | None,
        Field(description="omit for global search; same tag = monolingual; other = cross-lingual"),
    ] = None
    limit: Annotated[int, Field(ge=1, le=100, description="neighbours returned: 1 to 100")] = 10
