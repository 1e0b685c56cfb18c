"""The text content of a dictionary tool's success is a compact rendering that keeps the
answer's words: every gloss, example, pronunciation and sense id of a look-up, every
candidate of synonyms and translate, every target of relations (docs/tools.md, "Answers")."""

from __future__ import annotations

import json
from typing import Any

from _support.mcp_client import with_server_client

from lexicon_server.config import load_config
from lexicon_server.corpus.reader import Corpus
from lexicon_server.server import build_server


def _answers(corpus: Corpus, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async def body(client: Any) -> list[Any]:
        return [await client.call_tool(name, args) for name, args in calls]

    return with_server_client(build_server(corpus, load_config({})), body)


def _text(result: Any) -> str:
    assert not result.is_error, result.content
    (block,) = result.content
    return str(block.text)


def test_a_look_up_reads_as_lines_with_every_fact_a_model_needs(sample_corpus: Corpus) -> None:
    (result,) = _answers(
        sample_corpus,
        [("dictionary_lookup", {"word": "house", "translations_limit": 5, "source_ids": True})],
    )
    data, text = result.structured_content, _text(result)
    assert not text.lstrip().startswith("{"), "a rendering, not the JSON again"
    assert len(text) < len(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    for sense in data["senses"]:
        assert sense["gloss"] in text and sense["id"] in text
        assert sense.get("external_id", "") in text
        for example in sense.get("examples", ()):
            assert example["text"] in text
        for pron in sense.get("pronunciations", ()):
            assert pron["value"] in text
        for group in sense.get("translations", ()):
            assert all(item["text"] in text for item in group["items"])
    assert all(key in text for key in data["sources"])


def test_list_answers_keep_every_candidate(sample_corpus: Corpus) -> None:
    synonyms, translate, relations = _answers(
        sample_corpus,
        [
            ("dictionary_synonyms", {"word": "dog"}),
            ("dictionary_translate", {"word": "house", "target_language": "fr"}),
            ("dictionary_relations", {"word": "dog", "relation": "hypernym", "max_depth": 2}),
        ],
    )
    for result in (synonyms, translate):
        text = _text(result)
        for group in result.structured_content["groups"]:
            # A synonym is a bare word; a translation an object.
            words = [c if isinstance(c, str) else c["text"] for c in group["candidates"]]
            assert words and all(word in text for word in words)
            if "sense" in group:
                assert group["sense"]["gloss"] in text
    text = _text(relations)
    for found in relations.structured_content["results"]:
        assert ", ".join(found["words"]) in text


def test_a_miss_names_the_suggestions(sample_corpus: Corpus) -> None:
    (result,) = _answers(sample_corpus, [("dictionary_lookup", {"word": "dgo"})])
    text = _text(result)
    suggested = [s["text"] for s in result.structured_content["suggestions"]]
    assert suggested and text.startswith("'dgo' is not in the en dictionary")
    assert all(word in text for word in suggested)
