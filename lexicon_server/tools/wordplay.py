"""The `wordplay` tool: description and arguments (a row of `tool_table`): anagrams,
palindromes, spoonerisms, pun candidates, spelling patterns and sounds-like words."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from lexicon_server.arguments import ToolArguments
from lexicon_server.query.wordplay import MAX_CONTEXT_CHARS
from lexicon_server.tools._shared import (
    Limit,
    Text,
)
from lexicon_server.tools._spelling import Vocabulary

__all__ = ["DESCRIPTION", "WordplayArguments"]


DESCRIPTION = """English wordplay, one kind per call: anagram, palindrome, spoonerism
(two words, first sounds swapped), pun (homophones with another meaning), pattern ('c?t':
? one letter, * any run) or sounds_like ('fone' -> phone)."""


class WordplayArguments(ToolArguments):
    text: Annotated[
        Text,
        Field(description="a word, two (spoonerism) or a pattern ('c?t')"),
    ]
    kind: Literal["anagram", "palindrome", "spoonerism", "pun", "pattern", "sounds_like"]
    context: Annotated[
        str | None,
        Field(
            min_length=1,
            max_length=MAX_CONTEXT_CHARS,
            description="pun only: the setting, to rank meanings",
        ),
    ] = None
    limit: Limit = 20
    vocabulary: Vocabulary = None
