"""End to end through a third-party client: the MCP Inspector's command line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from _support.inspector import inspector, inspector_marks
from _support.provenance import assert_sources_complete

pytestmark = inspector_marks


def _inspector(data_dir: Path, *method: str) -> Any:
    server = [sys.executable, "-m", "lexicon_server.cli", "--data-dir", str(data_dir)]
    return inspector(server, *method)


def test_inspector_lists_the_tools(mini_data_dir: Path) -> None:
    listed = _inspector(mini_data_dir, "--method", "tools/list")
    tools = {t["name"]: t for t in listed["tools"]}
    assert "dictionary_lookup" in tools
    assert tools["dictionary_lookup"]["annotations"]["readOnlyHint"] is True
    assert "outputSchema" in tools["dictionary_lookup"]


def test_inspector_calls_a_tool(mini_data_dir: Path) -> None:
    called = _inspector(
        mini_data_dir,
        "--method",
        "tools/call",
        "--tool-name",
        "dictionary_translate",
        "--tool-arg",
        "word=house",
        "--tool-arg",
        "target_language=fr",
    )
    data = called["structuredContent"]
    texts = {c["text"] for g in data["groups"] for c in g["candidates"]}
    assert "maison" in texts
    assert "freedict-eng-fra" in data["sources"]
    assert_sources_complete(data)
