"""The `rhymes` tool: description and arguments (a row of `tool_table`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from lexicon_server.arguments import ToolArguments
from lexicon_server.query.rhymes import MAX_SYLLABLES
from lexicon_server.tools._shared import (
    Limit,
    Text,
)

__all__ = ["DESCRIPTION", "RhymesArguments"]


DESCRIPTION = """English rhymes of a word, most common words first, with syllable counts.
mode='perfect' (same sounds from the last stressed vowel) or 'near' (one sound
changed); `syllables` filters by length."""


class RhymesArguments(ToolArguments):
    word: Annotated[Text, Field(description="an English word")]
    mode: Annotated[
        Literal["perfect", "near"],
        Field(description="'perfect' (identical rhyme part) or 'near' (one sound differs)"),
    ] = "perfect"
    limit: Limit = 20
    syllables: Annotated[
        int | None,
        Field(
            ge=1,
            le=MAX_SYLLABLES,
            description=f"only rhymes with this many syllables (1 to {MAX_SYLLABLES}); "
            "omit for any",
        ),
    ] = None
