"""The `dictionary_synonyms` tool: description and arguments (a row of `tool_table`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from lexicon_server.query.synonyms import (
    LIMIT_DEFAULT,
    MAX_SENSES_SYNONYMS,
    UNSENSED_DEFAULT,
)
from lexicon_server.tools._shared import (
    Language,
    Word,
)

__all__ = ["DESCRIPTION", "SynonymsArguments"]


DESCRIPTION = """Synonyms of a word, grouped by the dictionary sense they belong to
(synset members, sense-attached synonym edges and, for adjectives, the words of WordNet's
similar synsets, relation='similar'; Moby Thesaurus terms tied to the sense, source 'moby';
for de/fr/it one group per MyThes thesaurus meaning), plus one group of unsensed synonyms
(word-to-word edges: Moby's list best first, ConceptNet) with its own allocation; its
candidates take their source from the group. By default only the first 2 senses get a
group (every sense when the word has few unsensed synonyms). `limit` is the total number
of candidates; `count` is the number of groups and `candidate_count` the number of
candidates."""


class SynonymsArguments(BaseModel):
    model_config = ConfigDict(defer_build=True)

    word: Word
    language: Language = "en"
    limit: Annotated[
        int, Field(ge=1, le=100, description="total candidates returned: 1 to 100")
    ] = LIMIT_DEFAULT
    max_senses: Annotated[
        int | None,
        Field(
            ge=1,
            le=100,
            description=(
                f"how many of the word's senses get a group: 1 to 100; omitted means "
                f"{MAX_SENSES_SYNONYMS} when the unsensed list fills its allocation, "
                "else every sense"
            ),
        ),
    ] = None
    unsensed_limit: Annotated[
        int | None,
        Field(
            description=(
                "candidates reserved for unsensed synonyms: 0 disables them, 1..limit is "
                f"an explicit allocation; omitted means {UNSENSED_DEFAULT} (or limit if "
                "smaller). -1 is not accepted. Unused allocation goes back to sense groups."
            )
        ),
    ] = None
