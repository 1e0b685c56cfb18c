"""`lexicon-mcp`: serve the active corpus over MCP (stdio by default).

Options only parse and override the environment-derived config; the work is in
`build_server`. Nothing here downloads anything: with no active corpus the command
exits with the exact `lexicon-data install` command to run.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from lexicon_server.config import ServerConfig, load_config
from lexicon_server.errors import LexiconServerError
from lexicon_server.http import (
    DEFAULT_MAX_SESSIONS,
    DEFAULT_SESSION_IDLE_TIMEOUT,
    MAX_READ_TIMEOUT,
    MAX_SESSION_IDLE_TIMEOUT,
    MAX_SESSIONS_LIMIT,
    MAX_WORKERS,
    ExposureError,
    HttpOptions,
    ListenError,
    check_options,
    seconds_problem,
    serve,
)
from lexicon_server.http_deadlines import DEFAULT_BODY_TIMEOUT, DEFAULT_HEADER_TIMEOUT

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

__all__ = ["Seconds", "main"]

_F = TypeVar("_F", bound=Callable[..., Any])


class Seconds(click.ParamType[float, Any]):
    """A finite number of seconds above 0 and at most `limit` (inf, nan and 1e400 are
    refused with the allowed range, not met later as a traceback)."""

    name = "seconds"

    def __init__(self, limit: float) -> None:
        self.limit = limit

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        try:
            seconds = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        problem = seconds_problem(seconds, self.limit)
        if problem is not None:
            self.fail(problem, param, ctx)
        return seconds


def _switch(name: str, help: str) -> Callable[[_F], _F]:
    """An option that is off unless given."""
    return click.option(name, is_flag=True, default=False, help=help)


def _bounded(
    name: str, kind: click.ParamType[Any, Any], default: float, help: str
) -> Callable[[_F], _F]:
    """A number option checked against its range (`kind`), its default shown in --help."""
    return click.option(name, type=kind, default=default, show_default=True, help=help)


def _http_options(
    config: ServerConfig, options: HttpOptions, token_file: Path | None
) -> HttpOptions:
    """`options` with the bearer token (file option, else environment), checked."""
    token = config.http_token
    path = token_file or config.http_token_file
    if path is not None:
        try:
            token = path.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise click.BadParameter(
                f"cannot read {path}: {exc}", param_hint="--token-file"
            ) from None
    options = dataclasses.replace(options, token=token or None)
    try:
        check_options(options)
    except ExposureError as exc:
        raise click.BadParameter(str(exc), param_hint=exc.param) from None
    return options


def _serve_workers(config: ServerConfig, options: HttpOptions) -> None:
    try:
        serve(None, config, options)
    except ListenError as exc:
        # The status uvicorn exits with when one process cannot bind (its STARTUP_FAILURE),
        # so a taken port reads alike with one worker or several.
        click.echo(f"lexicon-mcp: {exc}", err=True)
        sys.exit(3)


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
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (HTTP); beyond loopback only with a token and --allowed-host.",
)
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
@click.option(
    "--glossary",
    "glossary",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Enable the glossary tools on this JSONL file ($LEXICON_GLOSSARY).",
)
@click.option("--slang", is_flag=True, default=False, help="Enable the slang tools (offline).")
@_switch("--slang-online", "Also enable the online Urban Dictionary slang tools (implies --slang).")
@click.option(
    "--follow/--no-follow",
    default=True,
    show_default=True,
    help="Switch to a new active selection (activate, install, repair) without a restart; "
    "--no-follow keeps serving the one the server started with.",
)
@_switch(
    "--stateless",
    "HTTP without protocol sessions: any request may reach any process (replicas, --workers).",
)
@_switch("--json-response", "HTTP answers as plain JSON bodies instead of one-event SSE streams.")
@_bounded(
    "--workers",
    click.IntRange(1, MAX_WORKERS),
    1,
    "HTTP worker processes sharing the port (needs --stateless).",
)
@_bounded(
    "--max-sessions",
    click.IntRange(1, MAX_SESSIONS_LIMIT),
    DEFAULT_MAX_SESSIONS,
    "Open HTTP sessions at most; at the limit the idlest one is closed for a new client.",
)
@_bounded(
    "--session-idle-timeout",
    Seconds(MAX_SESSION_IDLE_TIMEOUT),
    DEFAULT_SESSION_IDLE_TIMEOUT,
    "Seconds after which an HTTP session with no request is closed.",
)
@_bounded(
    "--header-timeout",
    Seconds(MAX_READ_TIMEOUT),
    DEFAULT_HEADER_TIMEOUT,
    "Seconds an HTTP request's headers may take to arrive (from the connection, or "
    "from the first byte of a later request); then 408 and the connection is closed.",
)
@_bounded(
    "--body-timeout",
    Seconds(MAX_READ_TIMEOUT),
    DEFAULT_BODY_TIMEOUT,
    "Seconds an HTTP request's body may take to arrive after its headers.",
)
@click.option(
    "--token-file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help="File holding the HTTP bearer token ($LEXICON_HTTP_TOKEN_FILE, or the token in "
    "$LEXICON_HTTP_TOKEN).",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    help="Host header value clients use (host:port, or host:* for any port); repeatable.",
)
@click.option(
    "--allowed-origin",
    "allowed_origins",
    multiple=True,
    help="Origin header value browsers may send (e.g. https://app.example); repeatable.",
)
def main(
    data_dir: Path | None,
    transport: str,
    glossary: Path | None,
    slang: bool,
    slang_online: bool,
    follow: bool,
    token_file: Path | None,
    **http: Any,
) -> None:
    """Serve the Lexicon dictionary tools over MCP, offline, from the active corpus."""
    # `http`: the HTTP options, each named as its HttpOptions field.
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
    options = None
    if transport == "streamable-http":
        options = _http_options(config, HttpOptions(**http, follow=follow), token_file)
    corpus = _open_corpus(config, follow=follow, remote=transport != "stdio")
    if options is not None and options.workers > 1:
        # Checked here so a damaged data dir fails once, not in every worker; each worker
        # opens (and leases) the corpus itself.
        corpus.close()
        _serve_workers(config, options)
        return
    from lexicon_server.server import build_server

    try:
        server = build_server(corpus, config)
    except LexiconServerError as exc:
        # A bad glossary file or slang setting: the message names the file/line and the fix.
        click.echo(f"lexicon-mcp: {exc}", err=True)
        sys.exit(2)
    if transport == "stdio":
        from lexicon_server.stdio import run_stdio

        run_stdio(server)
    else:
        assert options is not None
        serve(server, config, options)


def _open_corpus(config: ServerConfig, *, follow: bool, remote: bool) -> Corpus:
    """`server.open_corpus`, rendered: no active selection exits 2 with the command that
    fixes it; each damaged component (served without) gets one line on stderr."""
    from lexicon_server.server import open_corpus, serving_notes
    from lexicon_store.selection import NoActiveSelection

    try:
        corpus = open_corpus(config, follow=follow, remote=remote)
    except NoActiveSelection as exc:
        click.echo(f"lexicon-mcp: {exc}", err=True)
        sys.exit(2)
    for note in serving_notes(corpus):
        click.echo(f"lexicon-mcp: {note}", err=True)
    return corpus


if __name__ == "__main__":
    main()
