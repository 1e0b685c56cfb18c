"""The CLI renders library results: --json on read-only commands, errors with their fix."""

from __future__ import annotations

import json
from pathlib import Path

from _support.store_cli import install_argv
from click.testing import CliRunner

from lexicon_store.cli import cli


def _run(data_dir: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--data-dir", str(data_dir), *args])
    return result.exit_code, result.stdout, result.stderr


def test_status_before_anything_is_installed(data_dir: Path):
    code, out, _ = _run(data_dir, "status")
    assert code == 0
    assert "install --version" in out and "--data-dir" in out
    code, out, _ = _run(data_dir, "status", "--json")
    assert json.loads(out)["active"] is None
    code, _, err = _run(data_dir, "verify")
    assert code != 0 and "fix: lexicon-data" in err


def test_lifecycle_through_the_cli(release, data_dir: Path):
    code, out, err = _run(
        data_dir,
        *install_argv(release, "en"),
    )
    assert code == 0, err
    code, out, err = _run(
        data_dir, "add-language", "--from", str(release.dir), "--languages", "fr", "--json"
    )
    assert code == 0, err
    added = json.loads(out)
    assert added["installed"]["fr"] == ["lexical"] and added["objects_copied"] == 1

    code, out, _ = _run(data_dir, "activations", "--json")
    listing = json.loads(out)
    assert len(listing["activations"]) == 2
    assert listing["current"] == added["activation_id"]
    first = listing["activations"][0]["activation_id"]

    code, out, _ = _run(data_dir, "activate", "--activation", first)
    assert code == 0 and f"activate --activation {added['activation_id']}" in out

    code, out, _ = _run(data_dir, "status", "--json")
    status = json.loads(out)
    assert status["active"]["activation_id"] == first
    assert status["retained_activations"] == 2

    # A plain prune keeps every retained activation, so it has nothing to free here.
    code, out, _ = _run(data_dir, "prune", "--dry-run", "--json")
    assert json.loads(out)["dropped_activations"] == [] and json.loads(out)["objects"] == []
    code, _, err = _run(data_dir, "prune", "--keep", "0")
    assert code == 2 and "--drop-activations" in err

    code, out, _ = _run(
        data_dir, "prune", "--drop-activations", "--keep", "0", "--dry-run", "--json"
    )
    plan = json.loads(out)
    assert plan["dropped_activations"] == [added["activation_id"]]
    # Only French's object is unreferenced once the en+fr activation is dropped.
    from lexicon_store.selection import read_activation

    fr = read_activation(data_dir, added["activation_id"]).files["fr/lexical.sqlite"]
    assert [o["path"] for o in plan["objects"]] == [str(fr)]
    code, out, _ = _run(data_dir, "prune", "--drop-activations", "--keep", "0")
    assert code == 0 and "1 objects" in out
    code, out, _ = _run(data_dir, "verify", "--json")
    assert json.loads(out)["ok"] is True

    code, _, err = _run(data_dir, "activate", "--activation", added["activation_id"])
    assert code != 0 and "lexicon-data activations" in err
