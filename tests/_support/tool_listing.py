"""What every offline tool's listing must say, checked the same way for each tool area."""

from __future__ import annotations

from typing import Any

from mcp_types import Tool

__all__ = ["SELF_EXPLAINED", "assert_offline_tool_listed"]


# Parameters whose name and schema say it all (a word, a count bounded 1..100, a
# language tag, an enum): a description would restate the name in every client's
# `tools/list` (issue 28).
SELF_EXPLAINED = frozenset({"word", "limit", "target_language", "syllables", "kind"})


def assert_offline_tool_listed(tool: Tool) -> dict[str, Any]:
    """An object output schema, read-only, idempotent and closed-world annotations, and a
    description on every parameter but the `SELF_EXPLAINED` ones; returns the input
    schema's properties."""
    assert tool.output_schema is not None and tool.output_schema["type"] == "object"
    assert tool.annotations is not None
    assert tool.annotations.read_only_hint is True
    assert tool.annotations.idempotent_hint is True
    assert tool.annotations.open_world_hint is False
    props: dict[str, Any] = tool.input_schema["properties"]
    undescribed = {name for name, p in props.items() if not p.get("description")}
    assert undescribed <= SELF_EXPLAINED, (tool.name, undescribed)
    return props
