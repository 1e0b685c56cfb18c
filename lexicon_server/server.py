"""Assemble the MCP server: the seven dictionary tools, resources, opt-in tool groups.

`build_server` does no I/O: component databases and vector files are opened on first
use and closed when the server's lifespan ends.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import TYPE_CHECKING

from mcp.server.mcpserver import MCPServer

from lexicon_server import resources
from lexicon_server.query.semantic import VectorStore
from lexicon_server.sdk import add_tools, serve_no_prompts
from lexicon_server.tool_table import DICTIONARY, DICTIONARY_TOOLS

if TYPE_CHECKING:
    from lexicon_server.config import ServerConfig
    from lexicon_server.corpus.reader import Corpus

__all__ = [
    "DESCRIPTION",
    "DICTIONARY_TOOLS",
    "build_server",
    "installed_languages",
    "open_corpus",
    "serving_notes",
]

DESCRIPTION = (
    "Offline dictionary for agents: senses, synonyms, translations, relations, semantic "
    "neighbours, rhymes and wordplay from a locally installed, versioned corpus."
)

_INSTRUCTIONS = """Lexicon is an offline dictionary over a locally installed corpus
({version}; languages: {languages}). Tools: dictionary_lookup (senses, examples,
pronunciations, translations), dictionary_synonyms, dictionary_translate (between any two
installed languages), dictionary_relations, dictionary_semantic_neighbors, rhymes
(English) and wordplay (anagram, palindrome, spoonerism, pun, pattern, sounds_like).
Results name their source and licence. When a language or kind of
data is not installed, the error says which of four reasons applies and how to install
it; it never means the word does not exist. Resources: lexicon://licenses,
lexicon://manifest, lexicon://languages."""


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


def installed_languages(corpus: Corpus) -> str:
    """The languages whose lexical data the selection serves, as 'de (German), en (English)'."""
    selection = corpus.selection
    return ", ".join(
        f"{tag} ({selection.language_names.get(tag, tag)})"
        for tag in sorted(selection.installed)
        if "lexical" in selection.installed[tag]
    )


def serving_notes(corpus: Corpus) -> list[str]:
    """One line per damaged component the server serves without."""
    return [
        f"serving without component {damage.component}, which is damaged: {damage}"
        for damage in corpus.damaged.values()
    ]


def build_server(corpus: Corpus, config: ServerConfig) -> MCPServer[None]:
    """The MCP server over `corpus`: seven dictionary tools, plus opt-in groups.

    The tools are the rows of `tool_table`, registered by `sdk.add_tools` with what each
    reads (the corpus, the vector store); the lifespan closes both when the server ends."""
    vectors = VectorStore(corpus)

    @asynccontextmanager
    async def lifespan(_server: MCPServer[None]) -> AsyncIterator[None]:
        try:
            yield None
        finally:
            vectors.close()
            corpus.close()

    server: MCPServer[None] = MCPServer(
        "lexicon",
        title="Lexicon dictionary",
        description=DESCRIPTION,
        instructions=_INSTRUCTIONS.format(
            version=corpus.dataset_version, languages=installed_languages(corpus)
        ),
        version=_version(),
        lifespan=lifespan,
        log_level="WARNING",
        # Nothing this server lists ever changes while it runs, so it serves no
        # `subscriptions/listen` and advertises no list-changed notifications.
        subscriptions=False,
    )
    serve_no_prompts(server)
    # A description may name the installed languages (read once, at start).
    languages = installed_languages(corpus)
    specs = [
        replace(spec, description=spec.description.replace("{languages}", languages))
        for spec in DICTIONARY
    ]
    add_tools(server, specs, {"corpus": corpus, "vectors": vectors})
    _register_resources(server, corpus)
    _register_opt_in_groups(server, corpus, config)
    return server


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("lexicon-mcp")
    except PackageNotFoundError:
        return "0"


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


def _register_resources(server: MCPServer[None], corpus: Corpus) -> None:
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


def _register_opt_in_groups(server: MCPServer[None], corpus: Corpus, config: ServerConfig) -> None:
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
