"""HTTPS: a private certificate authority via SSL_CERT_FILE works; a certificate the client
cannot verify fails at once with a message saying what to set, not after six retries."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl")


@pytest.fixture
def tls_server(served: Path, tmp_path: Path) -> Iterator[tuple[Any, Path]]:
    from lexicon_tests_net_loopback import LoopbackServer  # registered by conftest

    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    with LoopbackServer(served, tls=(cert, key)) as server:
        yield server, cert


def _fetch(
    url: str, dest: Path, digest: str, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("LEXICON_", "SSL_CERT"))}
    full.update(env)
    return subprocess.run(
        [sys.executable, "-m", "lexicon_store.cli", "fetch", "--version", "net-1.0.0",
         "--profile", "test", "--from", url, "--dest", str(dest), "--manifest-digest", digest,
         "--json"],
        capture_output=True, text=True, env=full, timeout=120,
    )  # fmt: skip


def test_fetch_over_https_with_a_private_ca(
    tls_server: tuple[Any, Path], served: Path, tmp_path: Path
) -> None:
    from lexicon_store.package import package_release

    server, cert = tls_server
    built = tmp_path / "built"
    built.mkdir()
    (built / "DATA_LICENSES.md").write_text("test data\n")
    (built / "dataset.json").write_text(
        json.dumps(
            {
                "format": 1,
                "dataset_version": "net-1.0.0",
                "profile": "test",
                "languages": {},
                "components": [
                    {"id": "shared.licenses", "language": None, "capability": "shared",
                     "path": "DATA_LICENSES.md"}
                ],
            }
        )
    )  # fmt: skip
    digest = package_release(built, served / "rel").manifest_digest
    url = f"{server.url}/rel/"

    refused = _fetch(url, tmp_path / "m1", digest, {})
    assert refused.returncode != 0
    error = json.loads(refused.stdout)["error"]
    assert "TLS failure" in error["message"] and "SSL_CERT_FILE" in error["fix"]
    assert server.requests == []  # the handshake failed: not one request was made

    ok = _fetch(url, tmp_path / "m2", digest, {"SSL_CERT_FILE": str(cert)})
    assert ok.returncode == 0, ok.stderr
    assert (tmp_path / "m2" / "manifest.json").read_bytes() == (
        served / "rel" / "manifest.json"
    ).read_bytes()
