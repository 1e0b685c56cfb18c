"""Assemble the MCP server: the seven dictionary tools, resources, opt-in tool groups.

`build_server` does no I/O: component databases and vector files are opened on first
use and closed when the server's lifespan ends.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcp.server.mcpserver import MCPServer

from lexicon_server import resources
from lexicon_server.answers import keep_answer_contract
from lexicon_server.query.semantic import VectorStore

if TYPE_CHECKING:
    from lexicon_server.config import ServerConfig
    from lexicon_server.corpus.reader import Corpus

__all__ = [
    "DESCRIPTION",
    "DICTIONARY_TOOLS",
    "AppState",
    "build_server",
    "open_corpus",
    "serving_notes",
]

DICTIONARY_TOOLS = (
    "dictionary_lookup",
    "dictionary_synonyms",
    "dictionary_translate",
    "dictionary_relations",
    "dictionary_semantic_neighbors",
    "rhymes",
    "wordplay",
)


DESCRIPTION = (
    "Offline dictionary for agents: senses, synonyms, translations, relations, semantic "
    "neighbours, rhymes and wordplay from a locally installed, versioned corpus."
)

_INSTRUCTIONS = """Lexicon is an offline dictionary over a locally installed corpus
({version}). Tools: dictionary_lookup (senses, examples, pronunciations, translations),
dictionary_synonyms, dictionary_translate, dictionary_relations,
dictionary_semantic_neighbors, rhymes (English) and wordplay (anagram, palindrome,
spoonerism, pun). Results name their source and licence. When a language or kind of
data is not installed, the error says which of four reasons applies and how to install
it; it never means the word does not exist. Resources: lexicon://licenses,
lexicon://manifest, lexicon://languages."""


@dataclass(frozen=True)
class AppState:
    """What the lifespan hands to request handlers: the open corpus and the config."""

    corpus: Corpus
    vectors: VectorStore
    config: ServerConfig


def open_corpus(config: ServerConfig, *, follow: bool = True, remote: bool = False) -> Corpus:
    """The active selection's corpus, under a reader lease and (with `follow`) following
    the active selection; `remote`: its answers go to other machines (HTTP), so they name
    no server path. Raises `NoActiveSelection`, whose message is the install command.

    The CLI and every HTTP worker open the corpus here. A damaged component does not
    stop the server: the calls that need it answer `damaged_component`, and
    `serving_notes` words what is served without."""
    from lexicon_server.corpus.live import open_serving

    corpus = open_serving(config.data_dir, follow=follow)
    corpus.remote_clients = remote
    return corpus


def serving_notes(corpus: Corpus) -> list[str]:
    """One line per damaged component the server serves without."""
    return [
        f"serving without component {damage.component}, which is damaged: {damage}"
        for damage in corpus.damaged.values()
    ]


def build_server(corpus: Corpus, config: ServerConfig) -> MCPServer[AppState]:
    """The MCP server over `corpus`: seven dictionary tools, plus opt-in groups."""
    vectors = VectorStore(corpus)

    @asynccontextmanager
    async def lifespan(_server: MCPServer[AppState]) -> AsyncIterator[AppState]:
        try:
            yield AppState(corpus=corpus, vectors=vectors, config=config)
        finally:
            vectors.close()
            corpus.close()

    server: MCPServer[AppState] = MCPServer(
        "lexicon",
        title="Lexicon dictionary",
        description=DESCRIPTION,
        instructions=_INSTRUCTIONS.format(version=corpus.dataset_version),
        version=_version(),
        lifespan=lifespan,
        log_level="WARNING",
        # Nothing this server lists ever changes while it runs, so it serves no
        # `subscriptions/listen` and advertises no list-changed notifications.
        subscriptions=False,
    )
    _serve_no_prompts(server)
    _register_dictionary_tools(server, corpus, vectors)
    _register_resources(server, corpus)
    _register_opt_in_groups(server, corpus, config)
    keep_answer_contract(server)
    return server


def _serve_no_prompts(server: MCPServer[AppState]) -> None:
    """Drop the prompt handlers the SDK always installs, so that the server advertises
    exactly what it implements (tools and resources). The SDK derives its capabilities
    from the handlers present and has no option for this."""
    handlers = server._lowlevel_server._request_handlers
    for method in ("prompts/list", "prompts/get"):
        handlers.pop(method, None)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("lexicon-mcp")
    except PackageNotFoundError:
        return "0"


def _register_dictionary_tools(
    server: MCPServer[AppState], corpus: Corpus, vectors: VectorStore
) -> None:
    from lexicon_server.arguments import strict_arguments
    from lexicon_server.tools import (
        lookup,
        relations,
        rhymes,
        semantic,
        synonyms,
        translate,
        wordplay,
    )

    lookup.register(server, corpus)
    synonyms.register(server, corpus)
    translate.register(server, corpus)
    relations.register(server, corpus)
    semantic.register(server, corpus, vectors)
    rhymes.register(server, corpus)
    wordplay.register(server, corpus)
    # Strict, closed arguments, refused in the same words as the query layer's checks.
    strict_arguments(server, DICTIONARY_TOOLS)


# (name, title, description, MIME type, renderer) of each lexicon://<name> resource.
_RESOURCES: tuple[tuple[str, str, str, str, Callable[[Corpus], str]], ...] = (
    (
        "licenses",
        "Data licences",
        "Licences of every data source in the active release (DATA_LICENSES.md)",
        "text/markdown",
        resources.licenses_text,
    ),
    (
        "manifest",
        "Active dataset",
        "Dataset version, manifest digest, activation and installed components",
        "application/json",
        resources.manifest_json,
    ),
    (
        "languages",
        "Languages",
        "Languages the release carries, their capabilities and what is installed",
        "application/json",
        resources.languages_json,
    ),
)


def _register_resources(server: MCPServer[AppState], corpus: Corpus) -> None:
    for name, title, description, mime_type, render in _RESOURCES:
        server.resource(
            f"lexicon://{name}",
            name=name,
            title=title,
            description=description,
            mime_type=mime_type,
        )(_reader(render, corpus))


def _reader(render: Callable[[Corpus], str], corpus: Corpus) -> Callable[[], str]:
    # A resource without URI parameters is read by calling its function with no arguments.
    def read() -> str:
        return render(corpus)

    return read


def _register_opt_in_groups(
    server: MCPServer[AppState], corpus: Corpus, config: ServerConfig
) -> None:
    # Imported only when switched on, so the default server neither loads nor lists them.
    if config.glossary_path is not None:
        from lexicon_server.glossary import tools as glossary_tools

        glossary_tools.register(server, config.glossary_path, corpus)
    if config.slang_enabled or config.urban_dictionary_enabled:
        from lexicon_server.slang import tools as slang_tools

        slang_tools.register(
            server,
            corpus=corpus,
            glossary_path=config.glossary_path,
            online=config.urban_dictionary_enabled,
            config=config,
        )
