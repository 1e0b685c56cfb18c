"""The `wordplay` tool: description and arguments (a row of `tool_table`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from lexicon_server.query.wordplay import MAX_CONTEXT_CHARS
from lexicon_server.tools._shared import (
    Limit,
    Text,
)

__all__ = ["DESCRIPTION", "WordplayArguments"]


DESCRIPTION = """English wordplay over the local corpus, one `kind` per call:
- anagram: single-word headwords whose letters (case and accents folded, a-z only)
  rearrange the text's letters; the text's own spelling is excluded.
- palindrome: `input_is_palindrome` for the text, plus stored palindromes other than it,
  listed in letter order starting at the text's letters and wrapping round once.
- spoonerism: text must be exactly two words; swaps their initial consonant sounds (CMUdict).
  `lexical_term` when both swapped sounds are dictionary words (all spellings listed),
  else `generated_candidate`.
- pun: exact homophones with at least one meaning the text's word lacks; candidates only,
  not finished jokes. `context` (pun only, up to 512 characters) puts first the candidates
  whose meanings share words with it.
Every candidate carries `provenance`: spelling/senses from WordNet, sounds from CMUdict."""


class WordplayArguments(BaseModel):
    model_config = ConfigDict(defer_build=True)

    text: Annotated[
        Text,
        Field(
            description="the word or phrase to play with (1 to 100 characters); "
            "two words for kind='spoonerism'"
        ),
    ]
    kind: Annotated[
        Literal["anagram", "palindrome", "spoonerism", "pun"],
        Field(description="which wordplay to answer: anagram, palindrome, spoonerism or pun"),
    ]
    context: Annotated[
        str | None,
        Field(
            min_length=1,
            max_length=MAX_CONTEXT_CHARS,
            description=f"kind='pun' only: 1 to {MAX_CONTEXT_CHARS} characters of the "
            "setting, used to put fitting meanings first; must be omitted for other kinds",
        ),
    ] = None
    limit: Limit = 20
