"""`lexicon-mcp --slang` / `--slang-online` as a subprocess over stdio, on a real install.

The corpus fixture is packaged with lexicon_store's packager and installed with
`ops.install` from that release directory, so the server reads exactly what a user's
`lexicon-data install --from` would leave behind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

GUARD = Path(__file__).parents[2] / "_support" / "netguard.py"

pytestmark = pytest.mark.slow  # each test starts a server process (about a second of imports)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    from lexicon_store import ops
    from lexicon_store.package import package_release

    build_lexical_db = request.getfixturevalue("lexical_db_builder")
    root = tmp_path_factory.mktemp("slang-e2e")
    built = root / "built"
    (built / "en").mkdir(parents=True)
    build_lexical_db(built / "en" / "lexical.sqlite")
    (built / "DATA_LICENSES.md").write_text("# Slang test fixture (CC0-1.0)\n")
    dataset = {
        "format": 1,
        "dataset_version": "slang-e2e-1",
        "profile": "test",
        "schemas": {"lexical": 1},
        "languages": {"en": {"name": "English", "capabilities": ["lexical"]}},
        "components": [
            {
                "id": "en.lexical",
                "language": "en",
                "capability": "lexical",
                "path": "en/lexical.sqlite",
            },
            {
                "id": "shared.licenses",
                "language": None,
                "capability": "shared",
                "path": "DATA_LICENSES.md",
            },
        ],
    }
    (built / "dataset.json").write_text(json.dumps(dataset))
    package_release(built, root / "release")
    data = root / "data"
    ops.install(data_dir=data, source=root / "release", allow_unpinned=True, all_languages=True)
    return data


def _env(**extra: str) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("LEXICON_", "URBAN_DICTIONARY_"))
    }
    env.update(extra)
    return env


def _session(
    params: StdioServerParameters, calls: list[tuple[str, dict[str, Any]]]
) -> tuple[set[str], list[Any]]:
    async def go() -> tuple[set[str], list[Any]]:
        async with Client(params) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            return names, [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(go)


def test_guard_refuses_a_connection(tmp_path: Path) -> None:
    log = tmp_path / "net.log"
    run = subprocess.run(
        [sys.executable, str(GUARD), "--help"],
        env=_env(LEXICON_NETGUARD_LOG=str(log), LEXICON_NETGUARD_PROBE="1"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode != 0
    assert "socket." in log.read_text()


def test_offline_group_over_stdio_opens_no_connection(data_dir: Path, tmp_path: Path) -> None:
    log = tmp_path / "net.log"
    glossary = tmp_path / "glossary.jsonl"
    glossary.write_text('{"term": "fr", "description": "for real: sincerely"}\n')
    params = StdioServerParameters(
        command=sys.executable,
        args=[str(GUARD), "--data-dir", str(data_dir), "--slang", "--glossary", str(glossary)],
        env=_env(LEXICON_NETGUARD_LOG=str(log)),
    )
    pairs = [{"slang": "no cap", "plain": "honestly"}, {"slang": "fr", "plain": "for real"}]
    names, (plain, explained) = _session(
        params,
        [
            ("slang_rewrite", {"text": "No cap, this works fr!", "glossary": pairs}),
            (
                "slang_interpret",
                {"text": "No cap, this works fr!", "terms": ["no cap", "fr", "yeet"]},
            ),
        ],
    )
    assert {"slang_rewrite", "slang_interpret"} <= names
    assert not any(n.startswith("urban_dictionary") for n in names)
    assert plain.structured_content["output"] == "honestly, this works for real!"
    out = explained.structured_content
    assert [e["status"] for e in out["entries"]] == ["found", "found", "not_in_text"]
    assert out["entries"][0]["definitions"][0]["source"] == "slang-fixture"
    assert out["entries"][1]["definitions"][0]["origin"] == "glossary"
    assert not log.exists(), log.read_text()


def test_default_server_has_no_slang_tools(data_dir: Path, tmp_path: Path) -> None:
    log = tmp_path / "net.log"
    params = StdioServerParameters(
        command=sys.executable,
        args=[str(GUARD), "--data-dir", str(data_dir)],
        env=_env(LEXICON_NETGUARD_LOG=str(log)),
    )
    names, _ = _session(params, [])
    assert not any(n.startswith(("slang_", "urban_dictionary_")) for n in names)
    assert not log.exists()


def test_online_group_over_stdio_against_the_fake_api(data_dir: Path, fake_ud) -> None:  # type: ignore[no-untyped-def]
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-c",
            "from lexicon_server.cli import main; main()",
            "--data-dir",
            str(data_dir),
            "--slang-online",
        ],
        env=_env(URBAN_DICTIONARY_API_BASE=fake_ud.base_url, URBAN_DICTIONARY_TIMEOUT_MS="300"),
    )
    names, (define, interpreted, slow) = _session(
        params,
        [
            ("urban_dictionary_define", {"term": "yeet", "limit": 1}),
            ("slang_interpret", {"text": "yeet, no cap", "terms": ["yeet", "no cap"]}),
            ("urban_dictionary_define", {"term": "slow"}),
        ],
    )
    fake_ud.release.set()
    assert {"urban_dictionary_define", "urban_dictionary_random", "urban_dictionary_defid"} <= names
    assert define.structured_content["definitions"][0]["defid"] == 11
    entries = interpreted.structured_content["entries"]
    assert entries[0]["definitions"][0]["origin"] == "urban_dictionary"
    assert {d["origin"] for d in entries[1]["definitions"]} == {"corpus", "urban_dictionary"}
    assert slow.is_error and "within 300 ms" in slow.content[0].text
    assert "/v0/define?term=yeet" in fake_ud.requests
