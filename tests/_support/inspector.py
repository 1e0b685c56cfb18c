"""Drive a `lexicon-mcp` subprocess through the MCP Inspector's command line (via npx)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Sequence
from typing import Any

import pytest

__all__ = ["INSPECTOR", "inspector", "inspector_marks"]

INSPECTOR = "@modelcontextprotocol/inspector@0.15.0"

# Each call starts npx and a server process; without Node there is nothing to run.
inspector_marks = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("npx") is None, reason="needs Node's npx"),
]


def inspector(server: Sequence[str], *method: str) -> Any:
    """The parsed JSON the Inspector prints for `method` against the `server` command."""
    proc = subprocess.run(
        ["npx", "-y", INSPECTOR, "--cli", *server, *method],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)
