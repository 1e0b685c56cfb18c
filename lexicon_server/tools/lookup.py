"""The `dictionary_lookup` tool: description and arguments (a row of `tool_table`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from lexicon_server.query.lookup import DEFAULT_BUDGETS
from lexicon_server.tools._shared import (
    Language,
    Limit,
    Word,
)

__all__ = ["DESCRIPTION", "LookupArguments"]


DESCRIPTION = """Look a word up in the local dictionary: its senses (definitions, part of
speech, synset), with examples, pronunciations and translations attached to each sense.
An inflected form ('dogs', 'ran') is resolved to its lemma and `resolutions` says how.
`limit` caps the senses. Examples, pronunciations and translations each have one total
budget shared round-robin across the returned senses (0 disables a class); a sense lists
in `truncated_fields` every class it has more of than it received. Every item names its
source and licence. A language that is not installed is reported with its reason."""


def _budget(default: int, what: str) -> object:
    return Field(
        ge=0,
        le=100,
        description=f"total {what} across all returned senses (0 disables; default {default})",
    )


class LookupArguments(BaseModel):
    model_config = ConfigDict(defer_build=True)

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
