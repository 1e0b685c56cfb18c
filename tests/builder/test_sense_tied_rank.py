"""Sense-tied translations ranked by evidence (builder/translation_rank.py), on the committed
MultiWordNet Italian slice and the real FreeDict ita-eng package."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from lexicon_server.builder.archives import extract_members
from lexicon_server.builder.lexical_writer import LexicalWriter, SourceRow
from lexicon_server.builder.parsers import dictd, multiwordnet
from lexicon_server.builder.translation_rank import ORDER_META

FIXTURES = Path(__file__).parents[1] / "fixtures"
DEB = Path(__file__).parent / "data" / "dict-freedict-ita-eng_2022.04.21-1_all.deb"
MWN = SourceRow("multiwordnet-it", "MultiWordNet Italian", "1", "CC-BY-4.0", "-")
ITA_ENG = SourceRow("freedict-ita-eng", "FreeDict Italian-English", "1", "GPL", "-")
# English word -> its senses in WordNet order, each the MultiWordNet synset it renders.
SENSES = {
    "bank": ["n#06800223", "n#06227059"],  # river bank (banchina riva), then the money one
    "result": ["n#07766144"],  # conclusione conseguenza effetto portato resultato risultato
    "vicinity": ["n#06363890"],  # adiacenza ... circondario ...: no Italian wordfreq here
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> sqlite3.Connection:
    root = tmp_path_factory.mktemp("sense-rank")
    extract_members(DEB, ["usr/share/dictd/freedict-ita-eng.index",
                          "usr/share/dictd/freedict-ita-eng.dict.dz"], root)  # fmt: skip
    lemmas = {
        s.id: [w.replace("_", " ") for w in s.words]
        for s in multiwordnet.iter_synsets(FIXTURES / "multiwordnet" / "italian_synset.sql")
    }
    writer = LexicalWriter(
        root / "lexical.sqlite", language="en", dataset_version="t", sources=[MWN, ITA_ENG]
    )
    for word, synsets in SENSES.items():
        term = writer.term(word)
        entry = writer.entry(term, "noun", MWN.name)
        for rank, synset in enumerate(synsets):
            sense = writer.sense(entry, synset, MWN.name, rank=rank)
            for lemma in lemmas[synset]:
                writer.translation(term, "it", lemma, MWN.name, sense_id=sense)
    base = root / "usr/share/dictd/freedict-ita-eng"
    entries = dictd.iter_entries(f"{base}.index", f"{base}.dict.dz", ("it", "en"))
    writer.reverse_dictionary("it", ((e.headword, e.translations) for e in entries), ITA_ENG.name)
    writer.finish()
    return sqlite3.connect(root / "lexical.sqlite")


def _tied(conn: sqlite3.Connection, word: str) -> list[tuple[str, str]]:
    """(sense gloss, text) of the word's sense-tied rows into Italian, in id order."""
    return conn.execute(
        "SELECT s.gloss, tr.target_text FROM translations tr JOIN terms t ON t.id = tr.term_id "
        "JOIN senses s ON s.id = tr.sense_id WHERE t.text = ? AND tr.target_language = 'it' "
        "ORDER BY tr.id",
        (word,),
    ).fetchall()


def test_a_lemma_the_reverse_dictionary_confirms_leads_its_sense(built: sqlite3.Connection) -> None:
    """MultiWordNet lists 'conclusione' first; ita-eng translates 'risultato' back to result."""
    texts = [text for _, text in _tied(built, "result")]
    assert texts[0] == "risultato", texts
    assert sorted(texts) == sorted(["conclusione", "conseguenza", "effetto", "portato",
                                    "resultato", "risultato"])  # fmt: skip


def test_the_best_supported_sense_gets_the_first_ids(built: sqlite3.Connection) -> None:
    """'banca' translates back to bank, so the money sense's rows come before the river
    sense's (WordNet's first), which keep MultiWordNet's order among themselves."""
    rows = _tied(built, "bank")
    assert rows[0] == ("n#06227059", "banca"), rows
    river = [text for gloss, text in rows if gloss == "n#06800223"]
    assert river == ["banchina", "riva"]


def test_without_evidence_the_source_order_stays(built: sqlite3.Connection) -> None:
    """ita-eng translates 'circondario' as neighbourhood, not vicinity, and no other lemma
    back to vicinity: nothing to go on, so MultiWordNet's order is kept."""
    texts = [text for _, text in _tied(built, "vicinity")]
    assert texts[:3] == ["adiacenza", "adiacenze", "circondario"], texts


def test_the_order_is_marked_for_the_query(built: sqlite3.Connection) -> None:
    key, value = ORDER_META
    assert built.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone() == (value,)
