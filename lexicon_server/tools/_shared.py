"""What every dictionary tool shares: annotations, parameter types and error mapping.

The tools are thin: they call a query function and turn its expected failures into
MCP tool errors. A language/capability the selection cannot serve comes back as an
error result whose structured content names the reason (one of the four), so a
client never mistakes it for "no such word".
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic_core import to_json

from lexicon_server.corpus.reader import CapabilityUnavailable, DamagedComponent, SchemaMismatch
from lexicon_server.errors import LexiconServerError, describe_unavailable, fix_command
from lexicon_server.models import Unavailable
from lexicon_server.query.common import MAX_TEXT_CHARS

if TYPE_CHECKING:
    from pydantic import GetJsonSchemaHandler
    from pydantic_core import CoreSchema

    from lexicon_server.corpus.reader import Corpus

__all__ = [
    "Language",
    "Limit",
    "OptionalLanguage",
    "Text",
    "Word",
    "published_output",
    "respond",
    "tool_annotations",
]

# A word or phrase a query function checks with `check_text`. That check is on the
# stripped text (so "   " is still refused there, in the same words); the schema bounds
# the text as sent, so a client can check it before calling.
Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT_CHARS)]
Word = Annotated[
    Text,
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


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with every `$ref` into its `$defs` replaced by the definition itself (the
    result models are not recursive). The same constraints, but a validator no longer
    resolves a reference for every nested object it checks."""
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            target = walk(defs[node["$ref"].rsplit("/", 1)[-1]])
            return {**target, **{k: walk(v) for k, v in node.items() if k != "$ref"}}
        return {k: walk(v) for k, v in node.items() if k != "$defs"}

    result: dict[str, Any] = walk(schema)
    return result


def published_output(model: type[BaseModel]) -> type[BaseModel]:
    """The output type a tool declares for the result `model`.

    The tool publishes `model`'s JSON schema (references inlined) as its outputSchema.
    The SDK re-validates every structured result against the declared output type; for
    the real models that costs 60-150 µs per call, spent on data the query functions
    already build to the model's exact shape (each `*_data` function is tested against
    its model, and clients check the schema themselves). This stand-in carries the same
    schema but is checked shallowly: the result must be a JSON object.
    """
    schema = inline_refs(TypeAdapter(model).json_schema())

    class Published(BaseModel):
        model_config = ConfigDict(extra="allow")

        @classmethod
        def __get_pydantic_json_schema__(
            cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
        ) -> dict[str, Any]:
            return schema

    Published.__name__ = Published.__qualname__ = model.__name__
    return Published


def respond(corpus: Corpus, query: Callable[[], _M | dict[str, Any]]) -> CallToolResult:
    """Run `query`; return its result as structured content, or a clear error result.

    `query` returns the result model, or the same result as plain JSON-ready data when
    the query module can build that more cheaply (the SDK validates the structured
    content against the tool's output model before sending it either way).
    """
    try:
        # One call runs on one selection, even if the active one changes meanwhile.
        with corpus.pinned():
            try:
                result = query()
            except (sqlite3.DatabaseError, OSError, ValueError) as exc:
                # Unexpected low-level failures: when a component file is damaged, say
                # which and how to fix it, rather than "Error executing tool".
                damage = None if isinstance(exc, LexiconServerError) else corpus.damage()
                if damage is not None:
                    raise damage from exc
                raise
    except CapabilityUnavailable as exc:
        return _unavailable(corpus, exc)
    except DamagedComponent as exc:
        # (Lead: map to the new error format; exc.component, exc.verify_command and
        # exc.repair_command carry the fields.)
        raise ToolError(str(exc)) from exc
    except LexiconServerError as exc:
        raise ToolError(str(exc)) from exc
    except SchemaMismatch as exc:
        raise ToolError(str(exc)) from exc
    data = result if isinstance(result, dict) else result.model_dump(mode="json")
    # Compact JSON as the text content: what clients without structured output show.
    text = to_json(data).decode()
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
