"""docs/deploying.md's scale-out, on loopback: two stateless replicas behind real nginx.

Skipped where nginx is not installed (`apt-get install -y nginx`; .ci/run installs it).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import anyio
import pytest
from mcp import Client

NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
)
pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed")

CONF = """
worker_processes 1;
pid {root}/nginx.pid;
error_log {root}/error.log warn;
events {{ worker_connections 256; }}
http {{
    log_format upstreams '$upstream_addr $status';
    access_log {root}/access.log upstreams;
    client_body_temp_path {root}/body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
    upstream lexicon {{
        server 127.0.0.1:{a};
        server 127.0.0.1:{b};
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{front};
        location /mcp {{
            proxy_pass http://lexicon;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_buffering off;
        }}
    }}
}}
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_listening(proc: subprocess.Popen[bytes], port: int) -> None:
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else "exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            assert time.monotonic() < deadline, f"nothing listens on {port}"
            time.sleep(0.1)


@contextmanager
def _process(cmd: list[str], port: int) -> Iterator[subprocess.Popen[bytes]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        _wait_listening(proc, port)
        yield proc
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_replicas_behind_nginx(mini_data_dir: Path, tmp_path: Path) -> None:
    assert NGINX is not None
    a, b, front = _free_port(), _free_port(), _free_port()
    (tmp_path / "nginx.conf").write_text(CONF.format(root=tmp_path, a=a, b=b, front=front))
    replica = [sys.executable, "-m", "lexicon_server.cli", "--data-dir", str(mini_data_dir)]
    replica += ["--transport", "streamable-http", "--stateless", "--json-response", "--port"]
    with ExitStack() as stack:
        for port in (a, b):
            stack.enter_context(_process([*replica, str(port)], port))
        nginx = [NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")]
        stack.enter_context(_process([*nginx, "-g", "daemon off;"], front))

        async def main() -> list[bool]:
            async with Client(f"http://127.0.0.1:{front}/mcp") as client:
                results = []
                for word in ("dog", "cat", "house", "dog", "cat", "house"):
                    result = await client.call_tool("dictionary_lookup", {"word": word})
                    results.append(not result.is_error)
                return results

        assert all(anyio.run(main))
    log = (tmp_path / "access.log").read_text().split("\n")
    served = {line.split()[0] for line in log if line.endswith(" 200")}
    assert served == {f"127.0.0.1:{a}", f"127.0.0.1:{b}"}, log
