"""What every offline tool's listing must say, checked the same way for each tool area."""

from __future__ import annotations

from typing import Any

from mcp_types import Tool

__all__ = ["assert_offline_tool_listed"]


def assert_offline_tool_listed(tool: Tool) -> dict[str, Any]:
    """An object output schema, read-only, idempotent and closed-world annotations, and a
    description on every parameter; returns the input schema's properties."""
    assert tool.output_schema is not None and tool.output_schema["type"] == "object"
    assert tool.annotations is not None
    assert tool.annotations.read_only_hint is True
    assert tool.annotations.idempotent_hint is True
    assert tool.annotations.open_world_hint is False
    props: dict[str, Any] = tool.input_schema["properties"]
    assert all(p.get("description") for p in props.values()), tool.name
    return props
