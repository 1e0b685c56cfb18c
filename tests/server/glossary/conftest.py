"""Shared helpers for the glossary tests: real files in tmp_path, the SDK's own client."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

import anyio
import pytest
from _support.answers import error_body
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult

from lexicon_server.corpus.reader import Corpus, schema_sql
from lexicon_server.glossary.tools import register
from lexicon_store.selection import ActiveSelection

T = TypeVar("T")

BRIEF_ENTRIES = [
    (
        "Batch Release",
        "Formal approval of a production batch before further processing or shipping.",
    ),
    ("Target Stock", "Planned or expected inventory level used for comparison with actual stock."),
    ("Production Batch", "A quantity made in one run; see Batch Record for its paperwork."),
    ("Batch Record", "The document trail of one production batch."),
]


def jsonl(entries: list[tuple[str, str]]) -> str:
    return "".join(
        json.dumps({"term": t, "description": d}, ensure_ascii=False) + "\n" for t, d in entries
    )


@pytest.fixture
def gpath(tmp_path: Path) -> Path:
    """A glossary file holding the brief's sample entries."""
    path = tmp_path / "glossary.jsonl"
    path.write_text(jsonl(BRIEF_ENTRIES), encoding="utf-8")
    return path


def run(fn: Callable[[], Awaitable[T]]) -> T:
    return anyio.run(fn)


def glossary_server(path: Path, corpus: Corpus | None = None) -> MCPServer[Any]:
    """A server with only the glossary tools, as lexicon-mcp --glossary PATH would add them."""
    server: MCPServer[Any] = MCPServer("glossary-test")
    register(server, path, corpus)
    return server


def call(
    path_or_server: Path | MCPServer[Any], name: str, arguments: dict[str, Any]
) -> tuple[bool, Any, str]:
    """One tool call through the SDK's in-memory client: (is_error, body, text).

    `body` is the structured content of a success, or the JSON body of an error answer
    (checked against the house rule); `text` is a success's text or the error's message.
    """
    server = (
        path_or_server if isinstance(path_or_server, MCPServer) else glossary_server(path_or_server)
    )

    async def go() -> tuple[bool, Any, str]:
        async with Client(server) as client:
            return outcome(await client.call_tool(name, arguments))

    return run(go)


def _lexical_db(path: Path) -> None:
    path.parent.mkdir(parents=True)
    conn = sqlite3.connect(path)
    conn.executescript(schema_sql("lexical"))
    conn.execute("INSERT INTO sources VALUES (1, 'test-lexicon', 'Test rows', '1', 'CC0', 'x')")
    rows = [
        ("release", "verb", "let go of something held"),
        ("release", "noun", "the act of making something public"),
        ("release", "noun", "a formal relinquishment of a claim"),
        ("release", "noun", "a fourth sense the limit drops"),
        ("batch", "noun", "a quantity produced at one operation"),
    ]
    terms: dict[str, int] = {}
    for rank, (word, pos, gloss) in enumerate(rows):
        if word not in terms:
            terms[word] = int(
                conn.execute("INSERT INTO terms (text, norm) VALUES (?, ?)", (word, word)).lastrowid
                or 0
            )
        entry = conn.execute(
            "INSERT INTO entries (term_id, pos, source_id) VALUES (?, ?, 1)", (terms[word], pos)
        ).lastrowid
        conn.execute(
            "INSERT INTO senses (entry_id, rank, gloss, source_id) VALUES (?, ?, ?, 1)",
            (entry, rank, gloss),
        )
    conn.execute("INSERT INTO inflections VALUES ('batches', ?, 'noun', 1)", (terms["batch"],))
    conn.commit()
    conn.close()


def mini_corpus(root: Path, installed: frozenset[str]) -> Corpus:
    """English lexical test rows (labelled test data, not real dictionary text)."""
    _lexical_db(root / "en" / "lexical.sqlite")
    selection = ActiveSelection(
        data_dir=root,
        activation_id="test",
        dataset_version="test-1",
        manifest_digest="blake3:" + "0" * 64,
        profile="test",
        language_names=MappingProxyType({"en": "English"}),
        catalogue=MappingProxyType({"en": frozenset({"lexical", "semantic"})}),
        installed=MappingProxyType({"en": installed} if installed else {}),
        files=MappingProxyType({"en/lexical.sqlite": root / "en" / "lexical.sqlite"}),
    )
    return Corpus(selection)


def outcome(result: CallToolResult) -> tuple[bool, Any, str]:
    """(is_error, body, text) of one answer, as `call` returns them."""
    if result.is_error:
        body = error_body(result)
        return True, body, body["error"]["message"]
    text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
    return False, result.structured_content, text
