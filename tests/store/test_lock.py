"""One writer at a time: a second process holding the lock makes a writer fail at once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lexicon_store import gc, ops
from lexicon_store.errors import LockBusy
from lexicon_store.selection import load_active

HOLDER = """
import sys, time
from pathlib import Path
from lexicon_store.layout import DataDir
with DataDir(Path(sys.argv[1])).writer_lock():
    print("locked", flush=True)
    sys.stdin.readline()  # hold until the test says so
"""


def test_second_process_is_excluded_while_the_first_holds_the_lock(release, data_dir: Path):
    ops.install(
        data_dir=data_dir, source=release.dir, languages=["en"], manifest_digest=release.digest
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(data_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdin is not None
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(LockBusy, match=f"pid {holder.pid}"):
            ops.install(
                data_dir=data_dir,
                source=release.dir,
                languages=["fr"],
                manifest_digest=release.digest,
            )
        with pytest.raises(LockBusy):
            gc.prune(data_dir)
        # Readers never take the lock.
        assert load_active(data_dir).installed.keys() == {"en"}
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.wait(timeout=30) == 0
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    # Released when the holder exits: the same call now succeeds.
    ops.install(
        data_dir=data_dir, source=release.dir, languages=["fr"], manifest_digest=release.digest
    )
    assert load_active(data_dir).installed.keys() == {"fr"}


def test_lock_dies_with_its_process(release, data_dir: Path):
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(data_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "locked"
    holder.kill()  # a crashed writer must not leave a lock that blocks forever
    holder.wait()
    ops.install(
        data_dir=data_dir, source=release.dir, languages=["en"], manifest_digest=release.digest
    )
