"""A word's unsensed translations into a language that translate back to it come first."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from lexicon_server.builder.lexical_writer import LexicalWriter, SourceRow

SOURCE = SourceRow("freedict-eng-fin", "FreeDict English-Finnish", "1", "CC-BY-SA", "-")
# In the source's order: FreeDict lists 'heittää' (from "to make water") first.
WATER_FI = ["heittää", "vesi", "ilma", "Vesi-", "kastella"]
# The Finnish-English dictionary's side: what each Finnish word translates back to.
FINNISH_ENGLISH = [
    ("heittää", "throw"),
    ("vesi", "water"),
    ("ilma", "air"),
    ("kastella", "water"),  # the verb
    ("kastella", "wet"),
    ("sade", "rain"),  # no translation into it: not kept
]


def _build(path: Path, back: bool) -> sqlite3.Connection:
    writer = LexicalWriter(path, language="en", dataset_version="t", sources=[SOURCE])
    water = writer.term("water")
    entry = writer.entry(water, "noun", SOURCE.name)
    sense = writer.sense(entry, "a clear liquid", SOURCE.name, rank=0)
    for text in WATER_FI:
        writer.translation(water, "fi", text, SOURCE.name)
    # Sense-tied translations are ranked within their sense too: 'vesi' translates back.
    writer.translation(water, "fi", "ilma", SOURCE.name, sense_id=sense)
    writer.translation(water, "fi", "vesi", SOURCE.name, sense_id=sense)
    writer.translation(water, "de", "Wasser", SOURCE.name)
    air = writer.term("air")
    writer.translation(air, "fi", "ilma", SOURCE.name)
    if back:
        writer.back_translations("fi", iter(FINNISH_ENGLISH))
        writer.back_translations("ja", iter([("水", "water")]))  # nothing into it: unread
    writer.finish()
    return sqlite3.connect(path)


def _texts(conn: sqlite3.Connection, word: str, where: str) -> list[str]:
    rows = conn.execute(
        "SELECT tr.target_text FROM translations tr JOIN terms t ON t.id = tr.term_id "
        f"WHERE t.text = ? AND tr.target_language = 'fi' AND {where} ORDER BY tr.id",
        (word,),
    )
    return [row[0] for row in rows]


def test_back_translations_come_first(tmp_path: Path) -> None:
    conn = _build(tmp_path / "lexical.sqlite", back=True)
    assert _texts(conn, "water", "tr.sense_id IS NULL") == [
        "vesi",
        "kastella",
        "heittää",
        "ilma",
        "Vesi-",
    ]
    assert _texts(conn, "water", "tr.sense_id IS NOT NULL") == ["vesi", "ilma"]
    assert _texts(conn, "air", "tr.sense_id IS NULL") == ["ilma"]
    (count,) = conn.execute("SELECT count(*) FROM translations").fetchone()
    assert count == len(WATER_FI) + 4
    (distinct,) = conn.execute("SELECT count(DISTINCT id) FROM translations").fetchone()
    assert distinct == count
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert not any(name.startswith("_") for name in tables), "staging tables are dropped"


def test_without_back_translations_the_source_order_stays(tmp_path: Path) -> None:
    conn = _build(tmp_path / "lexical.sqlite", back=False)
    assert _texts(conn, "water", "tr.sense_id IS NULL") == WATER_FI
