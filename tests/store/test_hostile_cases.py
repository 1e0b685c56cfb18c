"""Issue 27's store cases, each reproduced from outside (the CLI in a fresh process, or
click's runner where a fault must be injected): a named error with an exit code and a
`fix:` line, and the previous install intact."""

from __future__ import annotations

import errno
import json
import os
import shlex
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _support.store_cli import install_argv
from _support.tmpfs import mounted_tmpfs
from click.testing import CliRunner

from lexicon_store import integrity, ops
from lexicon_store.cli import cli as store_cli
from lexicon_store.errors import (
    InsufficientSpace,
    IntegrityError,
    ManifestError,
    StoreError,
    UnsafePath,
)
from lexicon_store.selection import load_active


@pytest.fixture
def installed(release: Any, data_dir: Path) -> str:
    """English installed from the good release; returns the active activation id."""
    ops.install(
        data_dir=data_dir, source=release.dir, languages=["en"], manifest_digest=release.digest
    )
    return load_active(data_dir).activation_id


def _intact(data_dir: Path, activation_id: str) -> None:
    assert load_active(data_dir).activation_id == activation_id
    assert integrity.verify(data_dir).ok


def _named_error(proc: subprocess.CompletedProcess[str], error: type[StoreError]) -> None:
    assert proc.returncode == error.exit_code, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("error: "), proc.stderr
    assert "\n  fix: " in proc.stderr, proc.stderr


def _with_data_dir(data_dir: Path, *argv: str) -> list[str]:
    return ["--data-dir", str(data_dir), *argv]


# --- 1. a failed install never deletes a live object ----------------------------------------


def test_a_manifest_lying_about_an_installed_objects_size_keeps_the_object(
    release: Any, data_dir: Path, installed: str, cli: Any
) -> None:
    body = release.manifest
    en = next(c for c in body["components"] if c["id"] == "en.lexical")
    en["object"]["size"] += 5  # same digest, another size
    digest = release.write_manifest(body)
    target = load_active(data_dir).files["en/lexical.sqlite"]
    before = target.read_bytes()

    proc = cli(
        *_with_data_dir(data_dir, *install_argv(release, "en,fr")[:-2]),
        "--manifest-digest",
        digest,
    )
    _named_error(proc, IntegrityError)
    assert "en.lexical" in proc.stderr and "inconsistent" in proc.stderr
    assert target.read_bytes() == before  # still there, same bytes
    _intact(data_dir, installed)


# --- 2. links planted where the store writes --------------------------------------------------


def _first_part(release: Any) -> str:
    return str(release.manifest["components"][0]["parts"][0]["path"])


def _fetch_argv(release: Any, mirror: Path) -> list[str]:
    return [
        "fetch", "--version", "test-1.0.0", "--profile", "test", "--from", str(release.dir),
        "--dest", str(mirror), "--manifest-digest", release.digest,
    ]  # fmt: skip


@pytest.mark.parametrize("where", ["partial", "final"])
def test_fetch_refuses_a_link_planted_as_a_part(
    release: Any, tmp_path: Path, cli: Any, where: str
) -> None:
    mirror = tmp_path / "mirror"
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"not yours")
    part = _first_part(release)
    name = mirror / (part + (".partial" if where == "partial" else ""))
    name.parent.mkdir(parents=True)
    name.symlink_to(victim)

    proc = cli(*_fetch_argv(release, mirror))
    _named_error(proc, UnsafePath)
    assert str(name) in proc.stderr and "symbolic link" in proc.stderr
    assert victim.read_bytes() == b"not yours"
    assert not (mirror / "manifest.json").exists()  # the mirror is not declared complete
    # A rerun says the same: the link is never taken for a valid part.
    _named_error(cli(*_fetch_argv(release, mirror)), UnsafePath)


def test_fetch_refuses_a_linked_directory_inside_the_mirror(
    release: Any, tmp_path: Path, cli: Any
) -> None:
    mirror = tmp_path / "mirror"
    outside = tmp_path / "outside"
    outside.mkdir()
    part = _first_part(release)
    mirror.mkdir()
    (mirror / part.split("/")[0]).symlink_to(outside, target_is_directory=True)
    _named_error(cli(*_fetch_argv(release, mirror)), UnsafePath)
    assert list(outside.iterdir()) == []


def test_install_refuses_a_link_planted_as_an_object(
    release: Any, data_dir: Path, installed: str, tmp_path: Path, cli: Any
) -> None:
    fr = next(c for c in release.manifest["components"] if c["id"] == "fr.lexical")
    hexdigest = fr["object"]["digest"].partition(":")[2]
    planted = data_dir / "objects" / "blake3" / hexdigest[:2] / hexdigest
    planted.parent.mkdir(parents=True, exist_ok=True)
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"x" * fr["object"]["size"])  # even the right size is not trusted
    planted.symlink_to(victim)

    proc = cli(*_with_data_dir(data_dir, *install_argv(release, "en,fr")))
    _named_error(proc, UnsafePath)
    assert str(planted) in proc.stderr
    assert victim.read_bytes() == b"x" * fr["object"]["size"]
    _intact(data_dir, installed)


# --- 8. the disk fills up mid-write ---------------------------------------------------------


@pytest.fixture
def few_inodes(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs with room for bytes but few inodes (a real one, when we may mount it)."""
    with mounted_tmpfs(tmp_path / "few-inodes", "size=16m,nr_inodes=64") as mount:
        yield mount


def test_inode_exhaustion_mid_install_exits_9_with_a_fix(
    release: Any, few_inodes: Path, cli: Any
) -> None:
    data_dir = few_inodes / "data"
    ops.install(
        data_dir=data_dir, source=release.dir, languages=["en"], manifest_digest=release.digest
    )
    before = load_active(data_dir).activation_id
    filler = few_inodes / "filler"
    filler.mkdir()
    with pytest.raises(OSError) as full:  # use up every inode left: the space check cannot see it
        for n in range(10_000):
            (filler / str(n)).touch()
    assert full.value.errno == errno.ENOSPC

    proc = cli(*_with_data_dir(data_dir, *install_argv(release, "en,fr")))
    _named_error(proc, InsufficientSpace)
    assert str(data_dir) in proc.stderr
    # 12: the fix's command names this data dir.
    assert f"lexicon-data --data-dir {data_dir} prune" in proc.stderr
    _intact(data_dir, before)
    # Freeing the inodes is the fix: the same command then finishes.
    for path in filler.iterdir():
        path.unlink()
    again = cli(*_with_data_dir(data_dir, *install_argv(release, "en,fr")))
    assert again.returncode == 0, again.stderr


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT])
def test_a_write_failing_for_space_or_quota_exits_9_with_a_fix(
    release: Any, data_dir: Path, installed: str, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    """No quota can be set up here, so the error is injected at the write seam of the
    object builder (every object byte goes through ``ingest._write_all``)."""

    def full(fd: int, data: memoryview) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr("lexicon_store.ingest._write_all", full)
    result = CliRunner().invoke(store_cli, _with_data_dir(data_dir, *install_argv(release, "fr")))
    assert result.exit_code == InsufficientSpace.exit_code, result.output
    assert f"  fix: free space there (`lexicon-data --data-dir {data_dir} prune`" in result.output
    _intact(data_dir, installed)


# --- 9. permission damage is found and mended -------------------------------------------------


def test_an_unreadable_object_is_reported_and_repaired(
    release: Any, data_dir: Path, installed: str, cli: Any
) -> None:
    target = load_active(data_dir).files["en/lexical.sqlite"]
    os.chmod(target, 0)

    proc = cli(*_with_data_dir(data_dir, "verify", "--json"))
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert [(p["component"], p["kind"]) for p in report["problems"]] == [
        ("en.lexical", "unreadable")
    ]
    plain = cli(*_with_data_dir(data_dir, "verify"))
    assert "unreadable: en/lexical.sqlite (en.lexical" in plain.stdout
    fix = plain.stderr.split("fix: ", 1)[1].strip()
    # 12: the fix names this data dir and the release the install came from, and runs as printed.
    assert fix == report["fix"]
    argv = shlex.split(fix)
    assert argv[:3] == ["lexicon-data", "--data-dir", str(data_dir)]
    assert argv[3:] == ["repair", "--from", str(release.dir.resolve())]
    mended = cli(*argv[1:])
    assert mended.returncode == 0, mended.stderr
    assert mended.stdout.startswith("1 damaged,")
    assert stat.S_IMODE(target.stat().st_mode) == 0o444
    _intact(data_dir, installed)


# --- 10. hostile manifests are named errors, not tracebacks ----------------------------------


def _nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda body: body.update(schemas={"lexical": "one"}), id="schema-string"),
        pytest.param(lambda body: body.update(schemas=None), id="schemas-null"),
        pytest.param(
            lambda body: body["components"][0]["object"].update(size=10**400), id="huge-size"
        ),
        pytest.param(
            lambda body: body["components"][0]["parts"][0].update(size=10**400),
            id="huge-part-size",
        ),
        pytest.param(lambda body: body["components"][0].update(language=["en"]), id="list-lang"),
        pytest.param(lambda body: body.update(format=True), id="format-true"),
        pytest.param(None, id="nested-100k"),
    ],
)
def test_hostile_manifest_is_a_named_error(
    release: Any, data_dir: Path, installed: str, cli: Any, make: Any
) -> None:
    if make is None:
        data = _nested(100_000)
    else:
        body = release.manifest
        make(body)
        data = json.dumps(body).encode()
    (release.dir / "manifest.json").write_bytes(data)
    proc = cli(
        *_with_data_dir(data_dir, "install", "--from", str(release.dir), "--languages", "en,fr"),
        "--allow-unpinned",
    )
    _named_error(proc, ManifestError)
    _intact(data_dir, installed)
