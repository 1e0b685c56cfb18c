"""Arguments several tools share for spelling: the `pattern` filter and `vocabulary`.

Every byte of the schema is read by every client in `tools/list` (issue 28), so these are
short and the pattern's length is bounded by the query's check (`check_text`, 100
characters, with the usual refusal) rather than the schema; docs/tools.md has the rules.
An empty pattern, the default, means none."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

__all__ = ["Pattern", "Vocabulary"]

# A plain string, empty for none: `str | None` would cost every client an `anyOf` in
# `tools/list` for each of the three tools that take it.
Pattern = Annotated[
    str,
    Field(description="like 'j*'"),
]
Vocabulary = Annotated[
    Literal["dictionary", "all"] | None,
    Field(description="'all' adds names"),
]
