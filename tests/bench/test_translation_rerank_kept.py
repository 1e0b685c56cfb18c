"""The kept ranking input (bench/translation_rank_keep.py) of a real sample build, re-ranked
offline (bench/translation_rerank.py --kept) with the same weights, gives the build's own
order; with other weights it keeps every row and moves rows only within a word's ids."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_ROWS = "SELECT term_id, target_language, id, target_norm FROM translations ORDER BY 1, 2, 3"


def _run(*args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run([sys.executable, *args], cwd=ROOT, check=True, env=env, capture_output=True)


def _rows(built: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(built / "en" / "lexical.sqlite") as conn:
        return conn.execute(_ROWS).fetchall()


def test_a_kept_input_reranks_to_the_built_order(
    tmp_path: Path, sample_sources: dict[str, Path]
) -> None:
    kept, out = tmp_path / "kept.sqlite", tmp_path / "out"
    sources = [f"--source={name}={path}" for name, path in sample_sources.items()]
    env = {**os.environ, "LEXICON_BUILD_CACHE": str(tmp_path / "cache")}
    _run("bench/translation_rank_keep.py", "--kept", str(kept), "--", "--profile", "starter",
         "--out", str(out), "--only-given", *sources, env=env)  # fmt: skip
    rerank = ["bench/translation_rerank.py", "--built", str(out), "--kept", str(kept)]
    _run(*rerank, "--out", str(tmp_path / "same"))
    assert _rows(tmp_path / "same") == _rows(out)
    _run(*rerank, "--out", str(tmp_path / "other"), "--weight", "zipf=-5")
    built, other = _rows(out), _rows(tmp_path / "other")
    assert other != built
    blocks = {(t, lang): set() for t, lang, _, _ in built}
    for t, lang, row_id, _ in built:
        blocks[t, lang].add(row_id)
    for t, lang, row_id, _ in other:
        assert row_id in blocks[t, lang]
    assert sorted(r[3] for r in other) == sorted(r[3] for r in built)
