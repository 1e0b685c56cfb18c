"""The slang tools through a third-party client: the MCP Inspector's command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from _support.inspector import inspector, inspector_marks

pytestmark = inspector_marks


def _inspector(data_dir: Path, *method: str) -> Any:
    server = [sys.executable, "-m", "lexicon_server.cli", "--data-dir", str(data_dir), "--slang"]
    return inspector(server, *method)


def test_inspector_lists_and_calls_the_slang_tools(sample_data_dir: Path) -> None:
    listed = _inspector(sample_data_dir, "--method", "tools/list")
    tools = {t["name"]: t for t in listed["tools"]}
    assert tools["slang_rewrite"]["annotations"]["openWorldHint"] is False
    assert tools["slang_interpret"]["annotations"]["readOnlyHint"] is True
    assert "outputSchema" in tools["slang_interpret"]
    assert not any(name.startswith("urban_dictionary") for name in tools)

    pairs = [{"slang": "no cap", "plain": "honestly"}, {"slang": "fr", "plain": "for real"}]
    rewritten = _inspector(
        sample_data_dir,
        "--method",
        "tools/call",
        "--tool-name",
        "slang_rewrite",
        "--tool-arg",
        "text=No cap, this works fr!",
        "--tool-arg",
        f"glossary={json.dumps(pairs)}",
    )
    assert rewritten["structuredContent"]["output"] == "honestly, this works for real!"

    explained = _inspector(
        sample_data_dir,
        "--method",
        "tools/call",
        "--tool-name",
        "slang_interpret",
        "--tool-arg",
        "text=the cat sat",
        "--tool-arg",
        'terms=["cat", "dog"]',
    )
    entries = explained["structuredContent"]["entries"]
    assert [(e["term"], e["status"]) for e in entries] == [("cat", "found"), ("dog", "not_in_text")]
    assert entries[0]["occurrences"][0]["start"] == 4
