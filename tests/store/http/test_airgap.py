"""install --from a mirror with networking denied: no connection, not even an HTTP client.

The CLI runs in a fresh process whose audit hook raises on every socket connect or name
lookup; at exit the process reports whether httpx was ever imported (it must not be, so
no client can have been constructed).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from lexicon_store.download import DownloadPolicy
from lexicon_store.fetch import fetch_release
from lexicon_store.http_source import HttpSource
from lexicon_store.selection import load_active

_HOOK = """
import sys

def deny(event, args):
    if event in ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname"):
        raise OSError(f"network access denied by test: {event} {args!r}")

sys.addaudithook(deny)
"""

_DENY = (
    _HOOK
    + """
code = 0
try:
    from lexicon_store.cli import main
    sys.argv = ["lexicon-data", *sys.argv[1:]]
    main()
except SystemExit as exc:
    code = exc.code if isinstance(exc.code, int) else 1
finally:
    sys.stdout.flush()
    print("\\nHTTPX_IMPORTED=" + str("httpx" in sys.modules), file=sys.stderr)
sys.exit(code)
"""
)


def _run_denied(
    *args: str, env_extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-c", _DENY, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_install_from_mirror_with_network_denied(
    server: Any, release: Any, policy: DownloadPolicy, tmp_path: Path
) -> None:
    mirror = tmp_path / "transfer" / release.version
    fetch_release(
        mirror, source=HttpSource(release.url, policy=policy), manifest_digest=release.digest
    )
    data = tmp_path / "airgapped-data"
    # Even a default manifest URL in the environment must not tempt the installer online.
    proc = _run_denied(
        "--data-dir",
        str(data),
        "install",
        "--from",
        str(mirror),
        "--version",
        release.version,
        "--all-languages",
        "--manifest-digest",
        release.digest,
        "--json",
        env_extra={"LEXICON_MANIFEST_URL": release.manifest_url},
    )
    assert proc.returncode == 0, proc.stderr
    assert "HTTPX_IMPORTED=False" in proc.stderr
    assert json.loads(proc.stdout)["dataset_version"] == release.version
    selection = load_active(data)
    for rel, path in selection.files.items():
        assert path.read_bytes() == (release.built / rel).read_bytes()


def test_the_denial_really_bites(server: Any, release: Any) -> None:
    # Control: under the same hook, an httpx request to the live server cannot connect.
    probe = _HOOK + f"import httpx\nhttpx.get({release.manifest_url!r})\n"
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert "network access denied by test" in proc.stderr
    assert server.requests == []
