"""Every tool's every kind of answer through the clients people run, pinned in tests/clients.

The matrix of calls (a success of each tool, and each kind of error: the four reasons, a bad
argument of every tool, a glossary duplicate and unknown term, a slang refusal, an unknown
tool) goes through the TypeScript SDK's own client over stdio (it checks structured content
against each tool's outputSchema) and through the MCP Inspector's CLI 0.15.0 over streamable
HTTP; one call of each kind goes through `@wong2/mcp-cli` over stdio, and the issue's own
checks through the Inspector over stdio. No client may reject an answer; errors must arrive
as error answers in the house form.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from _support.http_server import serving_http
from _support.inspector import inspector_run
from _support.node_clients import bin_path, node_clients

from lexicon_server.text_answers import rendered
from lexicon_server.tool_table import DICTIONARY_TOOLS

pytestmark = pytest.mark.slow

GLOSSARY = (
    '{"term":"Batch Release","description":"Formal approval of a production batch."}\n'
    '{"term":"Takt","description":"The rhythm the line works to."}\n'
)


@dataclass(frozen=True)
class Case:
    """One call, and what it must answer: "ok", an error reason, or a JSON-RPC code."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    expect: str | int = "ok"
    beside_error: tuple[str, ...] = ()  # fields the error body carries beside `error`


# On the whole sample release, with the glossary and slang groups switched on.
FULL = [
    Case("dictionary_lookup", {"word": "bank", "limit": 3}),
    Case("dictionary_synonyms", {"word": "dog"}),
    Case("dictionary_translate", {"word": "house", "target_language": "fr"}),
    # Sense groups in evidence order (MultiWordNet's sense-tied Italian).
    Case("dictionary_translate", {"word": "bank", "target_language": "it"}),
    Case("dictionary_relations", {"word": "dog", "relation": "hypernym"}),
    Case("dictionary_semantic_neighbors", {"word": "king", "limit": 5}),
    Case("rhymes", {"word": "cat", "limit": 5}),
    Case("wordplay", {"text": "listen", "kind": "anagram"}),
    Case("wordplay", {"text": "c?t", "kind": "pattern", "vocabulary": "all"}),
    Case("wordplay", {"text": "nite", "kind": "sounds_like"}),
    # Spelling patterns and names labelled (issues 30 and 29).
    Case("dictionary_synonyms", {"word": "happy", "pattern": "j*"}),
    Case("dictionary_semantic_neighbors", {"word": "king", "limit": 5, "pattern": "q*"}),
    Case("rhymes", {"word": "cat", "pattern": "?at", "vocabulary": "all"}),
    Case("wordplay", {"text": "listen", "kind": "anagram", "vocabulary": "all"}),
    # A description: the words it describes (issue 30); a pair through English (issue 29).
    Case("dictionary_semantic_neighbors", {"word": "a young dog", "limit": 5}),
    Case("dictionary_translate", {"word": "Haus", "language": "de", "target_language": "fr"}),
    # A found word nothing links to the target: the answer's note says so.
    Case("dictionary_translate", {"word": "chien", "language": "fr", "target_language": "it"}),
    # A miss: found false, with suggestions (issue 30).
    Case("dictionary_lookup", {"word": "dgo"}),
    Case("rhymes", {"word": "dgo"}),
    Case("glossary_find", {"query": "batch"}),
    Case("glossary_map", {}),
    Case("glossary_add", {"term": "Kanban", "description": "A pull signal."}),
    Case("glossary_edit", {"term": "takt", "description": "The line's rhythm."}),
    Case("slang_interpret", {"text": "no cap, that was a heist", "terms": ["heist"]}),
    # A GCIDE sense labelled [slang] marks the phrase (its tags, its GPL-2+ licence).
    Case("slang_interpret", {"text": "that party was lit", "terms": ["lit"]}),
    Case("slang_rewrite", {"text": "no cap", "glossary": [{"slang": "no cap", "plain": "truly"}]}),
    # A bad argument of every tool.
    Case("dictionary_lookup", {"word": "bank", "limit": 0}, "invalid_argument"),
    Case("dictionary_synonyms", {"word": "dog", "limt": 3}, "invalid_argument"),
    Case("dictionary_translate", {"word": "dog"}, "invalid_argument"),
    # translate's former `source_language` (issue 28) is refused, naming the new one.
    Case(
        "dictionary_translate",
        {"word": "dog", "target_language": "fr", "source_language": "en"},
        "invalid_argument",
    ),
    Case("dictionary_relations", {"word": "dog", "relation": "bogus"}, "invalid_argument"),
    Case("dictionary_semantic_neighbors", {"word": "king", "limit": 101}, "invalid_argument"),
    Case("rhymes", {"word": "cat", "syllables": 0}, "invalid_argument"),
    Case("wordplay", {"text": "dog", "kind": "pan"}, "invalid_argument"),
    Case("wordplay", {"text": "c.t", "kind": "pattern"}, "invalid_argument"),
    Case("wordplay", {"text": "cat", "kind": "pun", "vocabulary": "all"}, "invalid_argument"),
    Case("rhymes", {"word": "cat", "pattern": "c.t"}, "invalid_argument"),
    Case("dictionary_synonyms", {"word": "dog", "pattern": "d+"}, "invalid_argument"),
    Case("glossary_find", {"query": "x", "maxResults": 0}, "invalid_argument"),
    Case("slang_rewrite", {"text": "x", "glossary": []}, "invalid_argument"),
    # The glossary's refusals, and a slang refusal made past the schema.
    Case(
        "glossary_add",
        {"term": "batch release", "description": "Again."},
        "term_exists",
        ("existingEntry",),
    ),
    Case("glossary_edit", {"term": "Nope", "description": "x"}, "term_not_found"),
    Case("glossary_delete", {"term": "Nope"}, "term_not_found"),
    Case("glossary_map", {"term": "Nope"}, "term_not_found"),
    Case("slang_interpret", {"text": "no cap", "terms": []}, "invalid_argument"),
    # A protocol mistake.
    Case("no_such_tool", {}, -32602),
]

# On the same release with only English lexical data installed: the four reasons.
PARTIAL = [
    Case("dictionary_lookup", {"word": "Haus", "language": "de"}, "language_not_installed"),
    Case("dictionary_lookup", {"word": "chat", "language": "xx"}, "unknown_language"),
    Case("dictionary_semantic_neighbors", {"word": "king"}, "capability_not_installed"),
    Case(
        "dictionary_semantic_neighbors",
        {"word": "casa", "language": "it"},
        "not_available_upstream",
    ),
    Case("rhymes", {"word": "cat"}, "capability_not_installed"),
    Case("wordplay", {"text": "listen", "kind": "anagram"}, "capability_not_installed"),
]


def _server(data_dir: Path, glossary: Path | None = None) -> list[str]:
    command = [sys.executable, "-m", "lexicon_server.cli", "--data-dir", str(data_dir)]
    return command if glossary is None else [*command, "--glossary", str(glossary), "--slang"]


def _glossary(tmp_path: Path) -> Path:
    path = tmp_path / "glossary.jsonl"
    path.write_text(GLOSSARY, encoding="utf-8")
    return path


def check_answer(case: Case, answer: dict[str, Any]) -> None:
    """`answer` (a CallToolResult on the wire) is what `case` expects, in the house form."""
    texts = [c["text"] for c in answer["content"] if c["type"] == "text"]
    if case.expect == "ok":
        assert not answer.get("isError"), (case, texts)
        assert isinstance(answer.get("structuredContent"), dict), case
        if case.name in DICTIONARY_TOOLS:
            # The text is the compact rendering of the structured content, intact.
            assert texts == [rendered(case.name, answer["structuredContent"])], case
        else:
            assert json.loads(texts[0]) == answer["structuredContent"], case
        return
    assert answer.get("isError") is True, (case, answer)
    assert "structuredContent" not in answer, (case, answer)
    assert len(texts) == 1, case
    body = json.loads(texts[0])
    assert body["error"]["reason"] == case.expect, (case, body)
    assert body["error"]["message"], case
    assert set(body) == {"error", *case.beside_error}, (case, body)


# --- the TypeScript SDK's own client -----------------------------------------------------


def _sdk_calls(server: list[str], cases: list[Case]) -> dict[str, Any]:
    clients = node_clients()
    spec = json.dumps({"command": server[0], "args": server[1:]})
    calls = json.dumps([{"name": c.name, "arguments": c.args} for c in cases])
    proc = subprocess.run(
        ["node", str(clients / "sdk_calls.mjs"), spec],
        input=calls,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen: dict[str, Any] = json.loads(proc.stdout)
    return seen


def _check_sdk_calls(cases: list[Case], seen: dict[str, Any]) -> None:
    for case, call in zip(cases, seen["calls"], strict=True):
        if isinstance(case.expect, int):
            assert call["ok"] is False and call["code"] == case.expect, (case, call)
            continue
        # A rejected answer surfaces as a thrown McpError: the very failure this prevents.
        assert call["ok"], (case, call)
        check_answer(case, call["result"])


def test_typescript_sdk_client_accepts_every_answer(
    sample_data_dir: Path, partial_data_dir: Path, tmp_path: Path
) -> None:
    seen = _sdk_calls(_server(sample_data_dir, _glossary(tmp_path)), FULL)
    _check_sdk_calls(FULL, seen)
    assert seen["serverInfo"]["description"]
    assert set(seen["capabilities"]) == {"tools", "resources"}
    assert {c.name for c in FULL} - {"no_such_tool"} <= set(seen["tools"])
    _check_sdk_calls(PARTIAL, _sdk_calls(_server(partial_data_dir), PARTIAL))


# --- command-line clients: one process per call -----------------------------------------


def _inspector_answer(server: list[str], case: Case) -> tuple[int, str, str]:
    """The Inspector's call of `case`; `server` is a command, or a URL then its transport."""
    args = [f"{key}={v if isinstance(v, str) else json.dumps(v)}" for key, v in case.args.items()]
    method = ["--method", "tools/call", "--tool-name", case.name]
    for arg in args:
        method += ["--tool-arg", arg]
    proc = inspector_run(server, *method)
    return proc.returncode, proc.stdout, proc.stderr


def _mcp_cli_answer(config: Path, case: Case) -> tuple[int, str, str]:
    call = ["call-tool", f"lexicon:{case.name}", "--args", json.dumps(case.args)]
    proc = subprocess.run(
        [bin_path("mcp-cli"), "-c", str(config), *call],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


def _check_cli_answers(cases: list[Case], answers: list[tuple[int, str, str]]) -> None:
    for case, (code, out, err) in zip(cases, answers, strict=True):
        if isinstance(case.expect, int):
            assert code != 0 and str(case.expect) in out + err, (case, out, err)
            continue
        assert code == 0, (case, out[-2000:], err[-2000:])
        assert "does not match the tool's output schema" not in out + err, case
        check_answer(case, json.loads(out))


def _run_each(run: Any, cases: list[Case]) -> list[tuple[int, str, str]]:
    # A few client processes at once: each spends most of its time starting up.
    with ThreadPoolExecutor(max_workers=3) as pool:
        return list(pool.map(run, cases))


def test_inspector_cli_reads_every_answer(
    sample_data_dir: Path, partial_data_dir: Path, tmp_path: Path
) -> None:
    glossary = _glossary(tmp_path)
    full_args = ["--data-dir", str(sample_data_dir), "--glossary", str(glossary), "--slang"]
    for arguments, cases in [
        (full_args, FULL),
        (["--data-dir", str(partial_data_dir)], PARTIAL),
    ]:
        with serving_http(arguments) as url:
            answers = _run_each(partial(_inspector_answer, [url, "--transport", "http"]), cases)
            _check_cli_answers(cases, answers)


def test_inspector_cli_shows_the_reason_the_refusal_and_the_existing_entry(
    sample_data_dir: Path, tmp_path: Path
) -> None:
    """The issue's own checks, read as a person reads the Inspector's output."""
    server = _server(sample_data_dir, _glossary(tmp_path))
    for case, shown in [
        (Case("dictionary_lookup", {"word": "chat", "language": "xx"}), "unknown_language"),
        (Case("dictionary_lookup", {"word": "chat", "limit": 0}), "limit must be an integer"),
        (Case("glossary_add", {"term": "Takt", "description": "x"}), "The rhythm the line"),
    ]:
        code, out, err = _inspector_answer(server, case)
        assert code == 0 and shown in out, (case, out, err)
        assert "-32602" not in out + err


def _one_of_each_kind(cases: list[Case]) -> list[Case]:
    """The first case with each expectation: every kind of answer once."""
    kinds: dict[str | int, Case] = {}
    for case in cases:
        kinds.setdefault(case.expect, case)
    return list(kinds.values())


def test_mcp_cli_reads_every_kind_of_answer(
    sample_data_dir: Path, partial_data_dir: Path, tmp_path: Path
) -> None:
    for label, server, cases in [
        ("full", _server(sample_data_dir, _glossary(tmp_path)), _one_of_each_kind(FULL)),
        ("partial", _server(partial_data_dir), _one_of_each_kind(PARTIAL)),
    ]:
        config = tmp_path / f"{label}.json"
        spec = {"command": server[0], "args": server[1:]}
        config.write_text(json.dumps({"mcpServers": {"lexicon": spec}}), encoding="utf-8")
        _check_cli_answers(cases, _run_each(partial(_mcp_cli_answer, config), cases))
