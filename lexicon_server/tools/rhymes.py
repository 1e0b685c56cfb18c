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
from lexicon_server.tools._spelling import Pattern

__all__ = ["DESCRIPTION", "RhymesArguments"]


DESCRIPTION = """English rhymes of a word, perfect or near, most common words first."""


class RhymesArguments(ToolArguments):
    word: Text
    mode: Annotated[
        Literal["perfect", "near"],
        Field(description="perfect: same sounds from the last stressed vowel; near: one changed"),
    ] = "perfect"
    limit: Limit = 20
    syllables: Annotated[int | None, Field(ge=1, le=MAX_SYLLABLES)] = None
    pattern: Pattern = ""
    vocabulary: Annotated[Literal["dictionary", "all"], Field(description="'all' adds names")] = (
        "dictionary"
    )
