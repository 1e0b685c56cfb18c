"""Drive a `lexicon-mcp` subprocess through the MCP Inspector's command line."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from typing import Any

import pytest

from _support.node_clients import bin_path

__all__ = ["INSPECTOR", "inspector", "inspector_marks", "inspector_run"]

# Pinned in tests/clients/package-lock.json; 0.15.0 is the newest that runs on Node 20.
INSPECTOR = "@modelcontextprotocol/inspector@0.15.0"

# Each call starts the Inspector and a server process.
inspector_marks = [pytest.mark.slow]


def inspector_run(server: Sequence[str], *method: str) -> subprocess.CompletedProcess[str]:
    """The Inspector CLI's whole run of `method` against the `server` command."""
    return subprocess.run(
        [bin_path("mcp-inspector"), "--cli", *server, *method],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def inspector(server: Sequence[str], *method: str) -> Any:
    """The parsed JSON the Inspector prints for `method` against the `server` command."""
    proc = inspector_run(server, *method)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)
