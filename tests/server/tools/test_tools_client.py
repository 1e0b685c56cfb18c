"""Every dictionary tool through the SDK's own in-memory client, on the sample corpus the
real builder makes from the fixture slices (installed by the store); the reasons on a
partial install of the same release."""

from __future__ import annotations

import json
import shlex
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from _support.answers import error_of
from _support.mcp_client import with_server_client
from _support.provenance import assert_sources_complete
from _support.tool_listing import assert_offline_tool_listed
from mcp import Client
from mcp_types import CallToolResult

from lexicon_server.config import load_config
from lexicon_server.corpus.reader import Corpus
from lexicon_server.server import build_server
from lexicon_server.text_answers import rendered

T = TypeVar("T")
DICTIONARY = {
    "dictionary_lookup",
    "dictionary_synonyms",
    "dictionary_translate",
    "dictionary_relations",
    "dictionary_semantic_neighbors",
}


def with_client(corpus: Corpus, body: Callable[[Client], Awaitable[T]]) -> T:
    return with_server_client(build_server(corpus, load_config({})), body)


def call(corpus: Corpus, name: str, args: dict[str, Any]) -> CallToolResult:
    return with_client(corpus, lambda c: c.call_tool(name, args))


def test_tools_are_listed_with_schemas_and_annotations(sample_corpus: Corpus) -> None:
    tools = with_client(sample_corpus, lambda c: c.list_tools()).tools
    names = {t.name for t in tools}
    assert names >= DICTIONARY
    # exactly the seven dictionary tools without opt-in switches
    assert names == DICTIONARY | {"rhymes", "wordplay"}
    for tool in tools:
        if tool.name not in DICTIONARY:
            continue
        props = assert_offline_tool_listed(tool)
        if "limit" in props:
            assert (props["limit"]["minimum"], props["limit"]["maximum"]) == (1, 100)


@pytest.mark.parametrize(
    ("name", "args", "check"),
    [
        (
            "dictionary_lookup",
            {"word": "dogs"},
            lambda d: (
                d["resolutions"][0]["lemma"] == "dog"
                and any("Canis" in s["gloss"] for s in d["senses"])
            ),
        ),
        (
            "dictionary_synonyms",
            {"word": "dog"},
            lambda d: (
                "domestic dog" in {c for g in d["groups"] for c in g["candidates"]}
                and "count" not in d
            ),
        ),
        (
            "dictionary_translate",
            {"word": "house", "target_language": "fr"},
            lambda d: "maison" in {c["text"] for g in d["groups"] for c in g["candidates"]},
        ),
        (
            "dictionary_relations",
            {"word": "dog", "relation": "hypernym", "max_depth": 2},
            lambda d: (
                {r.get("relation_scope", "direct") for r in d["results"]}
                == {"direct", "transitive"}
            ),
        ),
        (
            "dictionary_semantic_neighbors",
            {"word": "king"},
            lambda d: "queen" in {n["text"] for n in d["neighbors"]} and d["scope"] == "global",
        ),
        # Meaning with spelling (issue 30): every candidate spelled like the pattern.
        (
            "dictionary_synonyms",
            {"word": "happy", "pattern": "j*"},
            lambda d: (
                {"jolly", "jubilant"} <= {c for g in d["groups"] for c in g["candidates"]}
                and all(c[0] == "j" for g in d["groups"] for c in g["candidates"])
            ),
        ),
        (
            "dictionary_semantic_neighbors",
            {"word": "king", "pattern": "?ueen"},
            lambda d: [n["text"] for n in d["neighbors"]] == ["queen"],
        ),
    ],
)
def test_each_tool_answers_with_structured_content(
    sample_corpus: Corpus,
    name: str,
    args: dict[str, Any],
    check: Callable[[dict[str, Any]], bool],
) -> None:
    result = call(sample_corpus, name, args)
    assert not result.is_error, result.content
    data = result.structured_content
    assert data is not None and check(data)
    assert data["dataset_version"] == sample_corpus.dataset_version
    # facts name their source by key; the result describes each key once
    assert data["sources"], "every one of these answers has facts, so sources"
    assert_sources_complete(data)
    # the text content is the compact rendering of the same answer, for a model to read
    assert result.content[0].text == rendered(name, data)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("name", "args", "reason"),
    [
        ("dictionary_lookup", {"word": "Haus", "language": "de"}, "language_not_installed"),
        ("dictionary_lookup", {"word": "x", "language": "xx"}, "unknown_language"),
        ("dictionary_semantic_neighbors", {"word": "king"}, "capability_not_installed"),
        (
            "dictionary_semantic_neighbors",
            {"word": "casa", "language": "it"},
            "not_available_upstream",
        ),
    ],
)
def test_four_reasons_are_structured_errors(
    partial_corpus: Corpus, name: str, args: dict[str, Any], reason: str
) -> None:
    error = error_of(call(partial_corpus, name, args))
    assert error["reason"] == reason
    assert error["message"].startswith(reason) and "no such word" not in error["message"]
    if reason in ("language_not_installed", "capability_not_installed"):
        # The store reads another data dir than its default only when told: the fix says
        # which, and which release to add from.
        data_dir = shlex.quote(str(partial_corpus.selection.data_dir))
        assert error["fix"].startswith(f"lexicon-data --data-dir {data_dir} add-language ")
        assert " --from " in error["fix"] and error["fix"] in error["message"]


def test_translation_into_a_language_not_installed_still_answers(partial_corpus: Corpus) -> None:
    result = call(
        partial_corpus, "dictionary_translate", {"word": "house", "target_language": "fr"}
    )
    data = result.structured_content or {}
    assert data["target_language_status"] == "language_not_installed"
    candidates = [c for g in data["groups"] for c in g["candidates"]]
    assert "maison" in {c["text"] for c in candidates}
    assert not any(c["target_entry_installed"] for c in candidates)
    assert_sources_complete(data)


@pytest.mark.parametrize(
    ("name", "args", "parameter"),
    [
        ("dictionary_lookup", {"word": ""}, "word"),
        ("dictionary_lookup", {"word": "x" * 101}, "word"),
        ("dictionary_lookup", {"word": "dog", "limit": 0}, "limit"),
        ("dictionary_lookup", {"word": "dog", "limit": 101}, "limit"),
        ("dictionary_lookup", {"word": "dog", "language": "en_GB!"}, "language"),
        ("dictionary_relations", {"word": "dog", "relation": "bogus"}, "relation"),
        ("dictionary_synonyms", {"word": "dog", "limit": 3, "unsensed_limit": 4}, "unsensed_limit"),
        ("dictionary_synonyms", {"word": "dog", "unsensed_limit": -1}, "unsensed_limit"),
        (
            "dictionary_relations",
            {"word": "dog", "relation": "hypernym", "max_depth": 2, "transitive_limit": -1},
            "transitive_limit",
        ),
        ("dictionary_translate", {"word": "dog", "target_language": "??"}, "target_language"),
        ("dictionary_semantic_neighbors", {"word": "king", "limit": 101}, "limit"),
        ("dictionary_synonyms", {"word": "happy", "pattern": "j.*"}, "pattern"),
        ("dictionary_synonyms", {"word": "happy", "pattern": "  "}, "pattern"),
        ("dictionary_semantic_neighbors", {"word": "king", "pattern": "x" * 101}, "pattern"),
    ],
)
def test_bad_input_is_a_clear_tool_error(
    sample_corpus: Corpus, name: str, args: dict[str, Any], parameter: str
) -> None:
    result = call(sample_corpus, name, args)
    error = error_of(result)
    assert error["reason"] == "invalid_argument"
    assert parameter in error["message"]
    assert len(result.content[0].text) < 2000  # type: ignore[union-attr]


LOOKUP_PARAMETERS = (
    "word, language, limit, examples_limit, pronunciations_limit, translations_limit, source_ids"
)


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        (
            "dictionary_lookup",
            {"word": "dog", "limit": 0},
            "invalid limit=0: limit must be an integer from 1 to 100",
        ),
        (
            "dictionary_lookup",
            {"word": "dog", "limit": 101},
            "invalid limit=101: limit must be an integer from 1 to 100",
        ),
        # JSON types are respected: a boolean or a string is not an integer.
        (
            "dictionary_lookup",
            {"word": "dog", "limit": True},
            "invalid limit=True: limit must be an integer from 1 to 100",
        ),
        (
            "dictionary_lookup",
            {"word": "dog", "limit": "5"},
            "invalid limit='5': limit must be an integer from 1 to 100",
        ),
        (
            "dictionary_lookup",
            {"word": "dog", "limit": 5.5},
            "invalid limit=5.5: limit must be an integer from 1 to 100",
        ),
        (
            "dictionary_synonyms",
            {"word": "dog", "unsensed_limit": True},
            "invalid unsensed_limit=True: unsensed_limit must be an integer, or null",
        ),
        (
            "dictionary_lookup",
            {"word": "x", "limt": 3},
            f"unknown argument limt=3: the parameters are {LOOKUP_PARAMETERS} "
            "(did you mean limit?)",
        ),
        # translate's `source_language` became `language` (issue 28): the refusal says so
        # (a spelling match would offer `target_language`, the other language).
        (
            "dictionary_translate",
            {"word": "dog", "target_language": "fr", "source_language": "en"},
            "unknown argument source_language='en': the parameters are word, "
            "target_language, language, limit, max_senses, sense_id (renamed language)",
        ),
        ("dictionary_lookup", {"word": 5}, "invalid word=5: word must be a string of 1 to 100"),
        (
            "dictionary_translate",
            {"word": "dog"},
            "missing target_language: target_language is required and must be a string",
        ),
        (
            "dictionary_lookup",
            {"word": "x" * 101},
            "invalid word='xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...: "
            "word must be a string of 1 to 100 characters",
        ),
        ("dictionary_lookup", {"word": ""}, "invalid word='': word must be a string of 1 to 100"),
        # Only whitespace passes the schema; the query layer refuses it in the same form.
        ("dictionary_lookup", {"word": "   "}, "invalid word='   ': word must be 1 to 100"),
        (
            "wordplay",
            {"text": "pun", "kind": "pun", "context": "x" * 513},
            "context must be a string of 1 to 512 characters, or null",
        ),
        (
            "wordplay",
            {"text": "dog", "kind": "pan"},
            "invalid kind='pan': kind must be one of 'anagram', 'palindrome', 'spoonerism', "
            "'pun', 'pattern', 'sounds_like'",
        ),
        (
            "wordplay",
            {"text": "c.t", "kind": "pattern"},
            "invalid text='c.t': text must be a spelling pattern for kind='pattern'",
        ),
        ("rhymes", {"word": "cat", "syllables": 0}, "syllables must be an integer from 1 to"),
    ],
)
def test_schema_refusals_are_in_the_house_form(
    sample_corpus: Corpus, name: str, args: dict[str, Any], expected: str
) -> None:
    error = error_of(call(sample_corpus, name, args))
    assert error["reason"] == "invalid_argument"
    text = error["message"]
    assert expected in text
    assert "errors.pydantic.dev" not in text and "Arguments" not in text
    assert "validation error" not in text and "[type=" not in text


def test_every_bad_argument_gets_its_own_line(sample_corpus: Corpus) -> None:
    args = {"word": "dog", "language": None, "limit": "[5]", "zzz": 1}
    text = error_of(call(sample_corpus, "dictionary_lookup", args))["message"]
    assert text.splitlines() == [
        "invalid language=None: language must be a string",
        "invalid limit=[5]: limit must be an integer from 1 to 100",
        f"unknown argument zzz=1: the parameters are {LOOKUP_PARAMETERS}",
    ]


def test_a_whole_number_written_as_a_float_is_an_integer(sample_corpus: Corpus) -> None:
    # JSON Schema counts 5.0 as an integer, so the server does too.
    as_float = call(sample_corpus, "dictionary_lookup", {"word": "bank", "limit": 2.0})
    as_int = call(sample_corpus, "dictionary_lookup", {"word": "bank", "limit": 2})
    assert not as_float.is_error
    assert as_float.structured_content == as_int.structured_content


def test_input_schemas_bound_text_and_refuse_unknown_arguments(sample_corpus: Corpus) -> None:
    tools = {t.name: t for t in with_client(sample_corpus, lambda c: c.list_tools()).tools}
    for tool in tools.values():
        assert tool.input_schema["additionalProperties"] is False, tool.name
    for name, parameter in [(n, "word") for n in DICTIONARY | {"rhymes"}] + [("wordplay", "text")]:
        prop = tools[name].input_schema["properties"][parameter]
        # The bounds are the schema's (a client checks them); since issue 28 the
        # description no longer repeats them, to keep the tool list short, and `word`
        # has none (its name says it); wordplay's `text` says what it may be.
        assert (prop["minLength"], prop["maxLength"]) == (1, 100), name
        assert ("description" in prop) == (parameter == "text"), name
    # An optional text is published without its null branch (leave it out for none).
    context = tools["wordplay"].input_schema["properties"]["context"]
    assert (context["type"], context["minLength"], context["maxLength"]) == ("string", 1, 512)


def test_resources(corpus: Corpus) -> None:
    async def body(client: Client) -> dict[str, str]:
        listed = await client.list_resources()
        out = {}
        for resource in listed.resources:
            read = await client.read_resource(str(resource.uri))
            out[str(resource.uri)] = read.contents[0].text  # type: ignore[union-attr]
        return out

    texts = with_client(corpus, body)
    assert set(texts) == {"lexicon://licenses", "lexicon://manifest", "lexicon://languages"}
    assert "WordNet" in texts["lexicon://licenses"]
    manifest = json.loads(texts["lexicon://manifest"])
    assert manifest["dataset_version"] == corpus.dataset_version
    assert manifest["installed"]["en"] == ["lexical", "semantic"]
    languages = {
        row["language"]: row for row in json.loads(texts["lexicon://languages"])["languages"]
    }
    assert languages["de"]["status"]["lexical"] == "language_not_installed"
    assert languages["fr"]["status"]["semantic"] == "capability_not_installed"
