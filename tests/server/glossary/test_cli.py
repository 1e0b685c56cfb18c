"""`lexicon-glossary`: the same library from a shell, for people and CI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from lexicon_server.glossary.cli import cli


def _run(path: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["--file", str(path), *args])
    return result.exit_code, result.output


def test_add_find_map_edit_delete(tmp_path: Path) -> None:
    path = tmp_path / "glossary.jsonl"
    assert _run(path, "add", "Batch Release", "Approval of a production batch.")[0] == 0
    assert _run(path, "add", "Production Batch", "One run.")[0] == 0
    code, out = _run(path, "add", "batch release", "dup")
    assert code == 1 and "exists already" in out
    code, out = _run(path, "find", "batch", "--json")
    assert code == 0
    assert [r["entry"]["term"] for r in json.loads(out)["results"]] == [
        "Batch Release",
        "Production Batch",
    ]
    code, out = _run(path, "map", "production batch", "--json")
    assert json.loads(out) == {
        "terms": [{"term": "Production Batch", "mentionedIn": ["Batch Release"]}]
    }
    code, out = _run(path, "edit", "PRODUCTION BATCH", "One production run.", "--json")
    assert code == 0 and json.loads(out) == {"totalEntries": 2}
    code, out = _run(path, "delete", "nope", "--json")
    assert code == 1 and json.loads(out) == {"error": {"message": "term not found"}}
    code, out = _run(path, "delete", "batch release")
    assert code == 0 and "1 entries left" in out
    assert path.read_text(encoding="utf-8") == (
        '{"term":"Production Batch","description":"One production run."}\n'
    )


def test_check_ok_and_broken(tmp_path: Path) -> None:
    path = tmp_path / "glossary.jsonl"
    path.write_text('{"term":"A","description":"a"}\n\n{"term":"a","description":"b"}\n', "utf-8")
    code, out = _run(path, "check")
    assert code == 1 and f"{path}:3: duplicate term" in out
    path.write_text('{"term":"A","description":"a"}\n', "utf-8")
    assert _run(path, "check") == (0, f"{path}: ok, 1 entries\n")


def test_console_script_uses_the_environment_variable(tmp_path: Path) -> None:
    script = shutil.which("lexicon-glossary", path=str(Path(sys.executable).parent))
    assert script is not None
    env = {**os.environ, "LEXICON_GLOSSARY": str(tmp_path / "env.jsonl")}
    done = subprocess.run(
        [script, "add", "Takt", "Rhythm."], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "env.jsonl").read_text(encoding="utf-8").startswith('{"term":"Takt"')
