"""A build killed with SIGKILL resumes: finished stages are skipped, the rest redone, and
the result is byte-identical to an uninterrupted build."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest


def _build_argv(out: Path, sources: dict[str, Path]) -> list[str]:
    argv = [sys.executable, "-m", "lexicon_server.build_cli", "build", "--profile", "starter"]
    argv += ["--out", str(out), "--only-given", "--dataset-version", "sample-2026.11.0"]
    for name, path in sources.items():
        argv += ["--source", f"{name}={path}"]
    return argv


def _run(
    out: Path,
    cache: Path,
    sources: dict[str, Path],
    kill_at: str | None = None,
    jobs: int = 1,
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, LEXICON_BUILD_CACHE=str(cache))
    env.pop("LEXICON_BUILD_KILL_AT", None)
    if kill_at:
        env["LEXICON_BUILD_KILL_AT"] = kill_at
    argv = [*_build_argv(out, sources), "--jobs", str(jobs)]
    return subprocess.run(argv, env=env, capture_output=True, text=True, check=False)


def _digests(out: Path) -> dict[str, str]:
    dataset = json.loads((out / "dataset.json").read_text())
    return {
        c["path"]: hashlib.sha256((out / c["path"]).read_bytes()).hexdigest()
        for c in dataset["components"]
    }


@pytest.fixture(scope="module")
def clean_build(
    tmp_path_factory: pytest.TempPathFactory, sample_sources: dict[str, Path]
) -> dict[str, str]:
    root = tmp_path_factory.mktemp("clean")
    done = _run(root / "out", root / "cache", sample_sources)
    assert done.returncode == 0, done.stderr
    return _digests(root / "out")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("kill_at", "finished_before"),
    [
        # Killed inside the English lexical writer, with its temp database complete but
        # not yet renamed: nothing is finished, the stale temp file must not survive.
        # (MultiWordNet's alignment, which the English writer reads, has finished.)
        ("lexical:en:before-rename", ["shared.multiwordnet"]),
        # Killed after the wordplay file is in place but before its checkpoint.
        (
            "en.wordplay:written",
            [
                "shared.multiwordnet",
                "en.lexical",
                "en.gcide",
                "de.lexical",
                "fr.lexical",
                "it.lexical",
                "nl.lexical",
                "de.thesaurus",
                "fr.thesaurus",
                "en.semantic",
            ],
        ),
    ],
)
def test_killed_build_resumes_to_the_same_bytes(
    tmp_path: Path,
    clean_build: dict[str, str],
    sample_sources: dict[str, Path],
    kill_at: str,
    finished_before: list[str],
) -> None:
    out = tmp_path / "out"
    killed = _run(out, tmp_path / "cache", sample_sources, kill_at)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert not (out / "dataset.json").exists()

    resumed = _run(out, tmp_path / "cache", sample_sources)
    assert resumed.returncode == 0, resumed.stderr
    up_to_date = {
        line.split(":")[0] for line in resumed.stderr.splitlines() if line.endswith(": up to date")
    }
    assert up_to_date == set(finished_before)
    assert _digests(out) == clean_build
    leftovers = [p.name for p in out.rglob("*.tmp")]
    assert leftovers == []


@pytest.mark.slow
def test_a_finished_build_reruns_nothing(
    tmp_path: Path, clean_build: dict[str, str], sample_sources: dict[str, Path]
) -> None:
    out = tmp_path / "out"
    first = _run(
        out, tmp_path / "cache", sample_sources, jobs=2
    )  # stages side by side in worker processes
    assert first.returncode == 0, first.stderr
    assert _digests(out) == clean_build
    again = _run(out, tmp_path / "cache", sample_sources)
    assert again.returncode == 0
    assert "ran 0 stages" in again.stdout
