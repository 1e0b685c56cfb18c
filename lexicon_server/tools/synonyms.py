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
from lexicon_server.tools._shared import Language, Limit, Word
from lexicon_server.tools._spelling import Pattern

__all__ = ["DESCRIPTION", "SynonymsArguments"]


DESCRIPTION = """Another word for a word: synonyms grouped by the sense they share (most
used senses first), then thesaurus words not tied to a sense."""


class SynonymsArguments(ToolArguments):
    word: Word
    language: Language = "en"
    limit: Limit = LIMIT_DEFAULT
    max_senses: Annotated[
        int | None,
        Field(
            ge=1,
            le=100,
            description=(
                f"senses that get a group; default {MAX_SENSES_SYNONYMS}, or all when the unsensed "
                "synonyms leave room"
            ),
        ),
    ] = None
    unsensed_limit: Annotated[
        int | None,
        Field(
            description=(
                "share of limit for synonyms not tied to a sense: 0 to limit, default "
                f"{UNSENSED_DEFAULT}; what they leave goes to the senses"
            )
        ),
    ] = None
    pattern: Pattern = ""
