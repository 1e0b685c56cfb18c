"""The outputSchema each tool publishes: the result model's own schema, compacted, each
shape it uses twice written once (`shared_shapes`), still strict enough to reject a
malformed result, and met by what the tools really send (checked here with the same
jsonschema validator a client uses)."""

from __future__ import annotations

import copy
import json
from contextlib import closing
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from _support.mcp_client import with_server_client
from pydantic import BaseModel, TypeAdapter, ValidationError

from lexicon_server.config import load_config
from lexicon_server.corpus.reader import Corpus
from lexicon_server.models import (
    LookupResult,
    RelationsResult,
    SemanticResult,
    SynonymsResult,
    TranslateResult,
)
from lexicon_server.query.wordplay_models import RhymesResult, WordplayResult
from lexicon_server.server import build_server
from lexicon_server.tools._shared import shared_shapes

MODELS: dict[str, type[BaseModel]] = {
    "dictionary_lookup": LookupResult,
    "dictionary_synonyms": SynonymsResult,
    "dictionary_translate": TranslateResult,
    "dictionary_relations": RelationsResult,
    "dictionary_semantic_neighbors": SemanticResult,
    "rhymes": RhymesResult,
    "wordplay": WordplayResult,
}
CALLS: dict[str, dict[str, Any]] = {
    "dictionary_lookup": {"word": "bank"},
    "dictionary_synonyms": {"word": "dog"},
    "dictionary_translate": {"word": "house", "target_language": "fr"},
    "dictionary_relations": {"word": "dog", "relation": "hypernym", "max_depth": 2},
    "dictionary_semantic_neighbors": {"word": "king"},
    "rhymes": {"word": "cat"},
    "wordplay": {"text": "listen", "kind": "anagram"},
}


def _listed_and_answers(corpus: Corpus) -> tuple[dict[str, Any], dict[str, Any]]:
    async def body(client: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        listed = {t.name: t.output_schema for t in (await client.list_tools()).tools}
        answers = {}
        for name, args in CALLS.items():
            result = await client.call_tool(name, args)
            assert not result.is_error, (name, result.content)
            answers[name] = result.structured_content
        return listed, answers

    return with_server_client(build_server(corpus, load_config({})), body)


@pytest.fixture(scope="module")
def listed_and_answers(sample_data_dir: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """Asked once for the module (a server and a client): the tests copy before changing."""
    from lexicon_store.selection import load_active

    with closing(Corpus(load_active(sample_data_dir))) as corpus:
        return _listed_and_answers(corpus)


def test_each_tool_publishes_its_models_schema_with_shared_shapes_once(
    listed_and_answers: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    listed, _answers = listed_and_answers
    for name, model in MODELS.items():
        schema = listed[name]
        assert schema == shared_shapes(TypeAdapter(model).json_schema()), name
        jsonschema.Draft202012Validator.check_schema(schema)
        # A shape in $defs is one the schema uses at least twice.
        text = json.dumps(schema)
        for shape in schema.get("$defs", {}):
            assert text.count(f'"#/$defs/{shape}"') >= 2, (name, shape)
    # The look-up's pronunciation (a sense's and the written form's) is described once.
    assert "Pronunciation" in listed["dictionary_lookup"]["$defs"]


def test_real_answers_meet_both_the_schema_and_the_model(
    listed_and_answers: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    listed, answers = listed_and_answers
    for name, model in MODELS.items():
        jsonschema.validate(answers[name], listed[name])
        # The server checks only the outer shape; the model check is done here.
        assert model.model_validate(answers[name]).model_dump(mode="json") == answers[name]


@pytest.mark.parametrize(
    "break_it",
    [
        pytest.param(
            lambda d: d["senses"][0]["pronunciations"][0].pop("source"),
            id="fact without a source",
        ),
        pytest.param(lambda d: d.update(total_senses="three"), id="wrong type"),
        pytest.param(
            lambda d: d["senses"][0]["pronunciations"].append({"notation": "morse"}),
            id="nested item with a bad enum and missing fields",
        ),
        pytest.param(lambda d: d.pop("sources"), id="no sources map"),
    ],
)
def test_the_published_schema_still_rejects_a_malformed_lookup(
    listed_and_answers: tuple[dict[str, Any], dict[str, Any]], break_it: Any
) -> None:
    listed, answers = listed_and_answers
    broken = copy.deepcopy(answers["dictionary_lookup"])
    assert broken["senses"], "the sample corpus has senses of 'bank'"
    break_it(broken)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, listed["dictionary_lookup"])


def test_a_nullable_field_is_one_type_list_that_still_refuses_other_types(
    listed_and_answers: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    """`str | None` (a relation result's `from_sense`) is published as one `type` list,
    not an `anyOf` of two subschemas: null and a string pass, a number does not."""
    listed, answers = listed_and_answers
    schema = listed["dictionary_relations"]
    assert '"anyOf"' not in json.dumps(schema)
    item = schema["properties"]["results"]["items"]
    assert item["properties"]["from_sense"] == {"type": ["string", "null"]}
    answer = copy.deepcopy(answers["dictionary_relations"])
    for value, passes in (("wn:dog.n.01", True), (None, True), (7, False)):
        answer["results"][0]["from_sense"] = value
        valid = jsonschema.Draft202012Validator(schema).is_valid(answer)
        assert valid is passes, value


def test_a_field_a_later_release_adds_passes_the_schema_not_the_model(
    listed_and_answers: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    """The published schema leaves `additionalProperties` open, so a client keeps reading
    answers that gain a field; the server's own model still refuses one it does not know."""
    listed, answers = listed_and_answers
    grown = copy.deepcopy(answers["dictionary_lookup"])
    grown["senses"][0]["colour"] = "red"
    jsonschema.validate(grown, listed["dictionary_lookup"])
    with pytest.raises(ValidationError):
        LookupResult.model_validate(grown)


def test_tools_list_stays_within_21_kb_with_typed_output_schemas(sample_corpus: Corpus) -> None:
    """What every client reads once per connection: at most 21,000 bytes for the seven
    tools (20,763 on the sample release in issue 28's third round; the starter's longer
    list of installed languages adds about 100). bench/tool_list_bytes.py says where
    the bytes go."""

    async def body(client: Any) -> Any:
        return await client.list_tools()

    listed = with_server_client(build_server(sample_corpus, load_config({})), body)
    tools = [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in listed.tools]
    size = len(json.dumps({"tools": tools}, separators=(",", ":"), ensure_ascii=False).encode())
    assert size <= 21_000, size
    for tool in tools:
        schema = tool["outputSchema"]
        assert schema["type"] == "object" and schema["required"] and schema["properties"]


def test_the_tool_list_names_the_installed_languages(sample_corpus: Corpus) -> None:
    """An agent learns from the list which languages it may ask for (the active selection)."""

    async def body(client: Any) -> Any:
        return await client.list_tools()

    listed = with_server_client(build_server(sample_corpus, load_config({})), body)
    lookup = next(t for t in listed.tools if t.name == "dictionary_lookup")
    installed = sorted(
        tag for tag, caps in sample_corpus.selection.installed.items() if "lexical" in caps
    )
    named = lookup.description.rsplit("Installed languages: ", 1)[1]
    assert [part.split(" ")[0] for part in named.rstrip(".").split(", ")] == installed
    assert "{languages}" not in " ".join(t.description or "" for t in listed.tools)
