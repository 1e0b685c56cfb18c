"""add-language fetches only what is new; remove-language writes nothing; the four reasons."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _support.store_cli import install_argv

from lexicon_store import ops
from lexicon_store.errors import SelectionError
from lexicon_store.selection import load_active


def test_add_language_copies_only_new_objects(release, data_dir: Path):
    ops.install(
        data_dir=data_dir,
        source=release.dir,
        languages=["en"],
        capabilities=["lexical"],
        manifest_digest=release.digest,
    )
    added = ops.add_language(data_dir=data_dir, source=release.dir, languages=["fr"])
    assert added.stats.copied == ["fr.lexical"]
    assert dict(load_active(data_dir).installed) == {"en": {"lexical"}, "fr": {"lexical"}}


def test_add_language_reports_missing_capability(release, data_dir: Path):
    ops.install(
        data_dir=data_dir, source=release.dir, languages=["en"], manifest_digest=release.digest
    )
    added = ops.add_language(
        data_dir=data_dir,
        source=release.dir,
        languages=["de"],
        capabilities=["lexical", "semantic"],
    )
    assert [(s.language, s.capability, s.reason) for s in added.shortfalls] == [
        ("de", "semantic", "not_available_upstream")
    ]


def test_add_language_needs_the_same_release(release, make_release, data_dir: Path):
    ops.install(
        data_dir=data_dir, source=release.dir, languages=["en"], manifest_digest=release.digest
    )
    other = make_release("test-1.0.0", seeds={"fr.lexical": 3})
    with pytest.raises(Exception, match="not the"):
        ops.add_language(data_dir=data_dir, source=other.dir, languages=["fr"])
    with pytest.raises(SelectionError, match="install --version"):
        ops.add_language(
            data_dir=data_dir, source=release.dir, languages=["fr"], version="test-2.0.0"
        )


def test_remove_language(release, data_dir: Path, snap):
    first = ops.install(
        data_dir=data_dir,
        source=release.dir,
        languages=["en", "fr"],
        manifest_digest=release.digest,
    )
    objects = {k: v for k, v in snap(data_dir).items() if k.startswith("objects/")}
    removed = ops.remove_language(data_dir=data_dir, languages=["fr"])
    assert removed.previous_activation == first.activation_id
    sel = load_active(data_dir)
    assert sel.availability("fr", "lexical") == "language_not_installed"
    assert "fr/lexical.sqlite" not in sel.files
    assert {k: v for k, v in snap(data_dir).items() if k.startswith("objects/")} == objects
    with pytest.raises(SelectionError) as info:
        ops.remove_language(data_dir=data_dir, languages=["xx"])
    assert info.value.reason == "unknown_language"
    with pytest.raises(SelectionError, match="nothing to serve"):
        ops.remove_language(data_dir=data_dir, languages=["en"])


def test_cli_reports_the_four_reasons_distinctly(release, data_dir: Path, cli):
    out = cli(
        "--data-dir",
        str(data_dir),
        *install_argv(release, "en,fr", "--capabilities", "lexical,wordplay", "--json"),
    )
    assert out.returncode == 0, out.stderr
    body = json.loads(out.stdout)
    assert body["shortfalls"] == [
        {"language": "fr", "capability": "wordplay", "reason": "not_available_upstream"}
    ]
    table = json.loads(cli("--data-dir", str(data_dir), "languages", "--json").stdout)
    caps = {row["code"]: row["capabilities"] for row in table["languages"]}
    assert caps["en"] == {"lexical": None, "wordplay": None, "semantic": "capability_not_installed"}
    assert caps["fr"]["semantic"] == "not_available_upstream"
    assert caps["de"]["lexical"] == "language_not_installed"
    one = json.loads(cli("--data-dir", str(data_dir), "languages", "xx", "--json").stdout)
    assert set(one["capabilities"].values()) == {"unknown_language"}

    bad = cli(
        "--data-dir",
        str(data_dir),
        *install_argv(release, "xx", "--json"),
    )
    assert bad.returncode == SelectionError.exit_code
    assert json.loads(bad.stdout)["error"]["reason"] == "unknown_language"
