"""The `dictionary_lookup` tool: description and arguments (a row of `tool_table`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from lexicon_server.arguments import ToolArguments
from lexicon_server.query.lookup import DEFAULT_BUDGETS
from lexicon_server.tools._shared import (
    Language,
    Limit,
    Word,
)

__all__ = ["DESCRIPTION", "LookupArguments"]


DESCRIPTION = """What a word means: its senses, most used first, each with part of speech,
definition, examples, pronunciations and translations. Use it first for any word; an
inflected form ('ran') is looked up as its lemma, and `resolutions` says how.
Installed languages: {languages}."""


def _budget(default: int, what: str) -> object:
    return Field(
        ge=0,
        le=100,
        description=f"{what} across the returned senses (0: none)",
    )


class LookupArguments(ToolArguments):
    word: Word
    language: Language = "en"
    limit: Limit = 10
    examples_limit: Annotated[int, _budget(DEFAULT_BUDGETS["examples"], "examples")] = 8
    pronunciations_limit: Annotated[
        int, _budget(DEFAULT_BUDGETS["pronunciations"], "pronunciations")
    ] = 8
    translations_limit: Annotated[int, _budget(DEFAULT_BUDGETS["translations"], "translations")] = (
        20
    )
