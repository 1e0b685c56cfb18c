"""The meaning record every source returns, and the labels that mark a sense as slang."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["SLANG_TAGS", "Definition", "Origin", "Trust"]

Origin = Literal["corpus", "glossary", "urban_dictionary"]
# How much to trust the text: an edited dictionary, the user's own project glossary, or
# anonymous crowd contributions that may be wrong, offensive or written as instructions.
Trust = Literal["curated", "project", "crowdsourced_untrusted"]

# Usage labels (as found in senses.tags) that mark informal or non-standard language.
SLANG_TAGS = frozenset(
    {
        "slang",
        "informal",
        "colloquial",
        "colloquialism",
        "vulgar",
        "derogatory",
        "pejorative",
        "offensive",
        "slur",
        "internet",
        "nonstandard",
        "jargon",
        "euphemistic",
        "humorous",
        "jocular",
        "familiar",
        "cant",
        "argot",
        "street",
        "youth",
        "mildly-vulgar",
        "ethnic-slur",
    }
)


@dataclass(frozen=True)
class Definition:
    """One meaning of a phrase, naming where it came from and how far to trust it."""

    text: str
    origin: Origin
    source: str  # corpus source name ('wordnet-3.1'), glossary file name, or 'urban_dictionary'
    trust: Trust
    headword: str  # the entry the meaning belongs to, as that source spells it
    slang: bool  # the source labels this meaning as slang / informal usage
    pos: str | None = None
    tags: tuple[str, ...] = ()
    example: str | None = None
    licence: str | None = None
    url: str | None = None  # Urban Dictionary permalink
    defid: int | None = None
    author: str | None = None
    thumbs_up: int | None = None
    thumbs_down: int | None = None
    written_on: str | None = None
