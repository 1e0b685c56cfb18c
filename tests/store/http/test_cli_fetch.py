"""The CLI as users run it: fetch from a template or LEXICON_MANIFEST_URL; no --manifest-url."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from _support.processes import environ_without, run_module


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = environ_without(lambda name: name.startswith("LEXICON_")) | (env or {})
    return run_module("lexicon_store.cli", *args, env=full, timeout=120)


def _tree(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in root.iterdir() if p.is_file()}


def test_fetch_with_template_then_default_url(server: Any, release: Any, tmp_path: Path) -> None:
    data = tmp_path / "data"
    template = f"{server.url}/{{version}}-1/"
    proc = _cli(
        "--data-dir", str(data), "fetch", "--version", release.version, "--profile", "test",
        "--from", template, "--dest", str(tmp_path / "m1"),
        "--manifest-digest", release.digest, "--json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["bytes_received"] == release.part_bytes and out["parts_reused"] == 0
    assert _tree(tmp_path / "m1") == _tree(release.dir)
    assert not data.exists()

    # LEXICON_MANIFEST_URL supplies the default template; a rerun into m1 is a no-op.
    env = {"LEXICON_MANIFEST_URL": f"{server.url}/{{version}}-1/manifest.json"}
    again = _cli(
        "fetch", "--version", release.version, "--languages", "fr", "--dest",
        str(tmp_path / "m1"), "--manifest-digest", release.digest, "--json", env=env,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["bytes_received"] == 0
    text = _cli(
        "fetch", "--version", release.version, "--profile", "test", "--dest",
        str(tmp_path / "m2"), "--manifest-digest", release.digest, env=env,
    )  # fmt: skip
    assert text.returncode == 0, text.stderr
    assert "lexicon-data install --from" in text.stdout
    assert _tree(tmp_path / "m2") == _tree(release.dir)


def test_fetch_needs_a_selection_and_reports_errors(
    server: Any, release: Any, tmp_path: Path
) -> None:
    usage = _cli("fetch", "--version", release.version, "--dest", str(tmp_path / "m"))
    assert usage.returncode == 2 and "--profile" in usage.stderr
    bad = _cli(
        "fetch", "--version", release.version, "--profile", "test", "--from",
        f"{server.url}/nowhere/", "--dest", str(tmp_path / "m"),
        "--manifest-digest", release.digest, "--json",
    )  # fmt: skip
    assert bad.returncode != 0
    error = json.loads(bad.stdout)["error"]
    assert "HTTP 404" in error["message"] and error["fix"]


def test_there_is_no_manifest_url_option(server: Any, release: Any, tmp_path: Path) -> None:
    # --from takes a directory or a URL; the project never shipped another name for it.
    proc = _cli(
        "--data-dir", str(tmp_path / "data"), "install", "--manifest-url", release.manifest_url,
        "--languages", "fr", "--manifest-digest", release.digest,
    )  # fmt: skip
    assert proc.returncode == 2 and "No such option '--manifest-url'" in proc.stderr
    assert not (tmp_path / "data" / "current").exists()
