"""The registry profile on the committed slices: every FreeDict pair given becomes part of
a lexical component (languages only translated into are read the other way round), and a
selective install from its release copies only the components asked for."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from lexicon_server.builder.catalogue import REGISTRY_SOURCES, STARTER_SOURCES
from lexicon_server.builder.config import BuildConfig
from lexicon_server.builder.pipeline import build, freedict_components, profile_sources


def test_registry_is_the_starter_and_the_rest() -> None:
    names, optional = profile_sources("registry")
    starter = [s.name for s in STARTER_SOURCES]
    assert names[: len(starter)] == starter and not optional
    freedict = [n for n in names if n.startswith("freedict-")]
    assert len(freedict) == 203 == len(set(freedict))
    assert len(REGISTRY_SOURCES) == len(names)


def test_every_freedict_language_gets_a_component() -> None:
    names = [s.name for s in REGISTRY_SOURCES]
    components = freedict_components(names, invert=True)
    assert len(components) + 1 >= 45  # English has its own stage
    # Russian is only ever a target: built from the dictionaries into it.
    assert "freedict-eng-rus" in components["ru"]
    assert all(not n.startswith("freedict-rus-") for n in components["ru"])
    # German is a source: built from its own dictionaries only.
    assert all(n.startswith("freedict-deu-") for n in components["de"])
    assert "ru" not in freedict_components(names[: len(STARTER_SOURCES)], invert=False)


@pytest.fixture(scope="module")
def registry_release(
    tmp_path_factory: pytest.TempPathFactory, sample_sources: dict[str, Path]
) -> tuple[Path, Path, str]:
    from lexicon_store.package import package_release

    root = tmp_path_factory.mktemp("registry")
    out = root / "built"
    build("registry", out, config=BuildConfig(cache_dir=root / "cache"), lock=None,
          overrides=sample_sources, dataset_version="registry-sample", fetch=False,
          only_given=True, jobs=1)  # fmt: skip
    result = package_release(out, root / "release")
    return out, root / "release", result.manifest_digest


def test_inverted_components_translate_back(registry_release: tuple[Path, Path, str]) -> None:
    out, _, _ = registry_release
    dataset = json.loads((out / "dataset.json").read_text())
    assert {"en", "de", "fr", "nl", "ja", "pl"} <= set(dataset["languages"])
    # The sample has eng-pol but no pol-eng: Polish words come from eng-pol's translations.
    conn = sqlite3.connect(out / "pl/lexical.sqlite")
    rows = conn.execute(
        "SELECT s.gloss, tr.target_text FROM translations tr JOIN terms t ON t.id = tr.term_id "
        "JOIN senses s ON s.id = tr.sense_id WHERE t.norm = 'pies' AND tr.target_language = 'en'"
    ).fetchall()
    assert ("(from en) dog", "dog") in rows


def test_selective_install_copies_only_what_was_asked(
    registry_release: tuple[Path, Path, str], tmp_path: Path
) -> None:
    _, release, digest = registry_release
    argv = [sys.executable, "-m", "lexicon_store.cli", "--data-dir", str(tmp_path / "data")]
    done = subprocess.run(
        [*argv, "install", "--from", str(release), "--languages", "de,fr",
         "--capabilities", "lexical", "--manifest-digest", digest, "--json"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["installed"] == {"de": ["lexical"], "fr": ["lexical"]}
    manifest = json.loads((release / "manifest.json").read_text())
    by_digest = {c["object"]["digest"].split(":")[1]: c["id"] for c in manifest["components"]}
    stored = {p.name for p in (tmp_path / "data" / "objects").rglob("*") if p.is_file()}
    fetched = sorted(by_digest[d] for d in stored if d in by_digest)
    shared = sorted(c["id"] for c in manifest["components"] if c["id"].startswith("shared."))
    assert fetched == ["de.lexical", "fr.lexical", *shared]  # shared ones always come along
    assert len(stored) == len(fetched) + 1  # and the manifest itself
    table = json.loads(subprocess.run([*argv, "languages", "--json"], capture_output=True,
                                      text=True, check=True).stdout)  # fmt: skip
    caps = {row["code"]: row["capabilities"] for row in table["languages"]}
    assert caps["de"]["lexical"] is None and caps["fr"]["lexical"] is None
    assert caps["ja"]["lexical"] == "language_not_installed"
