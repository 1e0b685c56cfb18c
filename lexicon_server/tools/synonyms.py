"""The `dictionary_synonyms` tool: description and arguments (a row of `tool_table`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from lexicon_server.arguments import ToolArguments
from lexicon_server.query.synonyms import (
    LIMIT_DEFAULT,
    MAX_SENSES_SYNONYMS,
    UNSENSED_DEFAULT,
)
from lexicon_server.tools._shared import (
    Language,
    Word,
)
from lexicon_server.tools._spelling import Pattern

__all__ = ["DESCRIPTION", "SynonymsArguments"]


DESCRIPTION = """Words with the same meaning, grouped by the sense they share (the word's
most used senses first), plus a group not tied to a sense (thesaurus lists). Use it to
find another word for a word."""


class SynonymsArguments(ToolArguments):
    word: Word
    language: Language = "en"
    limit: Annotated[int, Field(ge=1, le=100, description="maximum candidates")] = LIMIT_DEFAULT
    max_senses: Annotated[
        int | None,
        Field(
            ge=1,
            le=100,
            description=(
                f"how many senses get a group; omitted: {MAX_SENSES_SYNONYMS}, or every "
                "sense when the unsensed group has room"
            ),
        ),
    ] = None
    unsensed_limit: Annotated[
        int | None,
        Field(
            description=(
                "candidates reserved for synonyms not tied to a sense: 0 to limit; omitted "
                f"means {UNSENSED_DEFAULT} (or limit if smaller); unused places go to senses"
            )
        ),
    ] = None
    pattern: Pattern = ""
