"""A real tmpfs mounted for one test (root only), or the test skipped saying why."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

__all__ = ["mounted_tmpfs"]


@contextmanager
def mounted_tmpfs(mount: Path, options: str) -> Iterator[Path]:
    """`mount` as a tmpfs with `options` (e.g. `size=256k`), unmounted afterwards."""
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(mount)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
