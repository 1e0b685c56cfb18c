"""The `dictionary_lookup` tool: description and arguments (a row of `tool_table`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from lexicon_server.arguments import ToolArguments
from lexicon_server.query.lookup import DEFAULT_BUDGETS, DEFAULT_LIMIT
from lexicon_server.tools._shared import Language, SourceIds, Word

__all__ = ["DESCRIPTION", "LookupArguments"]


DESCRIPTION = """Use first for what a word means: its most used senses, each with part of
speech, definition, an example and pronunciation; inflected forms ('ran') resolve to their
lemma. Installed languages: {languages}."""


def _budget(what: str) -> object:
    return Field(ge=0, le=100, description=f"{what} across the senses")


class LookupArguments(ToolArguments):
    word: Word
    language: Language = "en"
    limit: Annotated[int, Field(ge=1, le=100, description="senses")] = DEFAULT_LIMIT
    examples_limit: Annotated[int, _budget("examples")] = DEFAULT_BUDGETS["examples"]
    pronunciations_limit: Annotated[int, _budget("pronunciations")] = DEFAULT_BUDGETS[
        "pronunciations"
    ]
    translations_limit: Annotated[int, _budget("translations")] = DEFAULT_BUDGETS["translations"]
    source_ids: SourceIds = False
