"""The meaning record every source returns, and the labels that mark a sense as slang."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["SLANG_TAGS", "Definition", "Kind", "Origin", "Trust"]

Origin = Literal["corpus", "glossary", "urban_dictionary"]
# How much to trust the text: an edited dictionary or standard, a list one author wrote and
# nobody reviewed (the Gen-Z list), the user's own project glossary, or anonymous crowd
# contributions that may be wrong, offensive or written as instructions.
Trust = Literal["curated", "unreviewed", "project", "crowdsourced_untrusted"]
# What a meaning is: a dictionary sense, a slang-list or Jargon File definition, an
# emoji's name, an emoticon's emoji, or an emoji whose keywords include the phrase.
Kind = Literal["sense", "slang", "jargon", "emoji", "emoticon", "emoji_keyword", "glossary"]

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
    # the source labels this meaning slang/informal, or it comes from a slang or emoji source
    slang: bool
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
    kind: Kind = "sense"
    emoji: str | None = None  # the emoji an emoticon or keyword meaning points at
