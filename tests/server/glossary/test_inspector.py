"""The glossary tools through a third-party client: the MCP Inspector's command line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from _support.inspector import inspector, inspector_marks

pytestmark = inspector_marks


def _inspector(data_dir: Path, glossary: Path, *method: str) -> Any:
    server = [sys.executable, "-m", "lexicon_server.cli", "--data-dir", str(data_dir)]
    return inspector([*server, "--glossary", str(glossary)], *method)


def test_inspector_sees_the_glossary_tools_and_writes(
    sample_data_dir: Path, tmp_path: Path
) -> None:
    glossary = tmp_path / "glossary.jsonl"
    listed = _inspector(sample_data_dir, glossary, "--method", "tools/list")
    tools = {t["name"]: t for t in listed["tools"]}
    assert tools["glossary_find"]["annotations"]["readOnlyHint"] is True
    assert tools["glossary_delete"]["annotations"]["destructiveHint"] is True
    assert tools["glossary_add"]["annotations"]["destructiveHint"] is False
    assert "outputSchema" in tools["glossary_map"]
    called = _inspector(
        sample_data_dir,
        glossary,
        "--method",
        "tools/call",
        "--tool-name",
        "glossary_add",
        "--tool-arg",
        "term=Takt",
        "--tool-arg",
        "description=The rhythm the line works to.",
    )
    assert called["structuredContent"] == {"totalEntries": 1}
    assert glossary.read_text(encoding="utf-8") == (
        '{"term":"Takt","description":"The rhythm the line works to."}\n'
    )
