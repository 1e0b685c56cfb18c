"""Issue 27 over HTTP: a redirect loop is a named error, and a link planted where a
download lands (a mirror's part or the data dir's `.partial`) is refused, not followed."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from _support.processes import environ_without, run_module

from lexicon_store import integrity, ops
from lexicon_store.download import DownloadPolicy
from lexicon_store.errors import SourceError, UnsafePath
from lexicon_store.fetch import fetch_release
from lexicon_store.http_source import HttpSource
from lexicon_store.selection import load_active


class _Loop(BaseHTTPRequestHandler):
    """Every path redirects to the next one, for ever."""

    def log_message(self, format: str, *args: Any) -> None:
        return None

    def do_GET(self) -> None:
        self.send_response(302)
        self.send_header("Location", self.path.rstrip("/") + "x/")
        self.send_header("Content-Length", "0")
        self.end_headers()


@pytest.fixture
def looping_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Loop)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/release/"
    finally:
        server.shutdown()
        server.server_close()


def test_a_redirect_loop_is_a_named_error(looping_url: str, upgrade: Any, tmp_path: Path) -> None:
    before = load_active(upgrade.data).activation_id
    env = environ_without(lambda name: name.startswith("LEXICON_"))
    proc = run_module(
        "lexicon_store.cli", "--data-dir", str(upgrade.data), "install", "--from", looping_url,
        "--all-languages", "--allow-unpinned", env=env, timeout=120,
    )  # fmt: skip
    assert proc.returncode == SourceError.exit_code, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "redirects in a loop" in proc.stderr and "\n  fix: " in proc.stderr
    assert load_active(upgrade.data).activation_id == before
    assert integrity.verify(upgrade.data).ok


def test_fetch_over_http_refuses_a_planted_partial_link(
    server: Any, release: Any, policy: DownloadPolicy, tmp_path: Path
) -> None:
    mirror = tmp_path / "mirror"
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"not yours")
    part = release.parts_of("en.lexical")[0]["path"]
    planted = mirror / f"{part}.partial"
    planted.parent.mkdir(parents=True)
    planted.symlink_to(victim)
    with pytest.raises(UnsafePath, match="symbolic link") as info:
        fetch_release(
            mirror,
            source=HttpSource(release.url, policy=policy),
            version=release.version,
            profile="test",
            manifest_digest=release.digest,
        )
    assert str(planted) in info.value.message and info.value.fix
    assert victim.read_bytes() == b"not yours"
    assert not (mirror / "manifest.json").exists()


def test_install_over_http_refuses_a_planted_partial_in_the_data_dir(
    upgrade: Any, policy: DownloadPolicy, tmp_path: Path
) -> None:
    before = load_active(upgrade.data).activation_id
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"not yours")
    first = upgrade.new.parts_of("en.lexical")[0]["digest"].partition(":")[2]
    parts = upgrade.data / "tmp" / "parts"
    parts.mkdir(parents=True, exist_ok=True)
    # The store downloads into <part hex>.partial through the downloader's own
    # <name>.partial; a link at either name must be refused.
    (parts / f"{first}.partial.partial").symlink_to(victim)
    with pytest.raises(UnsafePath):
        ops.install(
            data_dir=upgrade.data,
            source=HttpSource(upgrade.new.url, policy=policy),
            all_languages=True,
            manifest_digest=upgrade.new.digest,
        )
    assert victim.read_bytes() == b"not yours"
    assert load_active(upgrade.data).activation_id == before
    assert integrity.verify(upgrade.data).ok
