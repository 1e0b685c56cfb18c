"""An install over HTTP killed with SIGKILL mid-download: the old selection stays active,
and the rerun fetches only the bytes no earlier run left on disk."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from _support.http_install import install_all_over_http
from _support.kill import kill_when

from lexicon_store.download import DownloadPolicy
from lexicon_store.integrity import verify
from lexicon_store.selection import load_active

_CHILD = """
import sys
from pathlib import Path
from lexicon_store import ops
ops.install(data_dir=Path(sys.argv[1]), source=sys.argv[2], all_languages=True,
            manifest_digest=sys.argv[3])
"""


def _on_disk(parts_dir: Path) -> dict[str, int]:
    """Bytes the killed run left per part: finished downloads and partial ones."""
    found: dict[str, int] = {}
    if parts_dir.is_dir():
        for path in parts_dir.iterdir():
            name = path.name
            if name.endswith(".partial.partial") or name.endswith(".partial"):
                found[name.split(".", 1)[0]] = max(
                    found.get(name.split(".", 1)[0], 0), path.stat().st_size
                )
    return found


def test_killed_install_resumes_with_only_missing_bytes(
    server: Any, upgrade: Any, policy: DownloadPolicy
) -> None:
    new, data = upgrade.new, upgrade.data
    old_activation = load_active(data).activation_id

    stalled = new.parts_of("en.lexical")[2]
    server.fault("stall", path=f"{new.name}/{stalled['path']}", after=40_000)
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, str(data), new.manifest_url, new.digest])
    partial = data / "tmp" / "parts" / (stalled["digest"].split(":")[1] + ".partial.partial")
    kill_when(proc, lambda: partial.exists() and partial.stat().st_size == 40_000)
    server.state.release.set()

    # The killed install changed nothing a reader sees.
    assert load_active(data).activation_id == old_activation
    assert verify(data).ok

    # What the rerun must still fetch: every part of the new release whose object is not
    # built yet, minus what already sits in tmp/parts.
    left = _on_disk(data / "tmp" / "parts")
    new_parts = {
        p["digest"].split(":")[1]: p["size"]
        for c in ("en.lexical", "en.wordplay", "fr.lexical", "shared.licenses")
        for p in new.parts_of(c)
    }
    manifest = json.loads((new.dir / "manifest.json").read_bytes())
    built = {
        p["digest"].split(":")[1]
        for c in manifest["components"]
        if (
            data / "objects" / "blake3" / c["object"]["digest"][7:9] / c["object"]["digest"][7:]
        ).exists()
        for p in c["parts"]
    }
    expected = sum(size - left.get(hx, 0) for hx, size in new_parts.items() if hx not in built)
    assert left[stalled["digest"].split(":")[1]] == 40_000

    server.clear()
    install_all_over_http(data, new, policy)
    manifest_size = (new.dir / "manifest.json").stat().st_size
    assert server.bytes_sent() - manifest_size == expected
    ranged = [r for r in server.requests if r.path.endswith(stalled["path"])]
    assert [r.range for r in ranged] == ["bytes=40000-"]
    selection = load_active(data)
    assert selection.manifest_digest == new.digest
    for rel, path in selection.files.items():
        assert path.read_bytes() == (new.built / rel).read_bytes()
