"""The pinned third-party MCP clients in tests/clients, installed with `npm ci` on demand.

tests/clients/package-lock.json pins the MCP Inspector, the TypeScript SDK, `@wong2/mcp-cli`
and the conformance suite. They are installed once per lock file into
tests/clients/node_modules; a test that needs them is skipped only where Node.js or npm is
missing, and fails, saying why, when npm cannot install them.
"""

from __future__ import annotations

import functools
import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

__all__ = ["CLIENTS", "bin_path", "node_clients"]

CLIENTS = Path(__file__).resolve().parents[1] / "clients"
_STAMP = ".lexicon-lock-sha256"


@functools.cache
def _install() -> str | None:
    """Install the pinned clients if the lock changed; None, or why it failed."""
    lock = (CLIENTS / "package-lock.json").read_bytes()
    digest = hashlib.sha256(lock).hexdigest()
    stamp = CLIENTS / "node_modules" / _STAMP
    if stamp.exists() and stamp.read_text() == digest:
        return None
    command = ["npm", "ci", "--no-audit", "--no-fund", "--prefer-offline"]
    proc = subprocess.run(
        command, cwd=CLIENTS, capture_output=True, text=True, timeout=600, check=False
    )
    if proc.returncode != 0:
        return (
            f"`{' '.join(command)}` in {CLIENTS} failed (exit {proc.returncode}); the pinned "
            f"MCP clients come from the npm registry, so check that it can be reached:\n"
            f"{proc.stderr[-3000:]}"
        )
    stamp.write_text(digest)
    return None


def node_clients() -> Path:
    """tests/clients with its pinned packages installed (skip without Node, fail without npm)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("needs Node.js 20 and npm to run the third-party MCP clients")
    problem = _install()
    if problem is not None:
        pytest.fail(problem, pytrace=False)
    return CLIENTS


def bin_path(name: str) -> str:
    """A command of the pinned clients (`mcp-inspector`, `mcp-cli`, `conformance`)."""
    return str(node_clients() / "node_modules" / ".bin" / name)
