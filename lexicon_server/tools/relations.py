"""The `dictionary_relations` tool: description and arguments (a row of `tool_table`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from lexicon_server.arguments import ToolArguments
from lexicon_server.query.relations import RELATIONS
from lexicon_server.tools._shared import Language, Limit, SourceIds, Word

__all__ = ["DESCRIPTION", "RelationsArguments"]


DESCRIPTION = """Words linked to a word by one relation, such as hypernym (broader),
hyponym (narrower), antonym, meronym (part), holonym (whole), each from the sense it
starts at."""


class RelationsArguments(ToolArguments):
    word: Word
    relation: Annotated[
        str, Field(description="relation name, one of: " + ", ".join(sorted(RELATIONS)))
    ]
    language: Language = "en"
    limit: Limit = 20
    max_depth: Annotated[
        int,
        Field(ge=1, le=2, description="2: also hypernyms or hyponyms two steps away"),
    ] = 1
    transitive_limit: Annotated[
        int | None,
        Field(
            description=(
                "share of limit for two-step results (max_depth=2): 0 to limit, "
                "default 5; what they leave goes to direct results"
            )
        ),
    ] = None
    source_ids: SourceIds = False
