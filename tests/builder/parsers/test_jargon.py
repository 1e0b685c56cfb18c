"""The Jargon File (Debian dict-jargon 4.4.7) on a dictzip slice of the real database.

The FreeDict reader (``dictd.iter_entries``) reads the container but its records are
translations; the Jargon File needs its own entry parser over ``dictd.iter_texts``.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.parsers.dictd import database_info, iter_texts
from lexicon_server.builder.parsers.jargon import iter_entries
from lexicon_server.builder.records import DefinitionEntry


@pytest.fixture(scope="module")
def entries(fixtures: Path) -> dict[str, DefinitionEntry]:
    folder = fixtures / "jargon"
    return {e.headword: e for e in iter_entries(folder / "jargon.index", folder / "jargon.dict.dz")}


def test_every_entry_of_the_slice_is_read(
    fixtures: Path, entries: dict[str, DefinitionEntry]
) -> None:
    folder = fixtures / "jargon"
    texts = list(iter_texts(folder / "jargon.index", folder / "jargon.dict.dz"))
    assert len(entries) == len(texts) == 10
    assert "public domain" in database_info(folder / "jargon.index", folder / "jargon.dict.dz").info


def test_etymology_senses_and_domains(entries: dict[str, DefinitionEntry]) -> None:
    hacker = entries["hacker"]
    assert hacker.pos == "n."
    assert hacker.etymology == "originally, someone who makes furniture with an axe"
    assert [s.number for s in hacker.senses] == [str(n) for n in range(1, 9)]
    assert hacker.senses[0].definition.startswith("A person who enjoys exploring the details")
    banner = entries["banner site"]
    assert banner.senses[0].domain == "warez d00dz"
    assert "See ratio site, leech mode." in banner.senses[0].definition  # braces dropped
    assert entries["demogroup"].senses[0].domain == "demoscene"


def test_pronunciation_line(entries: dict[str, DefinitionEntry]) -> None:
    meeces = entries["meeces"]
    assert (meeces.pronunciation, meeces.pos) == ("mees'@z", "n.")
    assert (entries["1TBS"].pronunciation, entries["1TBS"].pos) == (None, "n.")  # '//, n.'


def test_a_truncated_dict_is_reported(fixtures: Path, tmp_path: Path) -> None:
    text = gzip.decompress((fixtures / "jargon" / "jargon.dict.dz").read_bytes())
    cut = tmp_path / "jargon.dict"
    cut.write_bytes(text[: len(text) - 500])
    with pytest.raises(
        ParseError,
        match=r"jargon\.dict:\d+: entry '\w+' \(index line \d+, byte \d+\): "
        r"expected \d+ bytes of text, the file ends",
    ):
        list(iter_entries(fixtures / "jargon" / "jargon.index", cut))


def test_an_index_line_without_numbers_is_reported(fixtures: Path, tmp_path: Path) -> None:
    index = tmp_path / "jargon.index"
    index.write_text("hacker\n", encoding="utf-8")
    with pytest.raises(ParseError, match=r"jargon\.index:1: expected 'key<TAB>offset<TAB>length'"):
        list(iter_entries(index, fixtures / "jargon" / "jargon.dict.dz"))
