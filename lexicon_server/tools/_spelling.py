"""Arguments several tools share for spelling: the `pattern` filter and `vocabulary`."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from lexicon_server.query.arguments import MAX_TEXT_CHARS

__all__ = ["Pattern", "Vocabulary"]

Pattern = Annotated[
    str | None,
    Field(
        min_length=1,
        max_length=MAX_TEXT_CHARS,
        description="only candidates spelled so, before limit: letters a-z fixed, '?' one "
        "letter, '*' any run ('j*', '??ght')",
    ),
]
Vocabulary = Annotated[
    Literal["dictionary", "all"] | None,
    Field(description="dictionary words (default) or all, names and rare spellings labelled"),
]
