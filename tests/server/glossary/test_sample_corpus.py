"""The glossary group on the builder-made sample corpus, installed by the store, and the
whole `lexicon-mcp --glossary` process over stdio."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from lexicon_server.corpus.reader import Corpus
from lexicon_server.glossary.tools import TOOL_NAMES
from lexicon_store.selection import load_active

from .conftest import call, glossary_server, jsonl

BANK = ("Bank", "A group of memory chips that the controller addresses together.")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    env.update(extra)
    return env


def test_real_dictionary_senses_beside_the_project_meaning(
    sample_data_dir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "glossary.jsonl"
    path.write_text(jsonl([BANK]), encoding="utf-8")
    corpus = Corpus(load_active(sample_data_dir))
    try:
        is_error, body, _ = call(
            glossary_server(path, corpus), "glossary_find", {"query": "bank", "dictionary": True}
        )
    finally:
        corpus.close()
    assert not is_error
    assert body["results"] == [
        {"entry": {"term": BANK[0], "description": BANK[1]}, "score": body["results"][0]["score"]}
    ]
    dictionary = body["dictionary"]
    assert dictionary["status"] == "ok"
    (word,) = dictionary["words"]
    assert word["word"] == "bank" and word["senses"]
    assert all(sense["headword"] == "bank" for sense in word["senses"])
    assert all(sense["source"].startswith("wordnet") for sense in word["senses"])
    # WordNet's senses of "bank" are about money or rivers, never the project's memory chips
    assert not any("memory" in sense["gloss"] for sense in word["senses"])


def _stdio(args: list[str], env: dict[str, str]) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "lexicon_server.cli", *args], env=env
    )


def test_lexicon_mcp_glossary_option_over_stdio(sample_data_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "glossary.jsonl"
    params = _stdio(["--data-dir", str(sample_data_dir), "--glossary", str(path)], _env())

    async def main() -> dict[str, Any]:
        async with Client(params) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            added = await client.call_tool(
                "glossary_add", {"term": BANK[0], "description": BANK[1]}
            )
            found = await client.call_tool("glossary_find", {"query": "BANK", "dictionary": True})
            return {"tools": tools, "added": added, "found": found}

    out = anyio.run(main)
    assert set(TOOL_NAMES) <= set(out["tools"]) and len(out["tools"]) == 7 + len(TOOL_NAMES)
    assert out["tools"]["glossary_delete"].annotations.destructive_hint is True
    assert out["added"].structured_content == {"totalEntries": 1}
    found = out["found"].structured_content
    assert found["results"][0]["entry"]["term"] == "Bank"
    assert found["dictionary"]["words"][0]["senses"]
    assert path.read_text(encoding="utf-8") == jsonl([BANK]).replace('", "', '","').replace(
        '": "', '":"'
    )


def test_environment_variable_over_stdio(sample_data_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "glossary.jsonl"
    path.write_text(jsonl([BANK]), encoding="utf-8")
    params = _stdio(["--data-dir", str(sample_data_dir)], _env(LEXICON_GLOSSARY=str(path)))

    async def main() -> Any:
        async with Client(params) as client:
            return await client.call_tool("glossary_map", {})

    result = anyio.run(main)
    assert result.structured_content == {"terms": [{"term": "Bank", "mentionedIn": []}]}


def _start_with_bad_glossary(data_dir: Path, tmp_path: Path) -> tuple[Path, Any]:
    path = tmp_path / "glossary.jsonl"
    path.write_text(jsonl([BANK]) + '{"term":"BANK","description":"again"}\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "lexicon_server.cli", "--data-dir", str(data_dir)],
        env=_env(LEXICON_GLOSSARY=str(path)),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return path, done


def test_bad_glossary_stops_lexicon_mcp_with_the_line(
    sample_data_dir: Path, tmp_path: Path
) -> None:
    path, done = _start_with_bad_glossary(sample_data_dir, tmp_path)
    assert done.returncode != 0
    assert f"{path}:2: duplicate term 'BANK'" in done.stderr


def test_cli_find_with_dictionary(sample_data_dir: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from lexicon_server.glossary.cli import cli

    path = tmp_path / "glossary.jsonl"
    path.write_text(jsonl([BANK]), encoding="utf-8")
    runner = CliRunner()
    args = ["--file", str(path), "find", "bank", "--dictionary"]
    result = runner.invoke(cli, [*args, "--json"], env={"LEXICON_DATA_DIR": str(sample_data_dir)})
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert body["results"][0]["entry"]["term"] == "Bank"
    assert body["dictionary"]["status"] == "ok"
    assert body["dictionary"]["words"][0]["senses"][0]["source"].startswith("wordnet")
    text = runner.invoke(cli, args, env={"LEXICON_DATA_DIR": str(sample_data_dir)}).output
    assert "dictionary (general English, not the project's meaning):" in text
    empty = runner.invoke(cli, [*args, "--json"], env={"LEXICON_DATA_DIR": str(tmp_path / "none")})
    assert empty.exit_code == 0
    assert json.loads(empty.output)["dictionary"]["status"] == "unavailable"
