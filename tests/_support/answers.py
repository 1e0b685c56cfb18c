"""Check an error answer against the house rule and read its JSON body."""

from __future__ import annotations

import json
from typing import Any

from mcp_types import CallToolResult, TextContent

__all__ = ["error_body", "error_of"]


def error_body(result: CallToolResult) -> dict[str, Any]:
    """The whole JSON body of an error answer: `error`, and any field beside it.

    Fails unless the answer keeps the rule: `isError`, no structured content (a client
    checks that against the success schema), and one text content holding the JSON.
    """
    assert result.is_error, result.content
    assert result.structured_content is None, result.structured_content
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent)
    body = json.loads(result.content[0].text)
    assert isinstance(body, dict), body
    error = body.get("error")
    assert isinstance(error, dict), body
    assert isinstance(error.get("reason"), str) and isinstance(error.get("message"), str), error
    return body


def error_of(result: CallToolResult) -> dict[str, Any]:
    """The `error` object of an error answer (see `error_body`)."""
    error: dict[str, Any] = error_body(result)["error"]
    return error
