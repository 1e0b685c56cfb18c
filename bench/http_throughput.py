"""HTTP throughput: `dictionary_lookup` beside a trivial tool served the same way.

For one worker and for `--workers 2` (stateless, plain JSON answers), each server is
started, warmed, then driven by N concurrent keep-alive clients for a fixed time per
level; each client walks the 500 most frequent English headwords from its own offset.
Reported per level: calls/s, p50/p99 latency, errors (HTTP status, JSON-RPC error or a
tool error), the resident memory of the server's whole process tree, and each worker's
share of the calls: which process holds the server side of each client's connection is
read from /proc (psutil) while the connections are still open, so the answers carry no
marker; a call on a connection closed before that (after an error) counts as unattributed.

    uv run python bench/http_throughput.py --data-dir DIR [--levels 1,8,32,64] [--seconds 8]
    uv run python bench/http_throughput.py --data-dir DIR --soak 600          # 32 clients
    uv run python bench/http_throughput.py --data-dir DIR --sessions 10000    # abandon, then serve
    uv run python bench/http_throughput.py --data-dir DIR --levels 32 --workers 2 --rounds 5

`--rounds R` starts each server R times, taking turns (trivial first in odd rounds,
lexicon first in even ones), and prints the look-up's calls/s and p99 as ratios to the
trivial tool's of the same round.

The load generator is a minimal asyncio HTTP/1.1 client in this process (it shares the
two cores with the servers, as any client on the same machine would).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def words(data_dir: Path, count: int = 500) -> list[str]:
    from lexicon_store.selection import load_active

    path = load_active(data_dir).files["en/lexical.sqlite"]
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True)
    rows = conn.execute(
        "SELECT t.text FROM terms t WHERE t.text GLOB '[a-z]*' AND t.text NOT GLOB '*[^a-z]*' "
        "AND EXISTS (SELECT 1 FROM entries e WHERE e.term_id = t.id) "
        "ORDER BY t.zipf DESC, t.id LIMIT ?",
        (count,),
    ).fetchall()
    return [r[0] for r in rows]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(
    kind: str, data_dir: Path, workers: int, extra: list[str], json_response: bool = True
) -> Iterator[tuple[int, int]]:
    """Start `kind` ('lexicon' or 'trivial'); yields (port, pid)."""
    port = _free_port()
    flags = ["--json-response", *extra] if json_response else extra
    if kind == "sdk-defaults":
        cmd = [sys.executable, str(HERE / "http_trivial.py"), "--port", str(port)]
        proc = subprocess.Popen(
            [*cmd, "--sdk-defaults"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        yield from _running(proc, port, workers)
        return
    if kind == "lexicon":
        cmd = [sys.executable, "-m", "lexicon_server.cli", "--data-dir", str(data_dir)]
        cmd += ["--transport", "streamable-http", "--port", str(port), *flags]
    else:
        cmd = [sys.executable, str(HERE / "http_trivial.py"), "--port", str(port), *flags]
    cmd += ["--workers", str(workers)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    yield from _running(proc, port, workers)


def _running(proc: subprocess.Popen[bytes], port: int, workers: int) -> Iterator[tuple[int, int]]:
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                raise RuntimeError(proc.stderr.read().decode() if proc.stderr else "died")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("server did not start") from None
                time.sleep(0.1)
        time.sleep(1.0 if workers > 1 else 0.2)  # let every worker finish starting
        yield port, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)


def rss_mib(pid: int) -> float:
    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
        return sum(p.memory_info().rss for p in procs) / 2**20
    except psutil.NoSuchProcess:
        return float("nan")


def served_by(server_pid: int, port: int) -> dict[int, int]:
    """{client port: pid of the process holding the server side} of the established TCP
    connections to `port`, read from /proc."""
    out: dict[int, int] = {}
    root = psutil.Process(server_pid)
    for proc in [root, *root.children(recursive=True)]:
        try:
            conns = proc.net_connections(kind="tcp")
        except psutil.NoSuchProcess:
            continue
        for c in conns:
            if c.laddr and c.raddr and c.laddr.port == port and c.status == "ESTABLISHED":
                out[c.raddr.port] = proc.pid
    return out


class Connection:
    """One keep-alive HTTP/1.1 connection, enough of the protocol for JSON answers."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.local_port = 0  # this side's port, once connected

    async def post(self, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            self.local_port = self.writer.get_extra_info("sockname")[1]
        assert self.reader is not None
        head = [
            "POST /mcp HTTP/1.1",
            f"host: 127.0.0.1:{self.port}",
            "content-type: application/json",
            "accept: application/json, text/event-stream",
            "mcp-protocol-version: 2025-06-18",
            f"content-length: {len(body)}",
            *(f"{k}: {v}" for k, v in headers.items()),
        ]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        got: dict[str, str] = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            got[name.strip().lower()] = value.strip()
        if "content-length" in got:
            data = await self.reader.readexactly(int(got["content-length"]))
        else:  # chunked
            chunks = []
            while True:
                size = int((await self.reader.readline()).strip(), 16)
                if size == 0:
                    await self.reader.readline()
                    break
                chunks.append(await self.reader.readexactly(size))
                await self.reader.readline()
            data = b"".join(chunks)
        if got.get("connection") == "close":
            self.writer.close()
            self.writer = None
        return status, got, data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def _call(request_id: int, word: str) -> bytes:
    body = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "dictionary_lookup", "arguments": {"word": word}},
    }
    return json.dumps(body).encode()


def _ok(status: int, data: bytes) -> bool:
    if status != 200:
        return False
    if data.startswith(b"event:") or data.startswith(b"data:"):
        data = data.split(b"data: ", 1)[1].split(b"\n", 1)[0]
    answer = json.loads(data)
    return "result" in answer and not answer["result"].get("isError", False)


@dataclass
class Level:
    clients: int
    calls: int = 0
    errors: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    rss: float = 0.0
    by_port: Counter[int] = field(default_factory=Counter)  # calls per client port
    by_worker: Counter[int] = field(default_factory=Counter)  # calls per server pid

    def row(self) -> dict[str, Any]:
        lat = sorted(self.latencies)
        p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")  # noqa: E731
        return {
            "clients": self.clients,
            "calls/s": self.calls / self.seconds if self.seconds else 0.0,
            "p50 ms": p(0.50),
            "p99 ms": p(0.99),
            "errors": self.errors,
            "rss MiB": self.rss,
            "worker shares %": self.shares(),
        }

    def shares(self) -> str:
        """Each process's share of the calls, largest first ('52/48'), '+n?' for calls on
        connections gone before they could be attributed."""
        if not self.calls:
            return "-"
        parts = [f"{100 * n / self.calls:.0f}" for _, n in self.by_worker.most_common()]
        lost = self.calls - sum(self.by_worker.values())
        return "/".join(parts) + (f" +{lost}?" if lost else "")


_INITIALIZE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"},
        },
    }
).encode()
_INITIALIZED = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode()


async def _open_session(conn: Connection) -> dict[str, str]:
    """Stateful mode: initialize, and the header every later request must carry."""
    _status, headers, _data = await conn.post(_INITIALIZE, {})
    session = {"mcp-session-id": headers["mcp-session-id"]}
    await conn.post(_INITIALIZED, session)
    return session


async def drive(
    port: int,
    vocab: list[str],
    clients: int,
    seconds: float,
    stateful: bool = False,
    server_pid: int | None = None,
) -> Level:
    """`clients` keep-alive clients for `seconds`; with `server_pid`, the calls each of its
    processes served (the connections are read from /proc before they are closed)."""
    level = Level(clients)
    stop = time.perf_counter() + seconds
    conns: list[Connection] = []

    async def client(index: int) -> None:
        conn = Connection(port)
        conns.append(conn)
        session = await _open_session(conn) if stateful else {}
        i = index * 37
        while time.perf_counter() < stop:
            word = vocab[i % len(vocab)]
            i += 1
            t0 = time.perf_counter()
            try:
                status, _h, data = await conn.post(_call(i, word), session)
                ok = _ok(status, data)
            except (OSError, ValueError, asyncio.IncompleteReadError):
                ok = False
                conn.close()
                conn = Connection(port)
                conns.append(conn)
            level.latencies.append(time.perf_counter() - t0)
            level.calls += 1
            level.errors += not ok
            level.by_port[conn.local_port] += 1

    start = time.perf_counter()
    try:
        await asyncio.gather(*(client(k) for k in range(clients)))
        level.seconds = time.perf_counter() - start
        if server_pid is not None:
            holder = served_by(server_pid, port)
            for client_port, calls in level.by_port.items():
                if client_port in holder:
                    level.by_worker[holder[client_port]] += calls
    finally:
        for conn in conns:
            conn.close()
    return level


def throughput(args: argparse.Namespace, vocab: list[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    runs: list[tuple[int, str, int, bool]] = []
    for round_ in range(1, args.rounds + 1):
        kinds = ("trivial", "lexicon") if round_ % 2 else ("lexicon", "trivial")
        runs += [(round_, kind, workers, False) for workers in args.workers for kind in kinds]
    if args.stateful:
        # The set-up for comparison: protocol sessions, one process.
        runs += [(1, "trivial", 1, True), (1, "lexicon", 1, True)]
    for round_, kind, workers, stateful in runs:
        extra = [] if stateful else ["--stateless"]
        # Stateful rows keep the SDK's SSE answers too: the set-up the issue measured.
        with server(kind, args.data_dir, workers, extra, not stateful) as (port, pid):
            asyncio.run(drive(port, vocab, 8, args.warmup, stateful))
            for clients in args.levels:
                level = asyncio.run(drive(port, vocab, clients, args.seconds, stateful, pid))
                level.rss = rss_mib(pid)
                mode = "sessions, SSE" if stateful else "stateless, JSON"
                row = {"round": round_, "server": kind, "mode": mode, "workers": workers}
                row.update(level.row())
                print(_fmt(row), flush=True)
                rows.append(row)
    return rows


def ratios(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The look-up's calls/s and p99 over the trivial tool's, per round, workers and level."""
    out = []
    key = lambda r: (r["round"], r["mode"], r["workers"], r["clients"])  # noqa: E731
    trivial = {key(r): r for r in rows if r["server"] == "trivial"}
    for row in rows:
        base = trivial.get(key(row))
        if row["server"] != "lexicon" or base is None:
            continue
        out.append(
            {
                "round": row["round"],
                "mode": row["mode"],
                "workers": row["workers"],
                "clients": row["clients"],
                "calls/s ratio": f"{row['calls/s'] / base['calls/s']:.2f}",
                "p99 ratio": f"{row['p99 ms'] / base['p99 ms']:.2f}",
                "errors": row["errors"],
                "worker shares %": row["worker shares %"],
                "trivial's shares %": base["worker shares %"],
            }
        )
    return out


def soak(args: argparse.Namespace, vocab: list[str]) -> list[dict[str, Any]]:
    """32 clients for `args.soak` seconds against `--workers 2`; RSS per slice."""
    rows: list[dict[str, Any]] = []
    workers = max(args.workers)
    with server("lexicon", args.data_dir, workers, ["--stateless"]) as (port, pid):
        asyncio.run(drive(port, vocab, 8, args.warmup))
        slices = max(1, int(args.soak // 60))
        for k in range(slices):
            level = asyncio.run(drive(port, vocab, 32, args.soak / slices, server_pid=pid))
            level.rss = rss_mib(pid)
            row = {"minute": k + 1, "workers": workers, **level.row()}
            print(_fmt(row), flush=True)
            rows.append(row)
    return rows


async def _abandon(port: int, count: int, parallel: int = 16) -> tuple[int, int]:
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "abandoned", "version": "1"},
        },
    }
    body = json.dumps(init).encode()
    opened = refused = 0
    todo = iter(range(count))

    async def worker() -> None:
        nonlocal opened, refused
        conn = Connection(port)
        for _ in todo:
            status, headers, _data = await conn.post(body, {})
            if status == 200 and "mcp-session-id" in headers:
                opened += 1
            else:
                refused += 1
        conn.close()

    await asyncio.gather(*(worker() for _ in range(parallel)))
    return opened, refused


def sessions(args: argparse.Namespace, vocab: list[str]) -> list[dict[str, Any]]:
    """Open `args.sessions` sessions and abandon them; then a new SDK client must be served.
    The same against the trivial tool served by the SDK's own `run` (its defaults)."""
    return [_sessions(args, vocab, kind) for kind in ("lexicon", "sdk-defaults")]


def _sessions(args: argparse.Namespace, vocab: list[str], kind: str) -> dict[str, Any]:
    import anyio
    from mcp import Client

    with server(kind, args.data_dir, 1, []) as (port, pid):
        before = rss_mib(pid)
        t0 = time.perf_counter()
        opened, refused = asyncio.run(_abandon(port, args.sessions))
        took = time.perf_counter() - t0

        async def fresh() -> bool:
            try:
                with anyio.fail_after(30):
                    # legacy: open a protocol session, as the abandoned ones did
                    async with Client(f"http://127.0.0.1:{port}/mcp", mode="legacy") as client:
                        result = await client.call_tool("dictionary_lookup", {"word": vocab[0]})
                        return not result.is_error
            except Exception:
                return False

        served = anyio.run(fresh)
        row = {
            "server": kind,
            "sessions": args.sessions,
            "opened": opened,
            "refused": refused,
            "seconds": took,
            "new client served": served,
            "rss before MiB": before,
            "rss after MiB": rss_mib(pid),
        }
    print(_fmt(row), flush=True)
    return row


def _fmt(row: dict[str, Any]) -> str:
    return "  ".join(f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items())


def table(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return ""
    keys = list(rows[0])
    out = ["| " + " | ".join(keys) + " |", "|" + " --- |" * len(keys)]
    for row in rows:
        cells = [f"{row[k]:.1f}" if isinstance(row[k], float) else str(row[k]) for k in keys]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--levels", default="1,8,32,64")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=1, help="servers started in turns")
    parser.add_argument("--soak", type=float, default=0.0, help="seconds of soak at 32 clients")
    parser.add_argument("--sessions", type=int, default=0, help="sessions to open and abandon")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    parser.add_argument(
        "--stateful", action="store_true", help="also measure stateful sessions, 1 worker"
    )
    args = parser.parse_args()
    args.levels = [int(x) for x in args.levels.split(",")]
    args.workers = [int(x) for x in args.workers.split(",")]
    vocab = words(args.data_dir)
    print(f"{len(vocab)} words; load {os.getloadavg()[0]:.1f}; cpus {os.cpu_count()}", flush=True)
    result: dict[str, Any] = {}
    if args.soak:
        result["soak"] = soak(args, vocab)
        print(table(result["soak"]))
    elif args.sessions:
        result["sessions"] = sessions(args, vocab)
        print(table(result["sessions"]))
    else:
        result["throughput"] = throughput(args, vocab)
        print(table(result["throughput"]))
        result["ratios"] = ratios(result["throughput"])
        print()
        print(table(result["ratios"]))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
