"""Every MCP tool the server offers, one row each: name, description, arguments model,
query function, result model and annotations.

A row is data; `lexicon_server.sdk.add_tools` turns rows into SDK tools. The query
function is called as `query(source, **arguments)`, where `source` is what the row
`reads` (the corpus, the vector store, the glossary, the slang sources or the Urban
Dictionary client) and `arguments` are the checked values of the arguments model's
fields. The dictionary rows answer through `tools._shared.respond` (`answer="dictionary"`:
the query returns the result model); the glossary and slang rows' functions
build their answer themselves (`answer="own"`). The opt-in groups' rows are built by
functions, so that the default server neither imports nor lists them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from mcp_types import ToolAnnotations
from pydantic import BaseModel

from lexicon_server.models import (
    LookupResult,
    RelationsResult,
    SemanticResult,
    SynonymsResult,
    TranslateResult,
)
from lexicon_server.query.lookup import lookup as lookup_query
from lexicon_server.query.relations import relations as relations_query
from lexicon_server.query.rhymes import rhymes as rhymes_query
from lexicon_server.query.semantic import semantic_neighbors
from lexicon_server.query.synonyms import synonyms as synonyms_query
from lexicon_server.query.translate import translate
from lexicon_server.query.wordplay import wordplay as wordplay_query
from lexicon_server.query.wordplay_models import RhymesResult, WordplayResult
from lexicon_server.tools import lookup, relations, rhymes, semantic, synonyms, wordplay
from lexicon_server.tools import translate as translate_tool
from lexicon_server.tools._shared import tool_annotations

if TYPE_CHECKING:
    from lexicon_server.slang.sources import MeaningSources

__all__ = [
    "DICTIONARY",
    "DICTIONARY_TOOLS",
    "ToolSpec",
    "glossary_tools",
    "slang_tools",
    "urban_dictionary_tools",
]


@dataclass(frozen=True)
class ToolSpec:
    """One MCP tool, as the server publishes and answers it."""

    name: str
    description: str
    arguments: type[BaseModel]
    query: Callable[..., Any]
    result: type[BaseModel]
    annotations: ToolAnnotations
    title: str | None = None
    reads: str = "corpus"
    answer: Literal["dictionary", "own"] = "dictionary"
    # The arguments naming the word and its language (None: English), for suggestions
    # when the tool does not find the word (query/suggest.py `with_suggestions`).
    asks: tuple[str, str | None] | None = None


DICTIONARY: tuple[ToolSpec, ...] = (
    ToolSpec(
        "dictionary_lookup",
        lookup.DESCRIPTION,
        lookup.LookupArguments,
        lookup_query,
        LookupResult,
        tool_annotations("Dictionary look-up"),
        asks=("word", "language"),
    ),
    ToolSpec(
        "dictionary_synonyms",
        synonyms.DESCRIPTION,
        synonyms.SynonymsArguments,
        synonyms_query,
        SynonymsResult,
        tool_annotations("Synonyms"),
        asks=("word", "language"),
    ),
    ToolSpec(
        "dictionary_translate",
        translate_tool.DESCRIPTION,
        translate_tool.TranslateArguments,
        translate,
        TranslateResult,
        tool_annotations("Translate"),
        asks=("word", "language"),
    ),
    ToolSpec(
        "dictionary_relations",
        relations.DESCRIPTION,
        relations.RelationsArguments,
        relations_query,
        RelationsResult,
        tool_annotations("Lexical relations"),
        asks=("word", "language"),
    ),
    ToolSpec(
        "dictionary_semantic_neighbors",
        semantic.DESCRIPTION,
        semantic.SemanticArguments,
        semantic_neighbors,
        SemanticResult,
        tool_annotations("Semantic neighbours"),
        reads="vectors",
        asks=("word", "language"),
    ),
    ToolSpec(
        "rhymes",
        rhymes.DESCRIPTION,
        rhymes.RhymesArguments,
        rhymes_query,
        RhymesResult,
        tool_annotations("Rhymes"),
        asks=("word", None),
    ),
    ToolSpec(
        "wordplay",
        wordplay.DESCRIPTION,
        wordplay.WordplayArguments,
        wordplay_query,
        WordplayResult,
        tool_annotations("Wordplay"),
    ),
)
DICTIONARY_TOOLS = tuple(spec.name for spec in DICTIONARY)


def glossary_tools() -> tuple[ToolSpec, ...]:
    """The five glossary tools (`--glossary PATH`), reading `GlossaryTools`."""
    from lexicon_server.glossary import schemas as s
    from lexicon_server.glossary import tool_calls as g
    from lexicon_server.glossary.tool_calls import ADD_DOC, DELETE_DOC, EDIT_DOC, FIND_DOC, MAP_DOC

    reading = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
    # Repeating a write with the same arguments changes nothing more: idempotent.
    adding, replacing = (
        ToolAnnotations(
            read_only_hint=False,
            destructive_hint=destructive,
            idempotent_hint=True,
            open_world_hint=False,
        )
        for destructive in (False, True)
    )
    title = "Map glossary terms to the terms that mention them"
    own: dict[str, Any] = {"reads": "glossary", "answer": "own"}
    return (
        ToolSpec(
            "glossary_find",
            FIND_DOC,
            g.FindArguments,
            g.find,
            s.FindOutput,
            reading,
            "Find project glossary terms",
            **own,
        ),
        ToolSpec(
            "glossary_map", MAP_DOC, g.MapArguments, g.map_terms, s.MapOutput, reading, title, **own
        ),
        ToolSpec(
            "glossary_add",
            ADD_DOC,
            g.TermArguments,
            g.add,
            s.AddOutput,
            adding,
            "Add a glossary term",
            **own,
        ),
        ToolSpec(
            "glossary_edit",
            EDIT_DOC,
            g.TermArguments,
            g.edit,
            s.EditOutput,
            replacing,
            "Replace a glossary term's description",
            **own,
        ),
        ToolSpec(
            "glossary_delete",
            DELETE_DOC,
            g.DeleteArguments,
            g.delete,
            s.DeleteOutput,
            replacing,
            "Delete a glossary term",
            **own,
        ),
    )


def slang_tools(sources: MeaningSources, *, online: bool) -> tuple[ToolSpec, ...]:
    """slang_rewrite and slang_interpret (`--slang`), reading the meaning `sources`;
    `online`: interpret may ask Urban Dictionary, and says so (open world)."""
    from lexicon_server.slang import tool_calls as t
    from lexicon_server.slang.models import InterpretOutput, RewriteOutput

    own: dict[str, Any] = {"reads": "slang", "answer": "own"}
    return (
        ToolSpec(
            "slang_rewrite",
            t.rewrite_description(),
            t.RewriteArguments,
            t.rewrite_text,
            RewriteOutput,
            ToolAnnotations(
                title="Rewrite slang",
                read_only_hint=True,
                idempotent_hint=True,
                open_world_hint=False,
            ),
            "Rewrite between slang and plain language",
            **own,
        ),
        ToolSpec(
            "slang_interpret",
            t.interpret_description(sources),
            t.InterpretArguments,
            t.interpret_text,
            InterpretOutput,
            ToolAnnotations(
                title="Interpret slang",
                read_only_hint=True,
                idempotent_hint=True,
                open_world_hint=online,
            ),
            "Explain slang phrases in a text",
            **own,
        ),
    )


def urban_dictionary_tools() -> tuple[ToolSpec, ...]:
    """The three online Urban Dictionary tools (`--slang-online`)."""
    from lexicon_server.slang import tool_calls as t
    from lexicon_server.slang.models import UrbanDictionaryOutput

    rows = []
    for name, title, text, arguments, query, idempotent in (
        (
            "urban_dictionary_define",
            "Urban Dictionary: define",
            "Look up a word or phrase.",
            t.DefineArguments,
            t.define,
            True,
        ),
        (
            "urban_dictionary_random",
            "Urban Dictionary: random",
            "Fetch random definitions.",
            t.RandomArguments,
            t.random_definitions,
            False,
        ),
        (
            "urban_dictionary_defid",
            "Urban Dictionary: by id",
            "Fetch one definition by id.",
            t.DefidArguments,
            t.by_defid,
            True,
        ),
    ):
        annotations = ToolAnnotations(
            title=title, read_only_hint=True, idempotent_hint=idempotent, open_world_hint=True
        )
        rows.append(
            ToolSpec(
                name,
                text + t.UNTRUSTED,
                arguments,
                query,
                UrbanDictionaryOutput,
                annotations,
                title,
                reads="urban_dictionary",
                answer="own",
            )
        )
    return tuple(rows)
