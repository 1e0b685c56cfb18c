"""A dictionary between two non-English languages (deu-nld, fra-nld) in a component that
has its own dictionary into English adds translations, not senses, and every lexical
component records how many of its terms translate into each language (the sample build
from the committed slices)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path


def _rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


def test_deu_nld_adds_unsensed_translations_in_the_dictionary_order(
    sample_dataset: Path,
) -> None:
    de = sample_dataset / "de" / "lexical.sqlite"
    rows = _rows(
        de,
        "SELECT tr.target_text, tr.sense_id FROM translations tr JOIN terms t ON "
        "t.id = tr.term_id WHERE t.text = 'Königin' AND tr.target_language = 'nl' ORDER BY tr.id",
    )
    assert rows == [("koningin", None), ("vorstin", None)]
    # Every German sense is glossed in English by deu-eng: none comes from deu-nld.
    glossed_by = _rows(
        de,
        "SELECT DISTINCT src.name FROM senses s JOIN sources src ON src.id = s.source_id",
    )
    assert ("freedict-deu-nld",) not in glossed_by
    assert ("freedict-deu-nld",) in _rows(de, "SELECT name FROM sources")


def test_each_component_counts_its_terms_per_target_language(sample_dataset: Path) -> None:
    for language in ("de", "fr", "en"):
        db = sample_dataset / language / "lexical.sqlite"
        (value,) = _rows(db, "SELECT value FROM meta WHERE key = 'translation_terms'")[0]
        counted = json.loads(str(value))
        actual = dict(
            _rows(
                db,
                "SELECT target_language, count(DISTINCT term_id) FROM translations "
                "GROUP BY target_language",
            )
        )
        assert counted == actual and counted.get("nl", 0) > 0
