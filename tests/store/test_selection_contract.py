"""Contract test for the stdlib-only reader: a data dir written by hand, exactly as
docs/release-format.md ("The data dir") describes it, is read back by load_active."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lexicon_store.selection import (
    NoActiveSelection,
    default_data_dir,
    load_active,
)

HEX = "ab" + "0" * 62


def _write_documented_layout(root: Path, pointer_format: int = 1, record_format: int = 1) -> None:
    (root / "activations").mkdir(parents=True)
    record = {
        "format": record_format,
        "activation_id": "3f2a9c1d0e4b5a67",
        "created": "2026-11-30T09:00:00Z",
        "dataset_version": "starter-2026.11.0",
        "manifest_digest": "blake3:" + "c" * 64,
        "manifest_object": "blake3:" + "c" * 64,
        "profile": "starter",
        "languages": {
            "en": {"name": "English", "capabilities": ["lexical", "semantic", "wordplay"]},
            "fr": {"name": "French", "capabilities": ["lexical"]},
            "de": {"name": "German", "capabilities": ["lexical"]},
        },
        "installed": {"en": ["lexical", "wordplay"], "fr": ["lexical"]},
        "components": [
            {
                "id": "en.lexical",
                "language": "en",
                "capability": "lexical",
                "path": "en/lexical.sqlite",
                "object": "blake3:" + HEX,
                "size": 10,
            },
            {
                "id": "shared.licenses",
                "language": None,
                "capability": "shared",
                "path": "DATA_LICENSES.md",
                "object": "blake3:" + "cd" * 32,
                "size": 3,
            },
        ],
    }
    (root / "activations" / "3f2a9c1d0e4b5a67.json").write_text(json.dumps(record))
    (root / "current").write_text(
        json.dumps({"format": pointer_format, "activation": "3f2a9c1d0e4b5a67"})
    )


def test_reads_documented_layout(tmp_path: Path) -> None:
    _write_documented_layout(tmp_path)
    sel = load_active(tmp_path)
    assert sel.activation_id == "3f2a9c1d0e4b5a67"
    assert sel.dataset_version == "starter-2026.11.0"
    assert sel.manifest_digest == "blake3:" + "c" * 64
    assert sel.profile == "starter"
    assert sel.language_names["de"] == "German"
    assert sel.catalogue["en"] == frozenset({"lexical", "semantic", "wordplay"})
    assert sel.installed == {"en": frozenset({"lexical", "wordplay"}), "fr": frozenset({"lexical"})}
    assert sel.files["en/lexical.sqlite"] == tmp_path / "objects" / "blake3" / "ab" / HEX
    assert sel.files["DATA_LICENSES.md"].name == "cd" * 32


def test_four_reasons_are_distinct(tmp_path: Path) -> None:
    _write_documented_layout(tmp_path)
    sel = load_active(tmp_path)
    assert sel.availability("en", "lexical") is None
    assert sel.availability("xx", "lexical") == "unknown_language"
    assert sel.availability("fr", "semantic") == "not_available_upstream"
    assert sel.availability("de", "lexical") == "language_not_installed"
    assert sel.availability("en", "semantic") == "capability_not_installed"


def test_missing_pointer_names_install_command(tmp_path: Path) -> None:
    with pytest.raises(NoActiveSelection) as info:
        load_active(tmp_path)
    assert isinstance(info.value, LookupError)
    message = str(info.value)
    assert "lexicon-data" in message and " install --version " in message
    assert "--data-dir" in message and str(tmp_path) in message


@pytest.mark.parametrize(("pointer", "record"), [(2, 1), (1, 2)])
def test_unknown_formats_are_refused(tmp_path: Path, pointer: int, record: int) -> None:
    _write_documented_layout(tmp_path, pointer, record)
    with pytest.raises(NoActiveSelection, match="unknown format"):
        load_active(tmp_path)


def test_default_data_dir_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LEXICON_DATA_DIR", str(tmp_path / "a"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "x"))
    assert default_data_dir() == tmp_path / "a"
    monkeypatch.delenv("LEXICON_DATA_DIR")
    assert default_data_dir() == tmp_path / "x" / "lexicon"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "h"))
    assert default_data_dir() == tmp_path / "h" / ".local" / "share" / "lexicon"


def test_reader_is_stdlib_only() -> None:
    # The reader's errors derive from the store's one root, so lexicon_store.errors comes
    # along; it stays stdlib-only too.
    code = (
        "import sys, lexicon_store.selection, lexicon_store.leases\n"
        "bad = [m for m in ('httpx', 'zstandard', 'blake3', 'tqdm', 'click') if m in sys.modules]\n"
        "bad += [m for m in sys.modules if m.startswith('lexicon_store.')\n"
        "        and m not in ('lexicon_store.selection', 'lexicon_store.leases',"
        " 'lexicon_store.errors')]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_suggested_version_follows_the_pins() -> None:
    from lexicon_store import pins, selection

    assert selection._SUGGESTED_VERSION == pins.DEFAULT_VERSION
    assert f"--version {pins.DEFAULT_VERSION} " in selection.install_command()


def test_pointer_to_a_missing_record_is_reported_not_looped(tmp_path: Path) -> None:
    _write_documented_layout(tmp_path)
    (tmp_path / "activations" / "3f2a9c1d0e4b5a67.json").unlink()
    with pytest.raises(NoActiveSelection, match="record is missing"):
        load_active(tmp_path)
