"""Lean answers with what they leave out put back (docs/tools.md, "Lean answers").

A dictionary tool's answer leaves out optional fields at their default (the result
model's, which docs/tools.md lists; the published schema carries no defaults), fields that
would repeat what the object holding them says, and the title and version of each source
it names (the `lexicon://manifest` resource gives them). `expanded` restores all three,
for a client that would rather read every field on every item, and for the test that
checks no fact was lost.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["expanded"]

# Which result model each dictionary tool's structured content follows.
_RESULT_MODELS = {
    "dictionary_lookup": ("lexicon_server.models", "LookupResult"),
    "dictionary_synonyms": ("lexicon_server.models", "SynonymsResult"),
    "dictionary_translate": ("lexicon_server.models", "TranslateResult"),
    "dictionary_relations": ("lexicon_server.models", "RelationsResult"),
    "dictionary_semantic_neighbors": ("lexicon_server.models", "SemanticResult"),
    "rhymes": ("lexicon_server.query.wordplay_models", "RhymesResult"),
    "wordplay": ("lexicon_server.query.wordplay_models", "WordplayResult"),
}


def expanded(
    tool: str,
    answer: Mapping[str, Any],
    manifest_sources: Mapping[str, Mapping[str, str]] | None = None,
) -> dict[str, Any]:
    """A dictionary tool's lean structured content with every field it left out put back.

    Answers leave out what the result model gives a default for, and what they say once on
    the object that holds it (docs/tools.md, "Lean answers"); this restores both,
    for a client that would rather read every field on every item. With
    `manifest_sources` (the `sources` of the `lexicon://manifest` resource), the
    `sources` map gives each key's title, version and licence, as answers used to.
    """
    import copy
    import importlib

    from pydantic import TypeAdapter

    module, name = _RESULT_MODELS[tool]
    schema = TypeAdapter(getattr(importlib.import_module(module), name)).json_schema()
    full: dict[str, Any] = copy.deepcopy(dict(answer))
    _inherit(tool, full)
    _fill_defaults(full, schema, schema.get("$defs", {}))
    if manifest_sources is not None and "sources" in full:
        full["sources"] = {
            key: {**manifest_sources.get(key, {}), "licence": licence}
            for key, licence in full["sources"].items()
        }
    return full


# The tools whose answers say how the word was matched (`resolutions`).
_RESOLVING = frozenset(
    {"dictionary_lookup", "dictionary_synonyms", "dictionary_translate", "dictionary_relations"}
)


def _resolved(tool: str, data: dict[str, Any]) -> None:
    """Put back the resolutions of a word found as written, and each one's `form` (the
    word asked)."""
    if tool not in _RESOLVING:
        return
    word = data["word"]
    if "resolutions" not in data:
        data["resolutions"] = [{"lemma": word, "via": "exact"}]
    for resolution in data["resolutions"]:
        resolution.setdefault("form", word)


def _inherit(tool: str, data: dict[str, Any]) -> None:
    """Put back the fields an item leaves out because its holder says the same."""
    _resolved(tool, data)
    if tool == "dictionary_lookup":
        sense_source = data.pop("sense_source", None)
        for sense in data.get("senses", ()):
            sense.setdefault("word", data["word"])
            sense.setdefault("source", sense_source)
            for example in sense.get("examples", ()):
                example.setdefault("source", sense["source"])
    elif tool == "dictionary_synonyms":
        for group in data.get("groups", ()):
            source = group.pop("source", None) or (group.get("sense") or {}).get("source")
            scope = group.pop("candidate_scope", None) or group["sense_scope"]
            unsensed = group["sense_scope"] == "unsensed"
            relation = group.pop("relation", None) or ("synonym" if unsensed else "synset_member")
            if unsensed:
                group["source"] = source  # the unsensed group always names its source
            details = group.pop("details", {})
            group["candidates"] = [{"text": c, **details.get(c, {})} for c in group["candidates"]]
            for candidate in group["candidates"]:
                candidate.setdefault("source", source)
                candidate.setdefault("sense_scope", scope)
                candidate.setdefault("relation", relation)
                # The schema's candidates are bare words: their defaults are put back here.
                candidate.setdefault("target_entry_installed", True)
    elif tool == "dictionary_translate":
        for group in data.get("groups", ()):
            for candidate in group["candidates"]:
                candidate.setdefault("target_language", data["target_language"])
    elif tool == "dictionary_relations":
        sense_source = data.pop("sense_source", None)
        for handle, ref in data.get("senses", {}).items():
            ref.setdefault("id", handle)
            ref.setdefault("source", sense_source)
        for result in data.get("results", ()):
            result.setdefault("relation", data["relation"])
            if result.get("from_sense") is not None:
                result.setdefault("source", data["senses"][result["from_sense"]]["source"])
            result.setdefault("text", ", ".join(result["words"]))
            result.setdefault("language", data["language"])
    elif tool == "dictionary_semantic_neighbors":
        for neighbor in data.get("neighbors", ()):
            neighbor.setdefault("language", data["language"])
    elif tool == "wordplay":
        # Said once on the result: the scope of every candidate's facts (synset for puns);
        # a pun's senses come from the source of its spelling.
        scope = data.get("sense_scope", "unsensed")
        for result in data.get("results", ()):
            result.setdefault("sense_scope", scope)
            if data["kind"] == "pun":
                result.setdefault("senses_source", result.get("spelling_source"))
    elif tool == "rhymes":
        # How the results are ranked follows from the mode (docs/tools.md).
        near = data.get("mode") == "near"
        data.setdefault("ranking", "sound_then_zipf" if near else "zipf_frequency")
        rhymes = {p["rhyme"] for p in data.get("query_pronunciations", ())}
        shared = data.pop("pronunciation_source", None)
        for result in data.get("results", ()):
            result.setdefault("pronunciation_source", shared)
            if len(rhymes) == 1:
                result.setdefault("query_rhyme", next(iter(rhymes)))
            result.setdefault("rhyme", result.get("query_rhyme"))
            result.setdefault("spelling_source", result["pronunciation_source"])


def _fill_defaults(node: Any, schema: Mapping[str, Any], defs: Mapping[str, Any]) -> None:
    """Set every property `schema` gives a default for and `node` lacks, all the way down."""
    if "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    if isinstance(node, dict):
        for branch in schema.get("anyOf", ()):
            if "$ref" in branch or branch.get("type") == "object":
                _fill_defaults(node, branch, defs)
        properties = schema.get("properties", {})
        for key, prop in properties.items():
            if key not in node and "default" in prop:
                node[key] = json.loads(json.dumps(prop["default"]))
            if key in node:
                _fill_defaults(node[key], prop, defs)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            for key, value in node.items():
                if key not in properties:
                    _fill_defaults(value, extra, defs)
    elif isinstance(node, list):
        for branch in [schema, *schema.get("anyOf", ())]:
            if "items" in branch:
                for item in node:
                    _fill_defaults(item, branch["items"], defs)
