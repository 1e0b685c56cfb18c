"""The `dictionary_translate` tool: description and arguments (a row of `tool_table`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from lexicon_server.arguments import ToolArguments
from lexicon_server.query.senses import MAX_SENSES_DEFAULT
from lexicon_server.tools._shared import Language, Limit, Word

__all__ = ["DESCRIPTION", "TranslateArguments"]


DESCRIPTION = """A word's translations into another installed language, best first,
grouped by the sense they render (through English when no dictionary links the two)."""


class TranslateArguments(ToolArguments):
    word: Word
    target_language: str
    language: Language = "en"
    limit: Limit = 20
    max_senses: Annotated[
        int,
        Field(ge=1, le=100, description="how many of the word's senses to read"),
    ] = MAX_SENSES_DEFAULT
    sense_id: Annotated[
        str | None,
        Field(description="one sense only: an id from dictionary_lookup"),
    ] = None
