"""Issue 27's glossary cases, reproduced from outside: `lexicon-glossary` as a process,
`lexicon-mcp --glossary` as a process over stdio through the SDK's own client.

5: a line with an unpaired surrogate escape crashed the stdio server and the CLI's find
and map; 10: a deeply nested line and an undecodable term gave tracebacks; 11: a
read-only file was rewritten. Each now gives a named error, and nothing is written.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from _support.answers import error_of
from mcp import Client, StdioServerParameters

GOOD = '{"term":"Alpha","description":"The first."}\n'
SURROGATE = '{"term":"Beta","description":"half a pair \\ud800x"}\n'


def _cli(path: Path, *args: str | bytes) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    command: list[str | bytes] = [sys.executable, "-m", "lexicon_server.glossary"]
    return subprocess.run(
        [*command, "--file", str(path), *args],
        capture_output=True,
        text=True,
        errors="replace",
        env=env,
        timeout=60,
        check=False,
    )


def _refused(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr + done.stdout
    for word in words:
        assert word in done.stderr


@pytest.mark.parametrize("command", [["check"], ["find", "beta"], ["map"], ["add", "C", "c"]])
def test_a_surrogate_escape_is_a_format_error_naming_file_and_line(
    tmp_path: Path, command: list[str]
) -> None:
    path = tmp_path / "glossary.jsonl"
    path.write_text(GOOD + SURROGATE)
    before = path.read_bytes()
    done = _cli(path, *command)
    _refused(done, f"{path}:2", "unpaired surrogate \\ud800", f"--file {path} check")
    assert path.read_bytes() == before


def test_a_deeply_nested_line_is_a_format_error(tmp_path: Path) -> None:
    path = tmp_path / "glossary.jsonl"
    path.write_text(GOOD + "[" * 100_000 + "\n")
    _refused(_cli(path, "check"), f"{path}:2", "nested too deeply")


def test_a_term_of_undecodable_bytes_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "glossary.jsonl"
    path.write_text(GOOD)
    done = _cli(path, "add", b"Bad\xff", "d")
    _refused(done, "term:", "unpaired surrogate \\udcff", "UTF-8")
    assert path.read_text() == GOOD


@pytest.mark.parametrize(
    "command", [["add", "C", "c"], ["edit", "Alpha", "New."], ["delete", "alpha"]]
)
def test_a_read_only_file_is_never_rewritten_by_the_cli(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "glossary.jsonl"
    path.write_text(GOOD)
    path.chmod(0o444)
    inode = path.stat().st_ino
    _refused(_cli(path, *command), "read-only (mode 0444)", f"chmod u+w {path}")
    assert path.read_text() == GOOD
    assert path.stat().st_ino == inode and stat.S_IMODE(path.stat().st_mode) == 0o444
    assert sorted(p.name for p in tmp_path.iterdir()) == ["glossary.jsonl"]  # no temp file
    path.chmod(0o644)
    assert _cli(path, *command).returncode == 0  # writable again, the same command works


def _server(data_dir: Path, glossary: Path) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "lexicon_server.cli", "--data-dir", str(data_dir), "--glossary", str(glossary)],
        env=env,
    )


def test_the_stdio_server_names_a_bad_line_and_a_read_only_file_and_keeps_serving(
    sample_data_dir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "glossary.jsonl"
    path.write_text(GOOD)

    async def main() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with Client(_server(sample_data_dir, path)) as client:
            path.write_text(GOOD + SURROGATE)  # it turns bad while the server runs
            for tool, args in (
                ("glossary_find", {"query": "beta"}),
                ("glossary_map", {}),
                ("glossary_add", {"term": "C", "description": "c"}),
            ):
                seen[tool] = await client.call_tool(tool, args)
            path.write_text(GOOD)
            path.chmod(0o444)
            seen["read_only"] = await client.call_tool(
                "glossary_add", {"term": "C", "description": "c"}
            )
            seen["still_serving"] = await client.call_tool("glossary_find", {"query": "alpha"})
        return seen

    seen = anyio.run(main)
    for tool in ("glossary_find", "glossary_map", "glossary_add"):
        error = error_of(seen[tool])
        assert error["reason"] == "glossary_error", error
        assert f"{path}:2" in error["message"] and "unpaired surrogate" in error["message"]
    error = error_of(seen["read_only"])
    assert error["reason"] == "glossary_read_only" and "chmod u+w" in error["message"]
    assert path.read_text() == GOOD
    found = seen["still_serving"].structured_content
    assert [r["entry"]["term"] for r in found["results"]] == ["Alpha"]
    assert json.loads(seen["still_serving"].content[0].text) == found


def test_glossary_errors_over_http_name_no_server_path(
    sample_data_dir: Path, tmp_path: Path
) -> None:
    from _support.http_server import serving_http

    path = tmp_path / "glossary.jsonl"
    path.write_text(GOOD)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    args = ["--data-dir", str(sample_data_dir), "--glossary", str(path)]
    with serving_http(args, env=env) as url:

        async def main() -> tuple[Any, Any]:
            async with Client(url) as client:
                path.write_text(GOOD + SURROGATE)  # it turns bad while the server runs
                bad_line = await client.call_tool("glossary_find", {"query": "beta"})
                path.write_text(GOOD)
                path.chmod(0o444)
                read_only = await client.call_tool(
                    "glossary_add", {"term": "C", "description": "c"}
                )
                return bad_line, read_only

        bad_line, read_only = anyio.run(main)
    error = error_of(bad_line)
    assert error["reason"] == "glossary_error" and "glossary.jsonl:2" in error["message"], error
    assert str(tmp_path) not in json.dumps(error), error
    error = error_of(read_only)
    assert error["reason"] == "glossary_read_only", error
    assert str(tmp_path) not in json.dumps(error), error
    assert path.read_text() == GOOD
