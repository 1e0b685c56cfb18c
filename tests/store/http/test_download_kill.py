"""A download killed with SIGKILL resumes: the rerun fetches only the bytes it lacked.

Also: a partial held by a live process is never written by another one.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _support.kill import kill_when

from lexicon_store.download import (
    Downloader,
    DownloadItem,
    DownloadPolicy,
    file_digest,
    partial_path,
    stale_partials,
)

MiB = 1024 * 1024

_CHILD = """
import json, sys
from pathlib import Path
from lexicon_store.download import Downloader, DownloadItem, DownloadPolicy
items = [DownloadItem(d["url"], Path(d["dest"]), d["size"], d["digest"], d["name"])
         for d in json.loads(sys.argv[1])]
Downloader(DownloadPolicy(parallel=3, read_timeout=60)).download(items)
"""


def _spawn(items: list[DownloadItem]) -> subprocess.Popen[bytes]:
    payload = json.dumps(
        [
            {"url": i.url, "dest": str(i.dest), "size": i.size, "digest": i.digest, "name": i.name}
            for i in items
        ]
    )
    return subprocess.Popen([sys.executable, "-c", _CHILD, payload])


def _wait_for(condition: Callable[[], bool], proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while not condition():
        assert proc.poll() is None, "the child exited before reaching the kill point"
        assert time.monotonic() < deadline, "the child never reached the kill point"
        time.sleep(0.02)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return -1


def test_sigkill_then_rerun_downloads_only_missing_bytes(
    server: Any, files: Any, policy: DownloadPolicy
) -> None:
    small = [files.add(f"small-{i}.zst", MiB + i) for i in range(2)]
    big = files.add("big.zst", 6 * MiB)
    server.fault("stall", path="big.zst", after=2 * MiB)
    proc = _spawn([*small, big])
    # The server sent exactly 2 MiB of the big part; wait until all of it is on disk.
    stalled = partial_path(big.dest)
    kill_when(proc, lambda: all(i.dest.exists() for i in small) and _size(stalled) == 2 * MiB)
    server.state.release.set()
    assert not big.dest.exists()
    kept = partial_path(big.dest).stat().st_size
    assert kept == 2 * MiB

    server.clear()
    results = Downloader(policy).download([*small, big])
    assert [r.reused for r in results] == [True, True, False]
    assert results[2].resumed_from == kept
    # Only the missing bytes crossed the wire, in one ranged request.
    assert server.bytes_sent() == big.size - kept
    assert [(r.path, r.range) for r in server.requests] == [("big.zst", f"bytes={kept}-")]
    for item in [*small, big]:
        assert file_digest(item.dest) == item.digest


def test_live_partial_is_exclusive_and_taken_over_after_kill(
    server: Any, files: Any, policy: DownloadPolicy, tmp_path: Path
) -> None:
    item = files.add("p.zst", 4 * MiB)
    server.fault("stall", after=MiB)
    proc = _spawn([item])
    waiter: threading.Thread | None = None
    try:
        _wait_for(lambda: _size(partial_path(item.dest)) == MiB, proc)
        # A live writer holds the partial: prune must not see it as stale.
        assert stale_partials(item.dest.parent) == []
        results: list[Any] = []
        waiter = threading.Thread(
            target=lambda: results.extend(Downloader(policy).download([item]))
        )
        waiter.start()
        waiter.join(timeout=0.5)
        # The second downloader waits on the lock instead of requesting anything.
        assert waiter.is_alive()
        assert len(server.requests) == 1
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        server.state.release.set()
        waiter.join(timeout=60)
        assert not waiter.is_alive()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    [result] = results
    assert result.resumed_from == MiB
    assert file_digest(item.dest) == item.digest
    assert server.requests[-1].range == f"bytes={MiB}-"
