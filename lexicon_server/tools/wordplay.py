"""The `wordplay` tool: anagrams, palindromes, spoonerisms, pun candidates, spelling
patterns and sounds-like words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from mcp_types import CallToolResult
from pydantic import Field

from lexicon_server.query.wordplay import MAX_CONTEXT_CHARS, wordplay_data
from lexicon_server.query.wordplay_models import WordplayResult
from lexicon_server.tools._shared import (
    Limit,
    Text,
    published_output,
    respond,
    tool_annotations,
)

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from lexicon_server.corpus.reader import Corpus

__all__ = ["register"]

# Module level: the SDK resolves the tool's return annotation in this namespace.
WordplayOutput = published_output(WordplayResult)

_DESCRIPTION = """English wordplay over the local corpus, one `kind` per call:
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
- pattern: text is a spelling pattern, letters a-z fixed in place, `?` any one letter,
  `*` any run ('c?t', '??ght', 'un*able'); single-word matches, most frequent first.
- sounds_like: words pronounced closest to the text (CMUdict, else spelling rules for an
  unknown spelling: 'fone' -> phone), by phoneme edits, then frequency.
  `vocabulary` (pattern and sounds_like): dictionary (default, WordNet words) or all.
Every candidate carries `provenance`: spelling/senses from WordNet, sounds from CMUdict."""


def register(server: MCPServer, corpus: Corpus) -> None:
    async def wordplay_tool(
        text: Annotated[
            Text,
            Field(
                description="the word or phrase to play with (1 to 100 characters); "
                "two words for kind='spoonerism'; a pattern such as 'c?t' for kind='pattern'"
            ),
        ],
        kind: Annotated[
            Literal["anagram", "palindrome", "spoonerism", "pun", "pattern", "sounds_like"],
            Field(
                description="which wordplay to answer: anagram, palindrome, spoonerism, pun, "
                "pattern or sounds_like"
            ),
        ],
        context: Annotated[
            str | None,
            Field(
                min_length=1,
                max_length=MAX_CONTEXT_CHARS,
                description=f"kind='pun' only: 1 to {MAX_CONTEXT_CHARS} characters of the "
                "setting, used to put fitting meanings first; must be omitted for other kinds",
            ),
        ] = None,
        limit: Limit = 20,
        vocabulary: Annotated[
            Literal["dictionary", "all"] | None,
            Field(
                description="kind='pattern' or 'sounds_like' only: dictionary (default: words "
                "with a WordNet sense) or all (every CMUdict and WordNet spelling)"
            ),
        ] = None,
    ) -> Annotated[CallToolResult, WordplayOutput]:
        return respond(
            corpus, lambda: wordplay_data(corpus, text, kind, context, limit, vocabulary)
        )

    server.add_tool(
        wordplay_tool,
        name="wordplay",
        description=_DESCRIPTION,
        annotations=tool_annotations("Wordplay"),
        structured_output=True,
    )
