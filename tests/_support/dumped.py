"""A query's typed result as the JSON a tool answers with, for tests that read it as data."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

__all__ = ["dumped"]


def dumped(result: BaseModel) -> dict[str, Any]:
    """`result` as the tool's structured content: `model_dump(mode="json")`."""
    return result.model_dump(mode="json")
