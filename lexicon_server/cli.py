"""`lexicon-mcp`: serve the active corpus over MCP (stdio by default).

Options only parse and override the environment-derived config; the work is in
`build_server`. Nothing here downloads anything: with no active corpus the command
exits with the exact `lexicon-data install` command to run.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from lexicon_server.config import ServerConfig, load_config
from lexicon_server.errors import LexiconServerError

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

__all__ = ["main", "open_corpus"]

_LOOPBACK_NAMES = {"localhost"}


def _is_loopback(host: str) -> bool:
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def open_corpus(config: ServerConfig) -> Corpus:
    """The active selection's corpus, or exit 2 with the install command."""
    from lexicon_server.corpus.reader import Corpus as _Corpus
    from lexicon_store.selection import NoActiveSelection, load_active

    try:
        selection = load_active(config.data_dir)
    except NoActiveSelection as exc:
        click.echo(f"lexicon-mcp: {exc}", err=True)
        sys.exit(2)
    missing = [rel for rel, path in sorted(selection.files.items()) if not path.is_file()]
    if missing:
        click.echo(
            f"lexicon-mcp: the active selection in {selection.data_dir} is damaged "
            f"(missing: {', '.join(missing[:5])}). Repair it with: lexicon-data verify "
            "and lexicon-data repair",
            err=True,
        )
        sys.exit(2)
    return _Corpus(selection)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Data dir holding the active corpus (default: $LEXICON_DATA_DIR or the user data dir).",
)
@click.option(
    "--transport",
    type=click.Choice(["stdio", "streamable-http"]),
    default="stdio",
    show_default=True,
    help="MCP transport.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Loopback address (HTTP).")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
@click.option(
    "--glossary",
    "glossary",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Enable the glossary tools on this JSONL file ($LEXICON_GLOSSARY).",
)
@click.option("--slang", is_flag=True, default=False, help="Enable the slang tools (offline).")
@click.option(
    "--slang-online",
    is_flag=True,
    default=False,
    help="Also enable the online Urban Dictionary slang tools (implies --slang).",
)
def main(
    data_dir: Path | None,
    transport: str,
    host: str,
    port: int,
    glossary: Path | None,
    slang: bool,
    slang_online: bool,
) -> None:
    """Serve the Lexicon dictionary tools over MCP, offline, from the active corpus."""
    try:
        config = load_config()
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    overrides: dict[str, object] = {}
    if data_dir is not None:
        overrides["data_dir"] = data_dir
    if glossary is not None:
        overrides["glossary_path"] = glossary
    if slang or slang_online:
        overrides["slang_enabled"] = True
    if slang_online:
        overrides["urban_dictionary_enabled"] = True
    config = dataclasses.replace(config, **overrides)  # type: ignore[arg-type]
    if transport == "streamable-http" and not _is_loopback(host):
        raise click.BadParameter(
            f"{host!r} is not a loopback address; the HTTP transport only listens on "
            "127.0.0.1, ::1 or localhost",
            param_hint="--host",
        )
    corpus = open_corpus(config)
    from lexicon_server.server import build_server

    try:
        server = build_server(corpus, config)
    except LexiconServerError as exc:
        # A bad glossary file or slang setting: the message names the file/line and the fix.
        click.echo(f"lexicon-mcp: {exc}", err=True)
        sys.exit(2)
    if transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host=host, port=port)


if __name__ == "__main__":
    main()
