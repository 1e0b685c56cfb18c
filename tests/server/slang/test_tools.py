"""The slang tool group through the MCP SDK's own in-memory client."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from _support.answers import error_of
from mcp import Client
from mcp.server.mcpserver import MCPServer

from lexicon_server.config import ServerConfig, load_config
from lexicon_server.corpus.reader import Corpus
from lexicon_server.slang.tools import ONLINE_TOOLS, TOOLS, register


def make_server(
    corpus: Corpus | None, glossary: Path | None, online: bool, config: ServerConfig
) -> MCPServer:
    server = MCPServer("slang-test")
    register(server, corpus=corpus, glossary_path=glossary, online=online, config=config)
    return server


def run(server: MCPServer, calls: list[tuple[str, dict[str, Any]]]) -> tuple[Any, list[Any]]:
    """List the tools and make the calls in one client session."""

    async def go() -> tuple[Any, list[Any]]:
        async with Client(server) as client:
            tools = (await client.list_tools()).tools
            return tools, [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(go)


GLOSSARY = [{"slang": "no cap", "plain": "honestly"}, {"slang": "fr", "plain": "for real"}]


def test_offline_group_lists_two_tools_with_schemas_and_annotations(corpus: Corpus) -> None:
    tools, _ = run(make_server(corpus, None, False, load_config({})), [])
    by_name = {t.name: t for t in tools}
    assert set(by_name) == set(TOOLS)
    for tool in tools:
        assert tool.annotations.read_only_hint is True
        assert tool.annotations.open_world_hint is False
        assert tool.output_schema is not None
    assert by_name["slang_rewrite"].input_schema["required"] == ["text", "glossary"]
    assert "replacements" in by_name["slang_rewrite"].output_schema["properties"]
    assert "has_errors" in by_name["slang_interpret"].output_schema["properties"]


def test_online_group_adds_three_open_world_tools(corpus: Corpus, fake_ud) -> None:  # type: ignore[no-untyped-def]
    tools, _ = run(make_server(corpus, None, True, fake_ud.config()), [])
    by_name = {t.name: t for t in tools}
    assert set(by_name) == set(TOOLS) | set(ONLINE_TOOLS)
    for name in ONLINE_TOOLS:
        assert by_name[name].annotations.open_world_hint is True
        assert "untrusted" in (by_name[name].description or "")
    assert by_name["slang_interpret"].annotations.open_world_hint is True
    assert by_name["slang_rewrite"].annotations.open_world_hint is False
    assert fake_ud.requests == []  # registering and listing ask nothing of the network


def test_rewrite_round_trip_over_mcp(corpus: Corpus) -> None:
    server = make_server(corpus, None, False, load_config({}))
    _, (plain, slang) = run(
        server,
        [
            ("slang_rewrite", {"text": "No cap, this works fr!", "glossary": GLOSSARY}),
            (
                "slang_rewrite",
                {
                    "text": "honestly, this works for real!",
                    "glossary": GLOSSARY,
                    "direction": "to_slang",
                },
            ),
        ],
    )
    assert not plain.is_error
    assert plain.structured_content["output"] == "honestly, this works for real!"
    assert plain.structured_content["replacements"][0] == {
        "start": 0,
        "end": 6,
        "code_point_start": 0,
        "code_point_end": 6,
        "text": "No cap",
        "replacement": "honestly",
    }
    # The JSON text content carries the same object.
    assert json.loads(plain.content[0].text) == plain.structured_content
    assert slang.structured_content["output"] == "no cap, this works fr!"


def test_rewrite_rejections_are_tool_errors_naming_the_parameter(corpus: Corpus) -> None:
    server = make_server(corpus, None, False, load_config({}))
    dup = [{"slang": "fr", "plain": "for real"}, {"slang": "Fr", "plain": "from"}]
    ambiguous = [{"slang": "fr", "plain": "for real"}, {"slang": "deadass", "plain": "for real"}]
    _, results = run(
        server,
        [
            ("slang_rewrite", {"text": "fr", "glossary": dup}),
            ("slang_rewrite", {"text": "for real", "glossary": ambiguous, "direction": "to_slang"}),
            ("slang_rewrite", {"text": "x" * 10_001, "glossary": GLOSSARY}),
            ("slang_rewrite", {"text": "fr", "glossary": GLOSSARY, "direction": "up"}),
        ],
    )
    assert all(r.is_error for r in results)
    texts = [r.content[0].text for r in results]
    assert "glossary[1].slang" in texts[0]
    assert "could not choose between 'fr' and 'deadass'" in texts[1]
    assert "limit is 10000" in texts[2]
    assert "direction" in texts[3]


def test_interpret_over_mcp(corpus: Corpus, project_glossary: Path) -> None:
    server = make_server(corpus, project_glossary, False, load_config({}))
    text = "👍 No cap, this works fr!"
    _, (result,) = run(
        server,
        [("slang_interpret", {"text": text, "terms": ["no cap", "fr", "FR", "yeet"], "limit": 2})],
    )
    out = result.structured_content
    assert out["has_errors"] is False
    assert out["sources"] == ["corpus", "glossary"]
    assert [(e["term"], e["status"]) for e in out["entries"]] == [
        ("no cap", "found"),
        ("fr", "found"),
        ("yeet", "not_in_text"),
    ]
    occ = out["entries"][0]["occurrences"][0]
    assert (occ["start"], occ["code_point_start"]) == (3, 2)
    assert out["entries"][0]["definitions"][0]["origin"] == "corpus"
    assert out["entries"][1]["definitions"][0]["origin"] == "glossary"


def test_interpret_with_online_reports_partial_failure(corpus: Corpus, fake_ud) -> None:  # type: ignore[no-untyped-def]
    server = make_server(corpus, None, True, fake_ud.config())
    _, (result,) = run(
        server, [("slang_interpret", {"text": "broken but no cap", "terms": ["broken", "no cap"]})]
    )
    assert not result.is_error
    out = result.structured_content
    assert out["has_errors"] is True
    broken, no_cap = out["entries"]
    assert broken["status"] == "error" and "HTTP 500" in broken["error"]
    assert no_cap["status"] == "found"
    assert {d["origin"] for d in no_cap["definitions"]} == {"corpus", "urban_dictionary"}


def test_online_tools_over_mcp(corpus: Corpus, fake_ud) -> None:  # type: ignore[no-untyped-def]
    server = make_server(corpus, None, True, fake_ud.config())
    _, (define, rnd, by_id, missing, failed) = run(
        server,
        [
            ("urban_dictionary_define", {"term": "yeet", "limit": 2, "sort_by": "thumbs_up"}),
            ("urban_dictionary_random", {"limit": 1}),
            ("urban_dictionary_defid", {"defid": 31}),
            ("urban_dictionary_defid", {"defid": 999}),
            ("urban_dictionary_define", {"term": "broken"}),
        ],
    )
    d = define.structured_content
    assert [x["defid"] for x in d["definitions"]] == [12, 11]
    assert all(x["trust"] == "crowdsourced_untrusted" for x in d["definitions"])
    assert "untrusted" in d["notice"]
    assert [x["headword"] for x in rnd.structured_content["definitions"]] == ["bussin"]
    assert by_id.structured_content["definitions"][0]["headword"] == "fr"
    assert missing.structured_content["definitions"] == []
    assert failed.is_error and "HTTP 500" in failed.content[0].text


def test_online_timeout_over_mcp(corpus: Corpus, fake_ud) -> None:  # type: ignore[no-untyped-def]
    server = make_server(corpus, None, True, fake_ud.config(timeout_ms=200))
    _, (result,) = run(server, [("urban_dictionary_define", {"term": "slow"})])
    fake_ud.release.set()
    assert result.is_error
    assert "within 200 ms" in result.content[0].text


@pytest.mark.parametrize("limit", [0, 11])
def test_out_of_range_limit_is_refused_by_the_schema(corpus: Corpus, limit: int) -> None:
    server = make_server(corpus, None, False, load_config({}))
    _, (result,) = run(
        server, [("slang_interpret", {"text": "fr", "terms": ["fr"], "limit": limit})]
    )
    assert result.is_error
    assert "limit" in result.content[0].text


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        (
            "slang_interpret",
            {"text": "fr", "terms": ["fr"], "limit": True},
            "invalid limit=True: limit must be an integer from 1 to 10",
        ),
        (
            "slang_interpret",
            {"text": "fr"},
            "missing terms: terms is required and must be an array of strings",
        ),
        (
            "slang_rewrite",
            {"text": "fr", "glossary": [{"slang": 1, "plain": "for real"}]},
            "invalid glossary[0].slang=1: glossary[0].slang must be a valid string",
        ),
        (
            "slang_rewrite",
            {"text": "fr", "glossary": [{"slang": "fr", "plain": "for real", "note": 1}]},
            "invalid glossary[0].note=1: glossary[0].note must be valid (extra inputs are "
            "not permitted)",
        ),
        (
            "slang_rewrite",
            {"text": "fr", "glossary": GLOSSARY, "dir": "to_slang"},
            "unknown argument dir='to_slang': the parameters are text, glossary, direction "
            "(did you mean direction?)",
        ),
    ],
)
def test_argument_refusals_are_in_the_house_form(
    corpus: Corpus, name: str, args: dict[str, Any], expected: str
) -> None:
    server = make_server(corpus, None, False, load_config({}))
    _, (result,) = run(server, [(name, args)])
    error = error_of(result)
    assert error["reason"] == "invalid_argument" and error["message"] == expected
