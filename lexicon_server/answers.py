"""The one rule every tool answer follows, success or error (docs/tools.md, "Answers").

- A success carries `structuredContent` that conforms to the tool's `outputSchema`, and the
  same JSON as its text content.
- An error has `isError: true`, no `structuredContent`, and one text content holding a JSON
  object `{"error": {"reason": ..., "message": ..., ...}}`, with a tool's own fields beside
  `error` where its brief asks for them (the glossary's `existingEntry`). Clients built on
  the TypeScript SDK check any structured content against the output schema, which
  describes a success; an error carried there would make them drop the whole answer.

`AnswerContract` is the server middleware that keeps the rule for answers the SDK words
itself (an argument refusal, a crash), and answers protocol mistakes (an unknown tool, a
pagination cursor this server never issued) with JSON-RPC `-32602`, as the specification
shows them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, CallToolResult, TextContent

from lexicon_server.errors import LexiconServerError

if TYPE_CHECKING:
    from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
    from mcp.server.mcpserver import MCPServer

__all__ = [
    "AnswerContract",
    "ToolRefusal",
    "error_answer",
    "error_body",
    "keep_answer_contract",
]

# List methods that take a cursor. Every list fits in one page, so no cursor is valid.
_PAGINATED = frozenset({"tools/list", "resources/list", "resources/templates/list", "prompts/list"})


def error_body(reason: str, message: str, **details: Any) -> dict[str, Any]:
    """`{"error": {"reason", "message", **details}}`, leaving out details that are None."""
    error = {"reason": reason, "message": message}
    error.update({key: value for key, value in details.items() if value is not None})
    return {"error": error}


def error_answer(body: Mapping[str, Any]) -> CallToolResult:
    """An error answer: `body` (an `error_body`, maybe with fields beside it) as JSON text."""
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


class ToolRefusal(ToolError, LexiconServerError):
    """An expected failure raised where returning an answer is not possible.

    Its text is the JSON body; `AnswerContract` takes it from the SDK's wrapping.
    """

    def __init__(self, reason: str, message: str, **details: Any) -> None:
        self.body = error_body(reason, message, **details)
        super().__init__(json.dumps(self.body, ensure_ascii=False, separators=(",", ":")))


def keep_answer_contract(server: MCPServer[Any]) -> None:
    """Add `AnswerContract` to `server`'s middleware, once (each tool group calls this)."""
    if not any(isinstance(layer, AnswerContract) for layer in server.middleware):
        server.middleware.append(AnswerContract(server))


class AnswerContract:
    """Server middleware: error answers in the house form, protocol mistakes as -32602."""

    def __init__(self, server: MCPServer[Any]) -> None:
        self._server = server

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        params = ctx.params or {}
        if ctx.method in _PAGINATED and params.get("cursor") is not None:
            raise MCPError(
                INVALID_PARAMS,
                f"invalid cursor {params['cursor']!r}: {ctx.method} returns every item in one "
                "page, so call it without a cursor",
            )
        if ctx.method != "tools/call":
            return await call_next(ctx)
        name = params.get("name")
        if not isinstance(name, str) or self._server._tool_manager.get_tool(name) is None:
            raise MCPError(INVALID_PARAMS, f"unknown tool {name!r}: {self._tool_list()}")
        result = await call_next(ctx)
        # The chain hands back the handler's result already in its wire form (a dict).
        if isinstance(result, CallToolResult) and result.is_error:
            result = result.model_dump(by_alias=True)
        if isinstance(result, dict) and result.get("isError"):
            return error_answer(_house_body(name, result))
        return result

    def _tool_list(self) -> str:
        names = sorted(tool.name for tool in self._server._tool_manager.list_tools())
        return "the tools are " + ", ".join(names)


def _house_body(tool: str, result: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON body of an error answer (in its wire form), whoever worded it."""
    texts = [c.get("text") for c in result.get("content", ()) if c.get("type") == "text"]
    text = texts[0] if texts and isinstance(texts[0], str) else ""
    # The SDK reports a tool's failure as "Error executing tool <name>: <what was raised>",
    # and a crash as "Error executing tool <name>" alone (its cause stays in the log).
    prefix = f"Error executing tool {tool}"
    if text == prefix:
        return error_body(
            "internal_error",
            f"{tool} failed unexpectedly; the server's log has the details",
        )
    text = text.removeprefix(prefix + ": ")
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        return body
    return error_body("tool_error", text)
