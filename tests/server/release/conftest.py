"""A real nginx on loopback for the publishing tests: static GET plus WebDAV PUT.

`.ci/run` installs nginx from Debian (built with its WebDAV module);
where no nginx binary exists the tests that need it are skipped, saying so.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

_CONF = """
daemon off;
master_process on;
worker_processes 1;
{user}
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 64; }}
http {{
    access_log {prefix}/access.log;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    types {{ application/json json; }}
    default_type application/octet-stream;
    server {{
        listen 127.0.0.1:{port};
        root {root};
        client_max_body_size 0;
        location /dav/ {{
            alias {root}/;
            dav_methods PUT;
            create_full_put_path on;
            dav_access user:rw group:r all:r;
        }}
    }}
}}
"""


@dataclass(frozen=True)
class Nginx:
    root: Path  # what GET serves at /, and what PUT to /dav/ writes
    url: str  # http://127.0.0.1:PORT/
    dav: str  # http://127.0.0.1:PORT/dav/
    access_log: Path

    def puts(self) -> list[str]:
        """Paths PUT so far (from nginx's access log)."""
        lines = self.access_log.read_text().splitlines() if self.access_log.exists() else []
        return [line.split('"')[1].split()[1] for line in lines if '"PUT ' in line]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def nginx(tmp_path: Path) -> Iterator[Nginx]:
    binary = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.path.exists(p)), None
    )
    if binary is None:
        pytest.skip("nginx is not installed (`.ci/run` installs it: apt-get install nginx)")
    prefix = tmp_path / "nginx"
    root = tmp_path / "www"
    prefix.mkdir()
    root.mkdir()
    port = _free_port()
    user = "user root;" if os.geteuid() == 0 else ""
    conf = prefix / "nginx.conf"
    conf.write_text(_CONF.format(user=user, prefix=prefix, root=root, port=port))
    proc = subprocess.Popen(
        [binary, "-p", str(prefix), "-c", str(conf)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        for _ in range(200):
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(f"nginx did not start: {err}")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        else:
            pytest.fail("nginx never listened")
        url = f"http://127.0.0.1:{port}/"
        yield Nginx(root, url, url + "dav/", prefix / "access.log")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
