"""What every dictionary tool shares: annotations, parameter types and error mapping.

The tools are thin: they call a query function and turn its expected failures into
MCP tool errors. A language/capability the selection cannot serve comes back as an
error result whose structured content names the reason (one of the four), so a
client never mistakes it for "no such word".
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from lexicon_server.corpus.reader import CapabilityUnavailable, SchemaMismatch
from lexicon_server.errors import LexiconServerError, describe_unavailable, fix_command
from lexicon_server.models import Unavailable

if TYPE_CHECKING:
    from pydantic import BaseModel

    from lexicon_server.corpus.reader import Corpus

__all__ = [
    "Language",
    "Limit",
    "OptionalLanguage",
    "Word",
    "respond",
    "tool_annotations",
]

Word = Annotated[
    str,
    Field(description="the word or phrase to look up, as written (1 to 100 characters)"),
]
Language = Annotated[
    str,
    Field(description="language tag of the word, e.g. 'en', 'fr', 'de' (ISO 639 code)"),
]
Limit = Annotated[int, Field(ge=1, le=100, description="maximum number of results: 1 to 100")]
OptionalLanguage = Annotated[
    str | None,
    Field(description="language tag, e.g. 'fr'; omit for the default described above"),
]


def tool_annotations(title: str) -> ToolAnnotations:
    """Dictionary tools only read a local, fixed corpus."""
    return ToolAnnotations(
        title=title,
        read_only_hint=True,
        destructive_hint=False,
        idempotent_hint=True,
        open_world_hint=False,
    )


_M = TypeVar("_M", bound="BaseModel")


def respond(corpus: Corpus, query: Callable[[], _M | str]) -> CallToolResult:
    """Run `query`; return its result as structured content, or a clear error result.

    `query` returns the result model, or that model's compact JSON when it can produce
    it more cheaply (the SDK validates the structured content against the model anyway).
    """
    try:
        result = query()
    except CapabilityUnavailable as exc:
        return _unavailable(corpus, exc)
    except LexiconServerError as exc:
        raise ToolError(str(exc)) from exc
    except SchemaMismatch as exc:
        raise ToolError(str(exc)) from exc
    # Compact JSON as the text content (what clients without structured output show the
    # model); the structured copy is parsed back from it, cheaper than dumping twice.
    text = result if isinstance(result, str) else result.model_dump_json()
    data = json.loads(text)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def _unavailable(corpus: Corpus, exc: CapabilityUnavailable) -> CallToolResult:
    version = corpus.dataset_version
    detail = Unavailable(
        reason=exc.reason,  # type: ignore[arg-type]
        language=exc.language,
        capability=exc.capability,
        message=describe_unavailable(exc, version),
        fix=fix_command(exc.reason, exc.language, exc.capability, version),
    )
    return CallToolResult(
        content=[TextContent(type="text", text=detail.message)],
        structured_content={"error": detail.model_dump(mode="json")},
        is_error=True,
    )
