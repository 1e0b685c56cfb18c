"""A real HTTP file server on loopback with switchable faults, for download tests.

Serves files under a root directory with Range, ETag and If-Range support, counts the
body bytes it sends, logs every request, and applies faults that tests switch on:

- ``status``: answer with ``status`` (500, 503, 429 with ``retry_after``, 416, 404) and no body
- ``drop``: send ``after`` body bytes, then cut the connection
- ``ignore_range``: answer a Range request with 200 and the whole file
- ``bad_content_range``: answer 206 with a Content-Range that does not match the request
- ``corrupt``: send the right length but flip a byte at ``after``
- ``stall``: send ``after`` body bytes, then go silent until released or ``stall_seconds``
- ``trickle``: send ``after`` body bytes, then 1 KiB every 50 ms
- ``etag_change``: bump the file's ETag from this request on (the bytes stay the same)
- ``ignore_if_range``: honour Range even when If-Range no longer matches

Runnable as a script for benchmarks: ``python tests/store/http/loopback.py ROOT`` prints the URL
and serves until its stdin closes; ``GET /__stats`` returns the body bytes sent so far.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import ssl
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

__all__ = ["Fault", "LoopbackServer", "RequestLog"]

_CHUNK = 256 * 1024
_FAST_CHUNK = 8 << 20


@dataclass
class Fault:
    kind: str
    path: str | None = None
    times: int = 1  # how many matching requests it hits; -1 for all
    status: int = 503
    after: int = 0
    retry_after: str | None = None
    only_ranged: bool = False
    hits: int = 0

    def matches(self, path: str, ranged: bool) -> bool:
        if self.times != -1 and self.hits >= self.times:
            return False
        if self.only_ranged and not ranged:
            return False
        return self.path is None or self.path == path


@dataclass(frozen=True)
class RequestLog:
    path: str
    range: str | None
    if_range: str | None
    status: int
    fault: str | None


@dataclass
class _State:
    root: Path
    faults: list[Fault] = field(default_factory=list)
    requests: list[RequestLog] = field(default_factory=list)
    sent: dict[str, int] = field(default_factory=dict)
    etag_generation: dict[str, int] = field(default_factory=dict)
    ignore_if_range: bool = False
    release: threading.Event = field(default_factory=threading.Event)
    stall_seconds: float = 30.0
    fast: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take_fault(self, path: str, ranged: bool) -> Fault | None:
        with self.lock:
            for fault in self.faults:
                if fault.matches(path, ranged):
                    fault.hits += 1
                    return fault
        return None

    def count(self, path: str, n: int) -> None:
        with self.lock:
            self.sent[path] = self.sent.get(path, 0) + n


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _log(self, path: str, status: int, fault: Fault | None) -> None:
        st = self.server.state
        with st.lock:
            st.requests.append(
                RequestLog(
                    path,
                    self.headers.get("Range"),
                    self.headers.get("If-Range"),
                    status,
                    fault.kind if fault else None,
                )
            )

    def _empty(self, path: str, status: int, fault: Fault | None, **headers: str) -> None:
        self._log(path, status, fault)
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key.replace("_", "-"), value)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        st = self.server.state
        rel = self.path.split("?", 1)[0].lstrip("/")
        if rel == "__stats":
            self._stats()
            return
        target = (st.root / rel).resolve()
        if st.root.resolve() not in target.parents or not target.is_file():
            self._empty(rel, 404, None)
            return
        size = target.stat().st_size
        range_header = self.headers.get("Range")
        fault = st.take_fault(rel, range_header is not None)
        if fault and fault.kind == "etag_change":
            with st.lock:
                st.etag_generation[rel] = st.etag_generation.get(rel, 0) + 1
        etag = f'"{size:x}-{st.etag_generation.get(rel, 0)}"'
        if fault and fault.kind == "status":
            extra = {"Retry_After": fault.retry_after} if fault.retry_after else {}
            if fault.status == 416:
                extra["Content_Range"] = f"bytes */{size}"
            self._empty(rel, fault.status, fault, **extra)
            return

        start, end = 0, size - 1
        status = 200
        if range_header and not (fault and fault.kind == "ignore_range"):
            if_range = self.headers.get("If-Range")
            if if_range is None or if_range == etag or st.ignore_if_range:
                parsed = _parse_range(range_header, size)
                if parsed is None:
                    self._empty(rel, 416, fault, Content_Range=f"bytes */{size}")
                    return
                start, end = parsed
                status = 206
        length = end - start + 1
        self._log(rel, status, fault)
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(length))
        self.send_header("ETag", etag)
        self.send_header("Accept-Ranges", "bytes")
        if status == 206:
            claimed = start
            if fault and fault.kind == "bad_content_range":
                claimed = max(0, start - 7)
            self.send_header("Content-Range", f"bytes {claimed}-{claimed + length - 1}/{size}")
        self.end_headers()
        self._send_body(rel, target, start, length, fault)

    def _stats(self) -> None:
        """Body bytes sent so far and requests served (for benchmarks in another process)."""
        st = self.server.state
        with st.lock:
            body = json.dumps({"sent": sum(st.sent.values()), "requests": len(st.requests)})
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_body(
        self, rel: str, target: Path, start: int, length: int, fault: Fault | None
    ) -> None:
        st = self.server.state
        cut = fault.after if fault and fault.kind in ("drop", "stall") else None
        with target.open("rb") as f:
            if fault is None and st.fast:
                # Zero-copy, counted as it goes so an interrupted transfer is still measured.
                pos = 0
                while pos < length:
                    try:
                        n = os.sendfile(
                            self.connection.fileno(),
                            f.fileno(),
                            start + pos,
                            min(_FAST_CHUNK, length - pos),
                        )
                    except OSError:
                        return
                    if n == 0:
                        return
                    st.count(rel, n)
                    pos += n
                return
            f.seek(start)
            pos = 0
            while pos < length:
                n = min(_CHUNK, length - pos)
                if cut is not None:
                    n = min(n, cut - pos)
                if fault is not None and fault.kind == "trickle" and pos >= fault.after:
                    n = min(n, 1024)
                    time.sleep(0.05)
                if n <= 0:
                    break
                block = bytearray(f.read(n))
                if fault and fault.kind == "corrupt" and pos <= fault.after < pos + n:
                    block[fault.after - pos] ^= 0xFF
                try:
                    self.wfile.write(block)
                except OSError:
                    return
                st.count(rel, len(block))
                pos += len(block)
        if cut is not None and pos < length:
            if fault is not None and fault.kind == "stall":
                st.release.wait(st.stall_seconds)
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)


def _parse_range(value: str, size: int) -> tuple[int, int] | None:
    unit, _, spec = value.partition("=")
    if unit.strip() != "bytes" or "," in spec:
        return None
    first, _, last = spec.strip().partition("-")
    if not first:
        if not last:
            return None
        n = int(last)
        return (max(0, size - n), size - 1) if n else None
    a = int(first)
    b = int(last) if last else size - 1
    if a >= size or b < a:
        return None
    return a, min(b, size - 1)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    state: _State

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients that vanish mid-request (killed on purpose by tests) are expected.
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


class LoopbackServer:
    """Context manager running the server in a thread on 127.0.0.1 and an ephemeral port."""

    def __init__(
        self, root: Path, *, fast: bool = False, tls: tuple[Path, Path] | None = None
    ) -> None:
        self.state = _State(root=root, fast=fast and tls is None)
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.state = self.state
        self._scheme = "http"
        if tls is not None:  # (certificate, key): serve HTTPS
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(str(tls[0]), str(tls[1]))
            self._httpd.socket = context.wrap_socket(self._httpd.socket, server_side=True)
            self._scheme = "https"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"{self._scheme}://{host!s}:{port}"

    def fault(self, kind: str, **kwargs: Any) -> Fault:
        fault = Fault(kind, **kwargs)
        with self.state.lock:
            self.state.faults.append(fault)
        return fault

    def clear(self) -> None:
        with self.state.lock:
            self.state.faults.clear()
            self.state.requests.clear()
            self.state.sent.clear()

    @property
    def requests(self) -> list[RequestLog]:
        with self.state.lock:
            return list(self.state.requests)

    def bytes_sent(self, path: str | None = None) -> int:
        with self.state.lock:
            if path is not None:
                return self.state.sent.get(path, 0)
            return sum(self.state.sent.values())

    def __enter__(self) -> LoopbackServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.state.release.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("root", type=Path)
    args = parser.parse_args()
    with LoopbackServer(args.root, fast=True) as server:
        print(server.url, flush=True)
        sys.stdin.read()  # serve until the parent closes our stdin


if __name__ == "__main__":
    main()
