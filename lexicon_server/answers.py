"""The one rule every tool answer follows, success or error (docs/tools.md, "Answers").

- A success carries `structuredContent` that conforms to the tool's `outputSchema`, and one
  text content: a dictionary tool's compact rendering of it (`text_answers`), the same JSON
  for the glossary and slang tools.
- An error has `isError: true`, no `structuredContent`, and one text content holding a JSON
  object `{"error": {"reason": ..., "message": ..., ...}}`, with a tool's own fields beside
  `error` where its brief asks for them (the glossary's `existingEntry`). Clients built on
  the TypeScript SDK check any structured content against the output schema, which
  describes a success; an error carried there would make them drop the whole answer.

`lexicon_server.sdk.AnswerContract` is the server middleware that keeps the rule for
answers the SDK words itself (an argument refusal, a crash), and answers protocol
mistakes (an unknown tool, a pagination cursor this server never issued) with JSON-RPC
`-32602`, as the specification shows them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent

from lexicon_server.errors import LexiconServerError

__all__ = ["ToolRefusal", "error_answer", "error_body", "house_body"]


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


def house_body(tool: str, result: Mapping[str, Any]) -> dict[str, Any]:
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
