"""The english and full profiles: the same writers fed from OEWN (WN-LMF), Wiktextract,
ConceptNet, Numberbatch and CMUdict, here on the committed samples of those formats."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from lexicon_server.builder.config import BuildConfig
from lexicon_server.builder.errors import BuildError
from lexicon_server.builder.pipeline import build

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DUMPS = {
    "oewn": FIXTURES / "oewn" / "english-wordnet-2025-sample.xml",
    "wiktextract": FIXTURES / "kaikki" / "kaikki-sample.jsonl",
    "conceptnet": FIXTURES / "conceptnet" / "conceptnet-assertions-5.7.0-sample.csv",
    "cmudict-local": FIXTURES / "cmudict" / "cmudict.dict",
    "wordfreq": FIXTURES / "wordfreq",
}


def _build(tmp_path: Path, profile: str, numberbatch: str) -> Path:
    out = tmp_path / profile
    sources = DUMPS | {"numberbatch": FIXTURES / "numberbatch" / numberbatch}
    build(
        profile,
        out,
        config=BuildConfig(cache_dir=tmp_path / "cache"),
        lock=None,
        overrides=sources,
        fetch=False,
    )
    return out


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(tmp_path_factory.mktemp("english"), "english", "numberbatch-en-19.08-sample.txt")


def _db(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def test_english_profile_components(english: Path) -> None:
    dataset = json.loads((english / "dataset.json").read_text())
    assert dataset["profile"] == "english"
    assert dataset["languages"] == {
        "en": {"name": "English", "capabilities": ["lexical", "semantic", "wordplay"]}
    }
    for component in dataset["components"]:
        assert (english / component["path"]).is_file()


def test_english_profile_has_oewn_synsets_and_wiktionary_senses(english: Path) -> None:
    db = _db(english / "en/lexical.sqlite")
    sources = {r[0] for r in db.execute("SELECT name FROM sources")}
    assert {"oewn", "wiktextract", "conceptnet", "cmudict-local"} <= sources
    hypernyms = db.execute(
        """
        SELECT dt.text FROM terms t JOIN entries e ON e.term_id = t.id
        JOIN senses s ON s.entry_id = e.id JOIN relations r ON r.src_synset_id = s.synset_id
        JOIN senses ds ON ds.synset_id = r.dst_synset_id JOIN entries de ON de.id = ds.entry_id
        JOIN terms dt ON dt.id = de.term_id
        WHERE t.norm = 'dog' AND r.relation = 'hypernym'
        """
    ).fetchall()
    assert ("canine",) in hypernyms
    tags = db.execute(
        "SELECT s.tags FROM senses s JOIN sources src ON src.id = s.source_id"
        " WHERE src.name = 'wiktextract' AND s.tags LIKE '%slang%'"
    ).fetchall()
    assert tags
    sensed = db.execute(
        "SELECT count(*) FROM translations tr JOIN sources src ON src.id = tr.source_id"
        " WHERE src.name = 'wiktextract' AND tr.sense_id IS NOT NULL"
    ).fetchone()[0]
    assert sensed > 0
    ipa = db.execute("SELECT count(*) FROM pronunciations WHERE notation = 'ipa'").fetchone()[0]
    assert ipa > 0
    unsensed = db.execute(
        "SELECT relation, dst_language, dst_text FROM relations WHERE scope = 'term'"
    ).fetchall()
    assert unsensed and all(r[0] == r[0].lower() for r in unsensed)


def test_english_profile_semantic_from_numberbatch(english: Path) -> None:
    vocab = _db(english / "en/semantic.sqlite")
    words = {r[0] for r in vocab.execute("SELECT norm FROM vocab")}
    assert {"cat", "ice cream"} <= words
    assert vocab.execute("SELECT value FROM meta WHERE key = 'dimensions'").fetchone() == ("10",)


def test_full_profile_adds_other_languages(tmp_path: Path) -> None:
    out = _build(tmp_path, "full", "numberbatch-19.08-sample.txt")
    dataset = json.loads((out / "dataset.json").read_text())
    assert "semantic" in dataset["languages"]["de"]["capabilities"]
    assert (out / "fr/lexical.sqlite").is_file()
    fr = _db(out / "fr/lexical.sqlite")
    assert fr.execute("SELECT count(*) FROM terms WHERE norm = 'chien'").fetchone()[0] == 1


def test_english_profile_needs_its_dumps(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match="--source oewn="):
        build(
            "english",
            tmp_path / "out",
            config=BuildConfig(cache_dir=tmp_path / "cache"),
            lock=None,
            overrides={},
            fetch=False,
        )


def test_a_dump_the_lock_pins_must_match_it(tmp_path: Path) -> None:
    from lexicon_server.builder.errors import SourceMismatch
    from lexicon_server.builder.sources import LockEntry, SourceLock, file_sha256

    oewn = DUMPS["oewn"]
    good = LockEntry(
        "oewn", "local", "", "2025", "", file_sha256(oewn), oewn.stat().st_size, None, None
    )
    bad = LockEntry("oewn", "local", "", "2025", "", "0" * 64, oewn.stat().st_size, None, None)
    config = BuildConfig(cache_dir=tmp_path / "cache")
    sources = DUMPS | {"numberbatch": FIXTURES / "numberbatch" / "numberbatch-en-19.08-sample.txt"}
    with pytest.raises(SourceMismatch, match=r"source 'oewn'.*sha256"):
        build("english", tmp_path / "a", config=config, lock=SourceLock({"oewn": bad}),
              overrides=sources, fetch=False)  # fmt: skip
    build("english", tmp_path / "b", config=config, lock=SourceLock({"oewn": good}),
          overrides=sources, fetch=False)  # fmt: skip
    assert (tmp_path / "b/dataset.json").is_file()
