"""`--workers N` spreads connections across the workers (issue 28), and keeps what uvicorn's
supervisor gave: a dead worker replaced, SIGTERM/SIGINT stop all, a taken port refused.

Real `lexicon-mcp` processes on loopback. Which worker serves a connection is read from
the kernel (each worker's established TCP connections, by psutil from /proc), so nothing
in the answers changes for the test; the workers are the processes holding a reader lease.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
import pytest
from _support.http_server import free_port

from lexicon_server import http_workers
from lexicon_store.leases import live_leases

TOKEN = "correct-horse-battery-staple-0123"
CONNECTIONS = 64
CALL = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "dictionary_lookup", "arguments": {"word": "dog"}},
    }
).encode()


@contextmanager
def _workers(
    data_dir: Path, host: str = "127.0.0.1"
) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """`lexicon-mcp --stateless --json-response --workers 2` with a token handed through
    the environment, once both workers hold their lease; yields (supervisor, port)."""
    port = free_port()
    command = [sys.executable, "-m", "lexicon_server.cli", "--data-dir", str(data_dir)]
    command += ["--transport", "streamable-http", "--host", host, "--port", str(port)]
    command += ["--stateless", "--json-response", "--workers", "2"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    env["LEXICON_HTTP_TOKEN"] = TOKEN
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        _wait_for_workers(data_dir, proc, set())
        yield proc, port
    finally:
        if proc.poll() is None:
            proc.terminate()
        proc.wait(timeout=30)


def _wait_for_workers(data_dir: Path, proc: subprocess.Popen[bytes], old: set[int]) -> set[int]:
    """The pids of two live workers, none of them in `old`'s dead ones."""
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        pids = {lease.pid for lease in live_leases(data_dir)} - old
        if len(pids) == 2 and all(psutil.pid_exists(pid) for pid in pids):
            return pids
        assert time.monotonic() < deadline, "the workers never took their leases"
        time.sleep(0.1)


def _served_by(host: str, port: int, data_dir: Path) -> Counter[int]:
    """Open CONNECTIONS keep-alive connections at once, make one call on each, and count,
    while they are all open, how many each worker holds."""
    conns = [http.client.HTTPConnection(host, port, timeout=60) for _ in range(CONNECTIONS)]
    try:
        for conn in conns:
            conn.connect()  # all queued before any request: the burst one worker took whole
        for conn in conns:
            conn.request(
                "POST",
                "/mcp",
                CALL,
                {
                    "content-type": "application/json",
                    "accept": "application/json, text/event-stream",
                    "authorization": f"Bearer {TOKEN}",
                },
            )
            response = conn.getresponse()
            answer = json.loads(response.read())
            assert response.status == 200 and not answer["result"].get("isError"), answer
        held: Counter[int] = Counter()
        for lease in live_leases(data_dir):
            for c in psutil.Process(lease.pid).net_connections(kind="tcp"):
                if c.laddr and c.laddr.port == port and c.status == psutil.CONN_ESTABLISHED:
                    held[lease.pid] += 1
        return held
    finally:
        for conn in conns:
            conn.close()


def _assert_spread(held: Counter[int]) -> None:
    # Hashed evenly over two sockets, a worker holds fewer than 8 of 64 connections with
    # probability about 1e-10; a shared socket gave one worker all of them.
    assert sum(held.values()) == CONNECTIONS, held
    assert len(held) == 2 and min(held.values()) >= 8, held


Running = tuple[Path, subprocess.Popen[bytes], int]


@pytest.fixture(scope="module")
def running(
    sample_release: tuple[Path, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Running]:
    """One supervisor and its two workers, shared by the tests below: each leaves two live
    workers serving (a replaced worker is waited for), so starting one per test (a few
    seconds of imports each) would only repeat the same start. Yields (data dir,
    supervisor, port)."""
    from _support.installs import install_release

    data_dir = install_release(*sample_release, tmp_path_factory.mktemp("workers") / "data")
    with _workers(data_dir) as (proc, port):
        yield data_dir, proc, port


def test_connections_are_spread_across_the_workers(running: Running) -> None:
    data_dir, proc, port = running
    _assert_spread(_served_by("127.0.0.1", port, data_dir))
    # The token reached the workers through their environment, not their command line.
    for child in psutil.Process(proc.pid).children(recursive=True):
        assert TOKEN not in " ".join(child.cmdline())


def test_a_killed_worker_is_replaced_on_its_own_socket(running: Running) -> None:
    data_dir, proc, port = running
    first = {lease.pid for lease in live_leases(data_dir)}
    victim = min(first)
    os.kill(victim, signal.SIGKILL)
    now = _wait_for_workers(data_dir, proc, {victim})
    assert victim not in now and len(now - first) == 1
    _assert_spread(_served_by("127.0.0.1", port, data_dir))


def test_sighup_replaces_every_worker_on_its_socket(running: Running) -> None:
    data_dir, proc, port = running
    first = [psutil.Process(lease.pid) for lease in live_leases(data_dir)]
    proc.send_signal(signal.SIGHUP)
    # Each old worker stops once its successor serves (closing what it still held).
    _gone, alive = psutil.wait_procs(first, timeout=60)
    assert not alive
    now = _wait_for_workers(data_dir, proc, {p.pid for p in first})
    assert len(now) == 2
    _assert_spread(_served_by("127.0.0.1", port, data_dir))


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_supervisor_and_every_worker(data_dir: Path, stop: int) -> None:
    with _workers(data_dir) as (proc, _port):
        workers = [psutil.Process(lease.pid) for lease in live_leases(data_dir)]
        proc.send_signal(stop)
        assert proc.wait(timeout=30) == 0
        _gone, alive = psutil.wait_procs(workers, timeout=10)
        assert not alive


@pytest.mark.parametrize("reuse_port", [False, True])
def test_a_taken_port_is_refused(data_dir: Path, reuse_port: bool) -> None:
    """Also when the holder set SO_REUSEPORT (a process of this user could otherwise
    join the workers' sockets and be handed some of their clients)."""
    with socket.socket() as holder:
        if reuse_port:
            holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        command = [sys.executable, "-m", "lexicon_server.cli", "--data-dir", str(data_dir)]
        command += ["--transport", "streamable-http", "--port", str(port)]
        command += ["--stateless", "--workers", "2"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 3, done.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "another --port" in done.stderr and "Traceback" not in done.stderr


def test_an_ipv6_host_gets_its_workers_too(data_dir: Path) -> None:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    with _workers(data_dir, host="::1") as (_proc, port):
        _assert_spread(_served_by("::1", port, data_dir))


def test_without_a_spreading_reuse_port_the_workers_share_one_socket(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(http_workers, "balances", lambda: False)
    sockets, spread = http_workers.listening_sockets("127.0.0.1", 0, 2, 128)
    try:
        assert not spread and len(sockets) == 1
        assert sockets[0].getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) == 0
    finally:
        sockets[0].close()


def test_each_worker_socket_listens_with_reuse_port() -> None:
    if not http_workers.balances():
        pytest.skip("this kernel does not spread connections over SO_REUSEPORT sockets")
    sockets, spread = http_workers.listening_sockets("127.0.0.1", free_port(), 3, 128)
    try:
        assert spread and len(sockets) == 3
        assert len({s.getsockname() for s in sockets}) == 1  # one port
        for s in sockets:
            assert s.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) == 1
            assert s.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1
            assert s.proto == socket.IPPROTO_TCP  # asyncio's TCP_NODELAY check
    finally:
        for s in sockets:
            s.close()
