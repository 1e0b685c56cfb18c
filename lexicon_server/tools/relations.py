"""The `dictionary_relations` tool: description and arguments (a row of `tool_table`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from lexicon_server.query.relations import RELATIONS, TRANSITIVE_RELATIONS
from lexicon_server.tools._shared import Language, Word

__all__ = ["DESCRIPTION", "RelationsArguments"]


DESCRIPTION = f"""Lexical relations of a word (hypernyms, hyponyms, antonyms, meronyms,
...), each with the sense it starts from, its target, and the directed edge(s) with
source and licence. Direct edges are relation_scope='direct', distance=1. For
{", ".join(sorted(TRANSITIVE_RELATIONS))}, max_depth=2 adds a bounded two-edge expansion
(relation_scope='transitive', distance=2) whose `path` holds both edges. Targets say
whether their own entry is installed."""


class RelationsArguments(BaseModel):
    model_config = ConfigDict(defer_build=True)

    word: Word
    relation: Annotated[
        str, Field(description="relation name, one of: " + ", ".join(sorted(RELATIONS)))
    ]
    language: Language = "en"
    limit: Annotated[int, Field(ge=1, le=100, description="total results returned: 1 to 100")] = 20
    max_depth: Annotated[
        int,
        Field(ge=1, le=2, description="1 = direct edges; 2 = also two-edge hyper/hyponyms"),
    ] = 1
    transitive_limit: Annotated[
        int | None,
        Field(
            description=(
                "results reserved for distance-2 results when max_depth=2: 0 disables, "
                "1..limit is explicit; omitted means 5 (or limit if smaller). -1 is not "
                "accepted. Unused allocation goes back to direct results."
            )
        ),
    ] = None
