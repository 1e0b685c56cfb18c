"""The evidence ranking (builder/translation_rank.py) on the real FreeDict and wordfreq slices,
and the pieces it is made of."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from lexicon_server.builder.translation_rank import (
    Evidence,
    is_label,
    score,
    usable_reverse,
)


@pytest.mark.parametrize(
    ("note", "label"),
    [
        ("techn.", True),
        ("Fassbinderei; barrel-making", True),
        ("dated", True),
        ("vulg.", True),
        ("geh.", True),
        ("Am.", True),
        ("Foto, Film, TV", False),  # a context, not a label: counted as a plain note
        ("Commerce", False),  # a WikDict sense gloss
        ("institution", False),
        (None, False),
    ],
)
def test_labels(note: str | None, label: bool) -> None:
    assert is_label(note) is label


def test_each_kind_of_evidence_moves_a_row_the_documented_way() -> None:
    base = Evidence(position=5, back_rank=None, sources=1, zipf=3.0, label=False, note=False,
                    words=1)  # fmt: skip
    better = [
        Evidence(**{**_fields(base), "back_rank": 2}),
        Evidence(**{**_fields(base), "sources": 2}),
        Evidence(**{**_fields(base), "zipf": 4.0}),
        Evidence(**{**_fields(base), "position": 0}),
    ]
    worse = [
        Evidence(**{**_fields(base), "label": True, "note": True}),
        Evidence(**{**_fields(base), "note": True}),
        Evidence(**{**_fields(base), "words": 3}),
    ]
    assert all(score(b) > score(base) for b in better)
    assert all(score(w) < score(base) for w in worse)
    first = Evidence(**{**_fields(base), "back_rank": 0})
    assert score(first) > score(better[0])  # listed first in the reverse dictionary


def _fields(e: Evidence) -> dict[str, object]:
    return {name: getattr(e, name) for name in Evidence.__slots__}


def _first_translations(db: Path, word: str, language: str, n: int = 3) -> list[str]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = conn.execute(
        "SELECT tr.target_text FROM translations tr JOIN terms t ON t.id = tr.term_id "
        "WHERE t.norm = ? AND tr.target_language = ? AND tr.sense_id IS NULL ORDER BY tr.id",
        (word, language),
    ).fetchall()
    seen = list(dict.fromkeys(r[0] for r in rows))
    return seen[:n]


def test_dog_into_german_starts_with_hund(sample_dataset: Path) -> None:
    """In eng-deu's own order 'dog' starts with barrel-making tools (Bandhaken); Hund is
    frequent, labelled only 'zool.' and translates back to dog first in deu-eng."""
    first = _first_translations(sample_dataset / "en/lexical.sqlite", "dog", "de")
    assert first[0] == "Hund", first


def test_house_into_german_starts_with_haus(sample_dataset: Path) -> None:
    first = _first_translations(sample_dataset / "en/lexical.sqlite", "house", "de")
    assert first[0] == "Haus", first


def test_frequency_alone_puts_the_everyday_word_first(tmp_path: Path) -> None:
    """Without the reverse dictionary, German wordfreq alone lifts Hund over eng-deu's
    first rows (Bandhaken, Bandzieher, Reifzange: barrel-making tools)."""
    from lexicon_server.builder.lexical_writer import LexicalWriter, SourceRow
    from lexicon_server.builder.parsers import dictd, wordfreq

    fixtures = Path(__file__).parents[1] / "fixtures"
    name = "freedict-eng-deu"
    writer = LexicalWriter(
        tmp_path / "lexical.sqlite",
        language="en",
        dataset_version="t",
        sources=[SourceRow(name, "FreeDict English-German", "1", "GPL", "-")],
    )
    base = fixtures / "freedict" / name
    entries = dictd.iter_entries(f"{base}.index", f"{base}.dict.dz", ("en", "de"))
    source_order: list[str] = []
    for entry in entries:
        term = writer.term(entry.headword)
        for text, note in zip(entry.translations, entry.sense_notes, strict=False):
            writer.translation(term, "de", text, name, note=note)
            if entry.headword == "dog":
                source_order.append(text)
    writer.target_frequencies(
        {"de": wordfreq.iter_frequencies(fixtures / "wordfreq" / "large_de.msgpack.gz")}
    )
    writer.finish()
    ranked = _first_translations(tmp_path / "lexical.sqlite", "dog", "de", n=50)
    assert source_order[0] == "Bandhaken"
    assert ranked[0] == "Hund", ranked
    assert sorted(ranked) == sorted(dict.fromkeys(source_order)), "same rows, new order"


def test_the_reverse_dictionary_read_backwards_gives_candidates(sample_dataset: Path) -> None:
    """eng-nld has no 'dog'; nld-eng has hond -> dog, so 'dog' into Dutch finds hond and
    cites the dictionary it came from."""
    conn = sqlite3.connect(f"file:{sample_dataset / 'en/lexical.sqlite'}?mode=ro", uri=True)
    rows = conn.execute(
        "SELECT tr.target_text, s.name FROM translations tr JOIN terms t ON t.id = tr.term_id "
        "JOIN sources s ON s.id = tr.source_id WHERE t.norm = 'dog' AND tr.target_language = 'nl' "
        "ORDER BY tr.id"
    ).fetchall()
    assert rows and rows[0] == ("hond", "freedict-nld-eng"), rows
    # A pair both directions give counts twice: 'house' -> huis comes from both.
    both = conn.execute(
        "SELECT count(DISTINCT tr.source_id) FROM translations tr JOIN terms t "
        "ON t.id = tr.term_id WHERE t.norm = 'house' AND tr.target_norm = 'huis'"
    ).fetchone()[0]
    assert both == 2


@pytest.mark.parametrize(
    ("headword", "usable"),
    [
        ("hond", True),
        ("zu Hause", True),
        ("aver bisogno di", True),
        ("Vater, in deine Hände lege ich meinen Geist.", False),
        ("Wer A sagt, muss auch B sagen", False),
        ("Hilfe!", False),
    ],
)
def test_only_words_and_short_phrases_come_back_as_candidates(headword: str, usable: bool) -> None:
    assert usable_reverse(headword) is usable
