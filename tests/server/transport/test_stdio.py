"""The whole server once as a subprocess over stdio (on the builder-made sample corpus,
installed by the store), with network access refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from _support.provenance import assert_sources_complete
from mcp import Client, StdioServerParameters

from lexicon_server.server import DICTIONARY_TOOLS

GUARD = Path(__file__).parents[2] / "_support" / "netguard.py"
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("dictionary_lookup", {"word": "dogs"}),
    ("dictionary_synonyms", {"word": "dog", "limit": 5}),
    ("dictionary_translate", {"word": "house", "target_language": "fr"}),
    ("dictionary_relations", {"word": "dog", "relation": "hypernym", "max_depth": 2}),
    ("dictionary_semantic_neighbors", {"word": "king", "limit": 3}),
    ("rhymes", {"word": "cat", "mode": "near", "limit": 5, "vocabulary": "all"}),
    ("wordplay", {"text": "listen", "kind": "anagram"}),
]


def _env(log: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    env.update({"LEXICON_NETGUARD_LOG": str(log), **extra})
    return env


def test_whole_server_over_stdio_without_network(sample_data_dir: Path, tmp_path: Path) -> None:
    log = tmp_path / "net.log"
    params = StdioServerParameters(
        command=sys.executable,
        args=[str(GUARD), "--data-dir", str(sample_data_dir)],
        env=_env(log),
    )

    async def main() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with Client(params) as client:
            out["tools"] = {t.name for t in (await client.list_tools()).tools}
            for name, args in CALLS:
                result = await client.call_tool(name, args)
                assert not result.is_error, (name, result.content)
                out[name] = result.structured_content
            bad = await client.call_tool("dictionary_lookup", {"word": "dog", "limit": 0})
            out["bad"] = bad
            read = await client.read_resource("lexicon://languages")
            out["languages"] = json.loads(read.contents[0].text)  # type: ignore[union-attr]
        return out

    out = anyio.run(main)
    # without opt-in switches the surface is exactly the seven dictionary tools
    assert out["tools"] == set(DICTIONARY_TOOLS)
    for name, _args in CALLS:
        assert out[name]["sources"], name
        assert_sources_complete(out[name])
    assert out["dictionary_lookup"]["resolutions"][0]["lemma"] == "dog"
    translations = out["dictionary_translate"]["groups"]
    assert "maison" in {c["text"] for g in translations for c in g["candidates"]}
    assert len(out["dictionary_semantic_neighbors"]["neighbors"]) == 3
    hops = {r.get("relation_scope", "direct") for r in out["dictionary_relations"]["results"]}
    assert hops == {"direct", "transitive"}
    assert len(out["rhymes"]["results"]) == 5
    assert all(r["edit"] != "identical" for r in out["rhymes"]["results"])
    assert "silent" in {a["word"] for a in out["wordplay"]["results"]}
    assert out["bad"].is_error and "limit" in out["bad"].content[0].text
    assert out["languages"]["dataset_version"] == out["dictionary_lookup"]["dataset_version"]
    # no tool tried to reach the network
    assert not log.exists(), log.read_text()


def test_guard_would_fail_a_run_that_connects(mini_data_dir: Path, tmp_path: Path) -> None:
    log = tmp_path / "net.log"
    proc = subprocess.run(
        [sys.executable, str(GUARD), "--data-dir", str(mini_data_dir)],
        env=_env(log, LEXICON_NETGUARD_PROBE="1"),
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode != 0
    assert "network access attempted" in proc.stderr
    assert "socket." in log.read_text()


def test_opt_in_switches_add_their_groups(mini_data_dir: Path, tmp_path: Path) -> None:
    glossary = tmp_path / "glossary.jsonl"
    params = StdioServerParameters(
        command=sys.executable,
        args=[str(GUARD), "--data-dir", str(mini_data_dir), "--glossary", str(glossary), "--slang"],
        env=_env(tmp_path / "net.log"),
    )

    async def main() -> set[str]:
        async with Client(params) as client:
            return {t.name for t in (await client.list_tools()).tools}

    names = anyio.run(main)
    assert set(DICTIONARY_TOOLS) < names
    extra = names - set(DICTIONARY_TOOLS)
    assert any(n.startswith("glossary") for n in extra), extra
    assert any("slang" in n for n in extra), extra
    assert not (tmp_path / "net.log").exists()
