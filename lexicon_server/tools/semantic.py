"""The `dictionary_semantic_neighbors` tool: description and arguments (a row of `tool_table`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from lexicon_server.arguments import ToolArguments
from lexicon_server.tools._shared import Language, Limit, Word
from lexicon_server.tools._spelling import Pattern

__all__ = ["DESCRIPTION", "SemanticArguments"]


DESCRIPTION = """Words related in meaning by word vectors, not only synonyms, in every
language or into target_language; a short description ('fear of heights') gets the words
it describes."""


class SemanticArguments(ToolArguments):
    word: Word
    language: Language = "en"
    target_language: Annotated[
        str | None,
        Field(description="omit for global search; same tag = monolingual; other = cross-lingual"),
    ] = None
    limit: Limit = 10
    pattern: Pattern = ""
