"""The `rhymes` tool: description and arguments (a row of `tool_table`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from lexicon_server.query.rhymes import MAX_SYLLABLES
from lexicon_server.tools._shared import (
    Limit,
    Text,
)

__all__ = ["DESCRIPTION", "RhymesArguments"]


DESCRIPTION = """English rhymes from the CMU Pronouncing Dictionary, most frequent words
first, each with its syllable count. Every pronunciation of the word is used and the word
itself is never returned. mode='perfect': the sounds from the last stressed vowel to the end
are identical. mode='near': they differ by exactly one ARPAbet sound inserted, deleted or
substituted (perfect rhymes excluded); `edit` names the kind of change, and `rhyme` beside
`query_rhyme` shows the sounds. `syllables` keeps only rhymes of that many syllables.
`found` is false when CMUdict has no pronunciation of the word."""


class RhymesArguments(BaseModel):
    model_config = ConfigDict(defer_build=True)

    word: Annotated[Text, Field(description="an English word, as written (1 to 100 characters)")]
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
