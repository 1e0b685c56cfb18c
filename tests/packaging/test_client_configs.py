"""Every MCP client configuration shown in README.md and docs/*.md starts a working server.

Each JSON snippet with `mcpServers` (Claude Desktop, Cursor) or `servers` (VS Code), and
each `claude mcp add` command line, is parsed from the Markdown and run as written, with
two substitutions: `/path/to/lexicon` becomes this checkout, and a bare `lexicon-mcp`
becomes this environment's console script (what a tool install puts on PATH). The data
dir is the small builder-made sample corpus, passed as LEXICON_DATA_DIR.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from lexicon_server.server import DICTIONARY_TOOLS

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CHECKOUT_PLACEHOLDER = "/path/to/lexicon"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Snippet:
    where: str  # file:line, for the test id
    command: str
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)


def _from_json(where: str, text: str) -> list[Snippet]:
    try:
        body = json.loads(text)
    except json.JSONDecodeError as exc:
        if '"mcpServers"' in text or '"servers"' in text:
            raise AssertionError(
                f"{where}: an MCP configuration snippet is not valid JSON"
            ) from exc
        return []
    if not isinstance(body, dict):
        return []
    found: list[Snippet] = []
    for key in ("mcpServers", "servers"):
        for name, server in (body.get(key) or {}).items():
            assert isinstance(server.get("command"), str), f"{where}: {name} has no command"
            if key == "servers":  # VS Code names the transport; stdio is the one we serve
                assert server.get("type") == "stdio", f"{where}: {name} needs type stdio"
            found.append(
                Snippet(f"{where} {key}", server["command"], list(server.get("args", [])),
                        dict(server.get("env", {})))
            )  # fmt: skip
    return found


def _from_shell(where: str, text: str) -> list[Snippet]:
    found: list[Snippet] = []
    for offset, line in enumerate(text.replace("\\\n", " ").splitlines()):
        words = shlex.split(line, comments=True)
        if words[:3] != ["claude", "mcp", "add"]:
            continue
        assert "--" in words, f"{where}: `claude mcp add` without `--` before the command"
        options, command = words[3 : words.index("--")], words[words.index("--") + 1 :]
        env: dict[str, str] = {}
        for flag, value in itertools.pairwise(options):
            if flag in ("-e", "--env"):
                key, _, val = value.partition("=")
                env[key] = val
        if "--transport" in options:
            assert options[options.index("--transport") + 1] == "stdio", where
        found.append(Snippet(f"{where}+{offset} claude", command[0], command[1:], env))
    return found


def client_snippets() -> list[Snippet]:
    """Every MCP server configuration in README.md and docs/*.md."""
    found: list[Snippet] = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            where = f"{doc.relative_to(ROOT)}:{line}"
            lang, body = match.group(1), match.group(2)
            if lang == "json":
                found.extend(_from_json(where, body))
            elif lang in ("sh", "bash", "console", "shell"):
                found.extend(_from_shell(where, body))
    return found


SNIPPETS = client_snippets()


def test_the_docs_show_every_client_both_ways() -> None:
    """Tool install and checkout, for the `mcpServers`, `servers` and Claude Code forms."""
    readme = [s for s in SNIPPETS if s.where.startswith("README.md")]
    for form in ("mcpServers", "servers", "claude"):
        commands = {s.command for s in readme if s.where.endswith(form)}
        assert commands == {"lexicon-mcp", "uv"}, (form, commands)


def _resolve(snippet: Snippet, data_dir: Path) -> StdioServerParameters:
    command = snippet.command
    if command == "lexicon-mcp":
        command = str(Path(sys.executable).parent / "lexicon-mcp")
    args = [a.replace(CHECKOUT_PLACEHOLDER, str(ROOT)) for a in snippet.args]
    if snippet.command == "uv":
        assert str(ROOT) in args, (
            f"{snippet.where}: a checkout snippet must name {CHECKOUT_PLACEHOLDER}"
        )
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    env.update(snippet.env)
    env["LEXICON_DATA_DIR"] = str(data_dir)  # the snippet's own data dir is an example path
    return StdioServerParameters(command=command, args=args, env=env, cwd=str(data_dir.parent))


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[s.where for s in SNIPPETS])
def test_snippet_starts_a_working_server(snippet: Snippet, sample_data_dir: Path) -> None:
    params = _resolve(snippet, sample_data_dir)

    async def main() -> tuple[set[str], Any]:
        async with Client(params) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            return tools, await client.call_tool("dictionary_lookup", {"word": "dog"})

    tools, result = anyio.run(main)
    assert set(DICTIONARY_TOOLS) <= tools
    assert not result.is_error, result.content
    assert result.structured_content["senses"], result.structured_content
