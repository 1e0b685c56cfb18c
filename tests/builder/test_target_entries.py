"""`translations.target_entry`: the builder's answer to "does the target word have an entry
here?", checked against the target databases themselves, and stable however often a
component is linked (killed, resumed and partly rebuilt builds give the same bytes), in
the table and in the term documents that repeat it."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic_core import from_json, to_json

from lexicon_server.builder.target_entries import link_target_entries


def _lexical(out: Path) -> dict[str, Path]:
    dataset = json.loads((out / "dataset.json").read_text())
    return {
        c["language"]: out / c["path"] for c in dataset["components"] if c["id"].endswith("lexical")
    }


def _norms_with_entries(path: Path) -> set[str]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        rows = conn.execute(
            "SELECT DISTINCT t.norm FROM terms t WHERE t.id IN (SELECT term_id FROM entries)"
        )
        return {r[0] for r in rows}


def _digests(out: Path) -> dict[str, str]:
    return {
        str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.rglob("*"))
        if p.is_file() and ".build" not in p.parts
    }


def test_target_entry_agrees_with_the_target_database(sample_dataset: Path) -> None:
    components = _lexical(sample_dataset)
    assert {"en", "fr", "de"} <= set(components)
    entries = {lang: _norms_with_entries(path) for lang, path in components.items()}
    seen: set[object] = set()
    for language, path in components.items():
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            rows = conn.execute(
                "SELECT target_language, target_norm, target_entry FROM translations"
            ).fetchall()
        for target, target_norm, flag in rows:
            if target in entries:
                assert flag == int(target_norm in entries[target]), (language, target, target_norm)
            else:
                assert flag is None, (language, target, target_norm)
            seen.add(flag)
    # The sample has words with and without an entry, and targets ('ja', 'pl') it builds
    # no lexical component for.
    assert seen == {0, 1, None}


def test_a_known_pair_is_marked(sample_dataset: Path) -> None:
    components = _lexical(sample_dataset)
    with sqlite3.connect(f"file:{components['en']}?mode=ro", uri=True) as conn:
        row = conn.execute(
            "SELECT target_norm FROM translations WHERE target_language = 'fr'"
            " AND target_entry = 1 LIMIT 1"
        ).fetchone()
    assert row is not None
    assert row[0] in _norms_with_entries(components["fr"])


def test_relinking_gives_the_same_bytes(tmp_path: Path, sample_dataset: Path) -> None:
    """A component linked before, even with wrong answers, relinks to the clean bytes."""
    copy = tmp_path / "copy"
    shutil.copytree(sample_dataset, copy)
    components = _lexical(copy)
    before = _digests(copy)
    link_target_entries(components)
    assert _digests(copy) == before
    with sqlite3.connect(components["en"], isolation_level=None) as conn:
        conn.execute("UPDATE translations SET target_entry = 1 - target_entry")
        conn.execute("UPDATE translations SET target_entry = 0 WHERE target_entry IS NULL")
    assert _digests(copy) != before
    link_target_entries(components)
    assert _digests(copy) == before


def test_relinking_restores_the_flags_in_term_documents(
    tmp_path: Path, sample_dataset: Path
) -> None:
    """Documents whose flags went wrong are rewritten in place to the clean bytes."""
    copy = tmp_path / "copy"
    shutil.copytree(sample_dataset, copy)
    components = _lexical(copy)
    before = _digests(copy)
    with sqlite3.connect(components["en"], isolation_level=None) as conn:
        wrong = []
        for term_id, doc in conn.execute("SELECT term_id, doc FROM term_docs").fetchall():
            count, senses, prons, unsensed = from_json(doc)
            for row in unsensed:
                row[5] = (row[5] + 1) % 3
            for sense in senses:
                for row in sense[11]:
                    row[5] = (row[5] + 1) % 3
            wrong.append((to_json([count, senses, prons, unsensed]), term_id))
        conn.executemany("UPDATE term_docs SET doc = ? WHERE term_id = ?", wrong)
    assert _digests(copy) != before
    counts = link_target_entries(components)
    assert counts["term_docs_rewritten"] > 0
    assert _digests(copy) == before


def _cli_build(
    out: Path, cache: Path, sources: dict[str, Path], kill_at: str | None = None
) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "lexicon_server.build_cli", "build", "--profile", "starter"]
    argv += ["--out", str(out), "--only-given", "--dataset-version", "sample-2026.11.0"]
    argv += ["--jobs", "1"]  # one stage at a time: the kill lands in the builder itself
    for name, path in sources.items():
        argv += ["--source", f"{name}={path}"]
    env = dict(os.environ, LEXICON_BUILD_CACHE=str(cache))
    env.pop("LEXICON_BUILD_KILL_AT", None)
    if kill_at:
        env["LEXICON_BUILD_KILL_AT"] = kill_at
    return subprocess.run(argv, env=env, capture_output=True, text=True, check=False)


def _up_to_date(stderr: str) -> set[str]:
    return {line.split(":")[0] for line in stderr.splitlines() if line.endswith(": up to date")}


@pytest.mark.slow
def test_killed_while_linking_resumes_to_the_same_bytes(
    tmp_path: Path, sample_dataset: Path, sample_sources: dict[str, Path]
) -> None:
    out = tmp_path / "out"
    # 'de' is linked first and already renamed into place when 'en' is killed.
    killed = _cli_build(out, tmp_path / "cache", sample_sources, "target-entries:en:before-rename")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    resumed = _cli_build(out, tmp_path / "cache", sample_sources)
    assert resumed.returncode == 0, resumed.stderr
    assert "shared.target_entries" not in _up_to_date(resumed.stderr)
    assert {"en.lexical", "de.lexical", "fr.lexical", "en.wordplay"} <= _up_to_date(resumed.stderr)
    assert _digests(out) == _digests(sample_dataset)
    assert [p.name for p in out.rglob("*.tmp")] == []


@pytest.mark.slow
def test_a_rebuilt_component_is_linked_again(
    tmp_path: Path, sample_dataset: Path, sample_sources: dict[str, Path]
) -> None:
    """Only 'fr' is rewritten (with no answers yet); linking reruns over every component."""
    from lexicon_server.builder.config import BuildConfig
    from lexicon_server.builder.pipeline import build

    out = tmp_path / "out"
    shutil.copytree(sample_dataset, out)
    (out / "fr" / "lexical.sqlite").unlink()
    result = build(
        "starter",
        out,
        config=BuildConfig(cache_dir=tmp_path / "cache"),
        lock=None,
        overrides=sample_sources,
        dataset_version="sample-2026.11.0",
        fetch=False,
        only_given=True,
    )
    # A language's derived vectors are made from its own lexical component's translations
    # (issue 17), so only French's are made again, before linking rewrites the components.
    assert result.ran == ["fr.lexical", "fr.semantic", "shared.target_entries"]
    assert _digests(out) == _digests(sample_dataset)
    for checkpoint in (out / ".build").glob("*.json"):
        for rel, expected in json.loads(checkpoint.read_text())["outputs"].items():
            assert hashlib.sha256((out / rel).read_bytes()).hexdigest() == expected["sha256"]
