"""A term document built from a word with more translations than a document holds equals
the one built from all of its rows: the writer leaves out only rows past the cap."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from pydantic_core import from_json

from lexicon_server.builder.lexical_writer import LexicalWriter, SourceRow
from lexicon_server.builder.records import FrequencyRow
from lexicon_server.corpus.term_docs import TARGET_UNKNOWN, TRANSLATIONS, in_language_turns

SOURCE = SourceRow("test", "Test", "1", "CC0", "")
# 40 German rows with repeats (every third a repeat of an earlier one), 3 French, 2 Dutch:
# German alone passes the cap, the repeats must not count towards it.
GERMAN = [f"wort{i // 3 if i % 3 == 2 else i}" for i in range(40)]
OTHERS = [("fr", "banque"), ("fr", "rive"), ("nl", "bank"), ("fr", "banc"), ("nl", "oever")]


def _write(path: Path) -> None:
    writer = LexicalWriter(path, language="en", dataset_version="t", sources=[SOURCE])
    bank = writer.term("bank")
    entry = writer.entry(bank, "noun", SOURCE.name)
    sense = writer.sense(entry, "a financial institution", SOURCE.name, rank=0)
    for text in GERMAN:
        writer.translation(bank, "de", text, SOURCE.name)
        writer.translation(bank, "de", text, SOURCE.name, sense_id=sense)
    for language, text in OTHERS:
        writer.translation(bank, language, text, SOURCE.name)
        writer.translation(bank, language, text, SOURCE.name, sense_id=sense)
    writer.frequencies([FrequencyRow("bank", 5.0)])
    writer.finish()


def _expected(conn: sqlite3.Connection, sensed: bool) -> list[list[Any]]:
    """Every row of the word, repeats dropped, in language turns, cut at the cap."""
    where = "sense_id IS NOT NULL" if sensed else "sense_id IS NULL"
    seen: set[tuple[str, str]] = set()
    rows = []
    for row in conn.execute(
        "SELECT target_language, target_text, target_norm, note, source_id, target_entry, id"
        f" FROM translations WHERE {where} ORDER BY target_language, id"
    ):
        if (row[0], row[2]) not in seen:
            seen.add((row[0], row[2]))
            flag = TARGET_UNKNOWN if row[5] is None else row[5]
            rows.append([*row[:5], flag, *([] if sensed else [row[6]])])
    return in_language_turns(rows)[:TRANSLATIONS]


def test_capped_documents_equal_documents_of_every_row(tmp_path: Path) -> None:
    path = tmp_path / "lexical.sqlite"
    _write(path)
    conn = sqlite3.connect(path)
    (doc,) = conn.execute("SELECT doc FROM term_docs").fetchone()
    _, senses, _, unsensed = from_json(doc)
    assert unsensed == _expected(conn, sensed=False)
    assert senses[0][-1] == _expected(conn, sensed=True)
    # The cut list reaches every language, and German rows past its 21st are never needed.
    assert {row[0] for row in unsensed} == {"de", "fr", "nl"}
    assert len(unsensed) == TRANSLATIONS
