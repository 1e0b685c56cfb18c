"""HTTP for many agents: token, host checks, session limit, stateless mode, workers, and
following the active selection without dropping a session.

Real `lexicon-mcp` processes on loopback ports, driven by the SDK's own client (and raw
HTTP where the SDK client cannot misbehave on purpose).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from _support.http_server import serving_http
from _support.installs import install_english_lexical
from _support.jsonrpc import INITIALIZE
from click.testing import CliRunner
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from lexicon_server.cli import main as server_main
from lexicon_store import ops
from lexicon_store.leases import live_leases
from lexicon_store.selection import load_active

TOKEN = "correct-horse-battery-staple-0123"
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


@contextmanager
def _server(data_dir: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    with serving_http(["--data-dir", str(data_dir), *args], env={**base, **(env or {})}) as url:
        yield url


def _client(url: str, token: str | None = None, sent: list[Any] | None = None) -> Client:
    """The SDK's client in its legacy mode: `initialize` opens a protocol session, which
    every later request carries (the auto mode may use the sessionless protocol). With
    `sent`, each request's session id and each response's status are appended to it."""
    headers = {} if token is None else {"authorization": f"Bearer {token}"}

    async def on_request(request: Any) -> None:
        if sent is not None:
            sent.append(request.headers.get("mcp-session-id"))

    async def on_response(response: Any) -> None:
        if sent is not None:
            sent.append(response.status_code)

    http = httpx2.AsyncClient(
        headers=headers,
        timeout=30,
        event_hooks={"request": [on_request], "response": [on_response]},
    )
    return Client(streamable_http_client(url, http_client=http), mode="legacy")


def _lookup(url: str, token: str | None = None) -> Any:
    async def main() -> Any:
        async with _client(url, token) as client:
            return await client.call_tool("dictionary_lookup", {"word": "dog"})

    return anyio.run(main)


def _run_cli(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(server_main, ["--transport", "streamable-http", *args], env=env)


def test_beyond_loopback_needs_a_token_and_allowed_hosts(tmp_path: Path) -> None:
    result = _run_cli("--host", "0.0.0.0")
    assert result.exit_code == 2
    assert "not a loopback address" in result.output and "--token-file" in result.output
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    result = _run_cli("--host", "0.0.0.0", "--token-file", str(token_file))
    assert result.exit_code == 2 and "--allowed-host" in result.output
    token_file.write_text("short\n")
    result = _run_cli("--token-file", str(token_file))
    assert result.exit_code == 2 and "at least 16 characters" in result.output
    result = _run_cli("--workers", "2")
    assert result.exit_code == 2 and "needs --stateless" in result.output


def test_bearer_token_is_required_and_checked(mini_data_dir: Path, tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    with _server(mini_data_dir, "--token-file", str(token_file)) as url:
        for headers in ({}, {"authorization": "Bearer wrong"}, {"authorization": TOKEN}):
            response = httpx2.post(url, json=INITIALIZE, headers={**ACCEPT, **headers})
            assert response.status_code == 401, headers
            assert response.headers["www-authenticate"].startswith("Bearer")
        result = _lookup(url, TOKEN)
        assert not result.is_error and result.structured_content["found"]


def test_token_from_the_environment_and_host_check(mini_data_dir: Path) -> None:
    with _server(mini_data_dir, env={"LEXICON_HTTP_TOKEN": TOKEN}) as url:
        auth = {"authorization": f"Bearer {TOKEN}"}
        ok = httpx2.post(url, json=INITIALIZE, headers={**ACCEPT, **auth})
        assert ok.status_code == 200
        # DNS rebinding: a Host the server was not told about is refused, token or not.
        bad = httpx2.post(url, json=INITIALIZE, headers={**ACCEPT, **auth, "host": "evil.example"})
        assert bad.status_code in (403, 421)


def test_abandoned_sessions_never_lock_new_clients_out(mini_data_dir: Path) -> None:
    with _server(mini_data_dir, "--max-sessions", "3") as url:
        abandoned = []
        for _ in range(6):  # twice the limit, never closed
            response = httpx2.post(url, json=INITIALIZE, headers=ACCEPT)
            assert response.status_code == 200
            abandoned.append(response.headers["mcp-session-id"])
        # A new client is served, and the oldest sessions were the ones closed for it.
        assert not _lookup(url).is_error
        ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
        oldest = httpx2.post(
            url,
            json=ping,
            headers={
                **ACCEPT,
                "mcp-session-id": abandoned[0],
                "mcp-protocol-version": "2025-06-18",
            },
        )
        assert oldest.status_code == 404


def test_stateless_mode_has_no_sessions(mini_data_dir: Path) -> None:
    with _server(mini_data_dir, "--stateless") as url:
        response = httpx2.post(url, json=INITIALIZE, headers=ACCEPT)
        assert response.status_code == 200
        assert "mcp-session-id" not in response.headers
        assert not _lookup(url).is_error


# Slow (a supervisor and two workers start); test_http_workers shares one such start.
@pytest.mark.slow
def test_two_workers_share_the_port_and_each_holds_a_lease(data_dir: Path) -> None:
    with _server(data_dir, "--stateless", "--workers", "2") as url:
        deadline = time.monotonic() + 60
        while len(live_leases(data_dir)) < 2:
            assert time.monotonic() < deadline, "the workers never took their leases"
            time.sleep(0.1)
        pids = {lease.pid for lease in live_leases(data_dir)}
        assert len(pids) == 2
        for _ in range(4):
            assert not _lookup(url).is_error


def test_activate_under_a_running_http_server_keeps_the_session(
    data_dir: Path, sample_release: tuple[Path, str]
) -> None:
    everything = load_active(data_dir).activation_id
    narrow = install_english_lexical(*sample_release, data_dir)
    hund = {"word": "Hund", "language": "de"}
    traffic: list[Any] = []

    with _server(data_dir) as url:

        async def main() -> tuple[Any, Any, Any, Any]:
            async with _client(url, sent=traffic) as client:
                before = await client.call_tool("dictionary_lookup", hund)
                ops.activate(everything, data_dir=data_dir)
                after = await client.call_tool("dictionary_lookup", hund)
                manifest = await client.read_resource("lexicon://manifest")
                leases = [lease.activation_id for lease in live_leases(data_dir)]
                return before, after, manifest, leases

        before, after, manifest, leases = anyio.run(main)
    assert before.is_error and "language_not_installed" in before.content[0].text
    assert not after.is_error and after.structured_content["found"]
    assert json.loads(manifest.contents[0].text)["activation_id"] == everything
    assert leases == [everything] and narrow != everything
    # One protocol session throughout: every request after `initialize` carried the same
    # session id, and none was refused (a dropped session answers 404).
    ids = {item for item in traffic[2:] if isinstance(item, str)}
    assert traffic[0] is None and len(ids) == 1
    assert all(item < 400 for item in traffic if isinstance(item, int))


@pytest.mark.parametrize("value", ["0", "-1", "1e400", "99999999999999999999"])
def test_session_options_are_checked(value: str) -> None:
    result = _run_cli("--max-sessions", value)
    assert result.exit_code == 2 and "--max-sessions" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("value", ["0", "-1", "inf", "-inf", "nan", "NaN", "1e400", "1e300", "x"])
@pytest.mark.parametrize("option", ["--session-idle-timeout", "--header-timeout", "--body-timeout"])
def test_seconds_options_are_checked(option: str, value: str) -> None:
    """Not finite, not positive or absurdly large: a usage error naming the option and
    the range (issue 27: `--session-idle-timeout inf` printed a traceback)."""
    result = _run_cli(option, value)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # a usage error, not a crash
    assert f"Invalid value for '{option}'" in result.output
    assert "Traceback" not in result.output
    if value != "x":
        assert "must be a number of seconds above 0 and at most" in result.output
