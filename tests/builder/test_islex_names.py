"""Which spellings ISLEX knows only as names or foreign words (the wordplay stage's
dictionary-word test, issue 29), on a slice of the real ISLEdict.txt."""

from __future__ import annotations

from pathlib import Path

from lexicon_server.builder.islex_names import name_spellings
from lexicon_server.builder.parsers import islex

NAMES = Path(__file__).resolve().parents[1] / "fixtures" / "islex" / "names.txt"


def test_names_and_foreign_words_from_the_labels() -> None:
    found = name_spellings(islex.iter_entries(NAMES))
    # Seen only as proper nouns ('becker', 'u.s', 'donuts'), only in the name lists with
    # a share ('sean', 'jarred' as a given name), or ever tagged foreign ('de', 'et',
    # whatever their other tags). The writer keeps forms of lemmas ('donuts', 'jarred').
    assert found == {
        "becker", "chris", "de", "donuts", "et", "ewing", "jarred", "larry", "sean", "u.s",
    }  # fmt: skip


def test_common_words_and_the_rarest_surnames_are_not_names() -> None:
    found = name_spellings(islex.iter_entries(NAMES))
    # Also seen as a common word ('bill', 'jenny', 'mark'), no labels ('hieroglyph'), or
    # only a census surname share of 0.000 ('croissant', 'um').
    for word in ("bill", "jenny", "mark", "hieroglyph", "croissant", "um"):
        assert word not in found
