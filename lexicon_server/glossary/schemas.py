"""Pydantic models of the glossary tools' structured output (camelCase on the wire).

They describe successes only: a refusal (`{"error": {"reason": "term_not_found", "message":
"term not found"}}`) is an error answer with no structured content (lexicon_server.answers).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from lexicon_server.models import Budget, budget_left_out

__all__ = [
    "AddOutput",
    "DeleteOutput",
    "DictionaryOutput",
    "DictionarySenseOutput",
    "EditOutput",
    "EntryOutput",
    "FindHitOutput",
    "FindOutput",
    "MapItemOutput",
    "MapOutput",
    "WordSensesOutput",
]


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class EntryOutput(_Model):
    term: str
    description: str


class FindHitOutput(_Model):
    entry: EntryOutput
    score: int = Field(description="Ranking hint; higher is better. Not a stable value.")


class DictionarySenseOutput(_Model):
    headword: str
    pos: str
    gloss: str
    source: str


class WordSensesOutput(_Model):
    word: str
    senses: list[DictionarySenseOutput]


class DictionaryOutput(_Model):
    """General-language senses; the project's own meaning is in `results`."""

    status: Literal["ok", "unavailable"]
    message: str | None = None
    words: list[WordSensesOutput] = Field(default_factory=list)


class FindOutput(_Model):
    results: list[FindHitOutput]
    dictionary: DictionaryOutput | None = Field(
        default=None,
        description="Only when asked for: what the English dictionary says, kept apart from "
        "the project's definitions.",
    )
    # As in the dictionary tools' results: left out while nothing was cut; when something
    # was, `cut` says what, in words (docs/tools.md, "Response budget").
    budget: Budget = budget_left_out()


class MapItemOutput(_Model):
    term: str
    mentioned_in: list[str]


class MapOutput(_Model):
    terms: list[MapItemOutput]
    # As in the dictionary tools' results: left out while nothing was cut; when something
    # was, `cut` says what, in words (docs/tools.md, "Response budget").
    budget: Budget = budget_left_out()


class AddOutput(_Model):
    total_entries: int


class EditOutput(_Model):
    total_entries: int


class DeleteOutput(_Model):
    total_entries: int
    deleted_entry: EntryOutput
