"""Streamable HTTP for many agents: session limits, stateless replicas, workers, a token.

- Stateful (the default): each client gets a protocol session. At most `max_sessions` are
  open; when a new client arrives at the limit, the least recently active idle session is
  closed to make room (its client gets 404 and opens a new session, as the protocol
  says), so abandoned sessions can never lock new clients out. Idle sessions close after
  `session_idle_timeout` seconds.
- Stateless (`--stateless`): no protocol sessions at all; any request can go to any
  process, which is what replicas behind a load balancer and `--workers N` need.
- Beyond loopback only with a bearer token (from a file or the environment, compared in
  constant time; 401 without it) and an explicit list of allowed Host values.
"""

from __future__ import annotations

import dataclasses
import errno
import hashlib
import hmac
import json
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexicon_server.errors import LexiconServerError
from lexicon_server.http_deadlines import (
    DEFAULT_BODY_TIMEOUT,
    DEFAULT_HEADER_TIMEOUT,
    ReadTimeouts,
    configure,
)

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.types import ASGIApp, Receive, Scope, Send

    from lexicon_server.config import ServerConfig

__all__ = [
    "DEFAULT_MAX_SESSIONS",
    "DEFAULT_SESSION_IDLE_TIMEOUT",
    "MAX_READ_TIMEOUT",
    "MAX_SESSIONS_LIMIT",
    "MAX_SESSION_IDLE_TIMEOUT",
    "MAX_WORKERS",
    "MIN_TOKEN_CHARS",
    "BearerToken",
    "ExposureError",
    "HttpOptions",
    "ListenError",
    "build_app",
    "check_options",
    "is_loopback",
    "run_workers",
    "seconds_problem",
    "serve",
]

# Documented in docs/deploying.md. The SDK's own defaults (10,000 sessions, 30 minutes)
# let a burst of abandoned sessions refuse every new client for half an hour.
DEFAULT_MAX_SESSIONS = 1_000
DEFAULT_SESSION_IDLE_TIMEOUT = 600.0
MIN_TOKEN_CHARS = 16
# Upper bounds of the numeric options: beyond them a value is a mistake, and some (inf,
# 1e300 seconds) would overflow the event loop's clock arithmetic.
MAX_SESSIONS_LIMIT = 1_000_000
MAX_WORKERS = 64
MAX_SESSION_IDLE_TIMEOUT = 7 * 24 * 3600.0
MAX_READ_TIMEOUT = 3600.0
_WORKER_ENV = "LEXICON_HTTP_WORKER"  # the options, handed from the supervisor to workers
_LOOPBACK_HOSTS = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
_LOOPBACK_ORIGINS = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]


class ExposureError(LexiconServerError, ValueError):
    """HTTP options that would expose the server unsafely, or that cannot work together;
    ``param`` names the command-line option at fault."""

    def __init__(self, message: str, param: str) -> None:
        super().__init__(message)
        self.param = param


class ListenError(LexiconServerError, OSError):
    """The workers' port cannot be bound (another process holds it, or the address is
    not this machine's)."""

    def __init__(self, host: str, port: int, cause: OSError) -> None:
        where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        hint = (
            "; another process listens there: stop it or choose another --port"
            if cause.errno == errno.EADDRINUSE
            else ""
        )
        super().__init__(f"cannot listen on {where}: {cause.strerror or cause}{hint}")
        self.host = host
        self.port = port


@dataclass(frozen=True)
class HttpOptions:
    host: str = "127.0.0.1"
    port: int = 8765
    path: str = "/mcp"
    stateless: bool = False
    json_response: bool = False
    max_sessions: int = DEFAULT_MAX_SESSIONS
    session_idle_timeout: float = DEFAULT_SESSION_IDLE_TIMEOUT
    header_timeout: float = DEFAULT_HEADER_TIMEOUT
    body_timeout: float = DEFAULT_BODY_TIMEOUT
    workers: int = 1
    token: str | None = None
    allowed_hosts: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    follow: bool = True

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)


def is_loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_options(options: HttpOptions) -> None:
    """Raise ExposureError unless the options are safe and coherent."""
    if not 1 <= options.max_sessions <= MAX_SESSIONS_LIMIT:
        raise ExposureError(
            f"--max-sessions must be a whole number from 1 to {MAX_SESSIONS_LIMIT}, got "
            f"{options.max_sessions}",
            "--max-sessions",
        )
    for value, limit, param in (
        (options.session_idle_timeout, MAX_SESSION_IDLE_TIMEOUT, "--session-idle-timeout"),
        (options.header_timeout, MAX_READ_TIMEOUT, "--header-timeout"),
        (options.body_timeout, MAX_READ_TIMEOUT, "--body-timeout"),
    ):
        message = seconds_problem(value, limit)
        if message is not None:
            raise ExposureError(f"{param} {message}", param)
    if not 1 <= options.workers <= MAX_WORKERS:
        raise ExposureError(
            f"--workers must be a whole number from 1 to {MAX_WORKERS}, got {options.workers}",
            "--workers",
        )
    if options.workers > 1 and not options.stateless:
        raise ExposureError(
            "--workers N needs --stateless: a protocol session lives in one process, and "
            "the workers share one port, so a session's next request may reach another one",
            "--workers",
        )
    if options.token is not None and len(options.token) < MIN_TOKEN_CHARS:
        raise ExposureError(
            f"the bearer token must be at least {MIN_TOKEN_CHARS} characters; make one with: "
            "python -c 'import secrets; print(secrets.token_urlsafe(32))'",
            "--token-file",
        )
    if options.loopback:
        return
    if options.token is None:
        raise ExposureError(
            f"{options.host!r} is not a loopback address: serving beyond this machine needs a "
            "bearer token; put one in a file and pass --token-file FILE (or set "
            "LEXICON_HTTP_TOKEN_FILE or LEXICON_HTTP_TOKEN)",
            "--host",
        )
    if not options.allowed_hosts:
        raise ExposureError(
            f"{options.host!r} is not a loopback address: name the Host values clients use "
            "with --allowed-host (for example --allowed-host lexicon.internal:8765)",
            "--allowed-host",
        )


def seconds_problem(value: float, limit: float) -> str | None:
    """What is wrong with `value` as a number of seconds up to `limit`, or None."""
    if not math.isfinite(value) or not 0 < value <= limit:
        return f"must be a number of seconds above 0 and at most {limit:g}, got {value}"
    return None


class BearerToken:
    """ASGI middleware: every HTTP request needs `Authorization: Bearer <token>`, else 401.

    Both sides are hashed before `hmac.compare_digest`, so the comparison takes the same
    time whatever the token sent, its length included."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._digest = hashlib.sha256(token.encode("utf-8")).digest()

    def _allowed(self, scope: Scope) -> bool:
        sent = b""
        for name, value in scope.get("headers", ()):
            if name == b"authorization":
                sent = value
                break
        scheme, _, credential = sent.partition(b" ")
        given = hashlib.sha256(credential.strip()).digest()
        # Evaluate both parts always: no early exit on a wrong scheme.
        return (scheme.lower() == b"bearer") & hmac.compare_digest(given, self._digest)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        body = json.dumps(
            {"error": "unauthorized: send the server's bearer token as `Authorization: Bearer ...`"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"www-authenticate", b'Bearer realm="lexicon"'),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _security(options: HttpOptions) -> TransportSecuritySettings:
    from mcp.server.transport_security import TransportSecuritySettings

    hosts = list(options.allowed_hosts)
    origins = list(options.allowed_origins)
    if options.loopback:
        hosts += _LOOPBACK_HOSTS
        origins += _LOOPBACK_ORIGINS
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


def build_app(server: MCPServer[Any], options: HttpOptions) -> ASGIApp:
    """The ASGI app serving `server` with `options` (session policy, host checks, token)."""
    from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
    from starlette.applications import Starlette
    from starlette.routing import Route

    from lexicon_server.http_sessions import EvictingSessionManager
    from lexicon_server.sdk import lowlevel_server

    manager = EvictingSessionManager(
        app=lowlevel_server(server),
        json_response=options.json_response,
        stateless=options.stateless,
        security_settings=_security(options),
        session_idle_timeout=options.session_idle_timeout,
        max_sessions=options.max_sessions,
    )
    app: ASGIApp = Starlette(
        routes=[Route(options.path, endpoint=StreamableHTTPASGIApp(manager))],
        lifespan=lambda _app: manager.run(),
    )
    if options.token is not None:
        app = BearerToken(app, options.token)
    return app


def _worker_app() -> ASGIApp:
    """Factory for `--workers N`: each worker process opens the corpus (and its own lease)."""
    from lexicon_server.config import load_config
    from lexicon_server.server import build_server, open_corpus, serving_notes

    spec = json.loads(os.environ[_WORKER_ENV])
    config = load_config()
    if spec["data_dir"] is not None:
        config = dataclasses.replace(config, data_dir=Path(spec["data_dir"]))
    fields = spec["options"]
    fields["allowed_hosts"] = tuple(fields["allowed_hosts"])
    fields["allowed_origins"] = tuple(fields["allowed_origins"])
    options = HttpOptions(**fields)
    # No active selection raises here: the supervisor checked it before starting workers.
    corpus = open_corpus(config, follow=options.follow, remote=True)
    for note in serving_notes(corpus):
        print(f"lexicon-mcp: {note}", file=sys.stderr)
    return build_app(build_server(corpus, config), options)


def serve(server: MCPServer[Any] | None, config: ServerConfig, options: HttpOptions) -> None:
    """Run uvicorn: in this process with `server`, or `options.workers` worker processes
    on one port (uvicorn's own supervisor, which restarts a worker that dies)."""
    import uvicorn

    if options.workers == 1:
        assert server is not None
        served = uvicorn.Config(
            build_app(server, options),
            host=options.host,
            port=options.port,
            log_level="warning",
            timeout_graceful_shutdown=5,
        )
        configure(served, _read_timeouts(options))
        uvicorn.Server(served).run()
        return
    # The token reaches the workers through their environment, never their command line.
    spec = {
        "data_dir": None if config.data_dir is None else str(config.data_dir),
        "options": dataclasses.asdict(options),
    }
    os.environ[_WORKER_ENV] = json.dumps(spec)
    run_workers("lexicon_server.http:_worker_app", options)


def run_workers(factory: str, options: HttpOptions) -> None:
    """uvicorn's supervisor over `options.workers` processes, each calling `factory`
    (an import string) for its app; on Linux each accepts on a socket of its own, bound
    with SO_REUSEPORT, so the kernel spreads connections across them (http_workers.py).
    ListenError when the port is taken."""
    import uvicorn

    from lexicon_server.http_workers import supervisor

    config = uvicorn.Config(
        factory,
        factory=True,
        host=options.host,
        port=options.port,
        workers=options.workers,
        log_level="warning",
        timeout_graceful_shutdown=5,
    )
    configure(config, _read_timeouts(options))
    try:
        supervising = supervisor(config)
    except OSError as exc:
        raise ListenError(options.host, options.port, exc) from None
    supervising.run()


def _read_timeouts(options: HttpOptions) -> ReadTimeouts:
    return ReadTimeouts(header=options.header_timeout, body=options.body_timeout)
