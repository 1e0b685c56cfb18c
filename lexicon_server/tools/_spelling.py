"""Arguments several tools share for spelling: the `pattern` filter and `vocabulary`.

Every byte of a description is read by every client in `tools/list` (issue 28), so these
are short; docs/tools.md has the rules. An empty pattern, the default, means none; a
pattern of spaces is refused by the query's check (`check_text`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from lexicon_server.query.arguments import MAX_TEXT_CHARS

__all__ = ["Pattern", "Vocabulary"]

# A plain string, empty for none: `str | None` would cost every client an `anyOf` in
# `tools/list` for each of the three tools that take it.
Pattern = Annotated[
    str,
    Field(
        max_length=MAX_TEXT_CHARS,
        description="only words spelled so ('j*', '?at')",
    ),
]
Vocabulary = Annotated[
    Literal["dictionary", "all"] | None,
    Field(description="'all' adds names, labelled"),
]
