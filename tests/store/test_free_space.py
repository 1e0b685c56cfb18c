"""Free space is checked before anything is written (a real, small tmpfs when we may
mount one), and a closed output pipe ends `lexicon-data` quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from _support.tmpfs import mounted_tmpfs
from click.testing import CliRunner

from lexicon_store import ops
from lexicon_store.cli import cli
from lexicon_store.errors import InsufficientSpace
from lexicon_store.space import space_needed


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs: smaller than the sample release's objects."""
    with mounted_tmpfs(tmp_path / "small", "size=256k") as mount:
        yield mount


def test_install_into_too_small_a_file_system_writes_nothing(
    small_fs: Path, sample_release: tuple[Path, str]
) -> None:
    release, digest = sample_release
    data_dir = small_fs / "data"
    result = CliRunner().invoke(
        cli,
        [
            "--data-dir",
            str(data_dir),
            "install",
            "--from",
            str(release),
            "--all-languages",
            "--manifest-digest",
            digest,
        ],
    )
    assert result.exit_code == InsufficientSpace.exit_code, result.output
    free = os.statvfs(small_fs).f_bavail * os.statvfs(small_fs).f_frsize
    assert "not enough free space" in result.output
    assert f"the file system has {free} bytes" in result.output
    assert "this needs " in result.output and "  fix: free at least " in result.output
    # Nothing was written but the writer lock: not an object, not a temporary file.
    written = [p for p in small_fs.rglob("*") if p.is_file()]
    assert written == [data_dir / "lock"]


def test_the_figures_come_from_the_manifest(
    tmp_path: Path, sample_release: tuple[Path, str]
) -> None:
    from lexicon_store.layout import open_data_dir
    from lexicon_store.manifest import parse_manifest
    from lexicon_store.source import open_source

    release, digest = sample_release
    raw = (release / "manifest.json").read_bytes()
    manifest = parse_manifest(raw, digest)
    source = open_source(str(release))
    dd = open_data_dir(tmp_path / "data")
    need = space_needed(dd, source, manifest.components)
    assert need.objects == sum(
        {c.object.digest: c.object.size for c in manifest.components}.values()
    )
    assert need.downloads == 0  # a local release is read in place
    ops.install(data_dir=dd.root, source=str(release), all_languages=True, manifest_digest=digest)
    assert space_needed(dd, source, manifest.components).objects == 0  # all present now


def test_closed_output_pipe_ends_quietly(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # like `| head -0`: nobody will read
    proc = subprocess.run(
        [sys.executable, "-m", "lexicon_store.cli", "--data-dir", str(tmp_path), "status"],
        stdout=write_end,
        stderr=subprocess.PIPE,
        check=False,
        timeout=60,
    )
    os.close(write_end)
    assert proc.stderr.decode() == ""
    assert proc.returncode != 0
