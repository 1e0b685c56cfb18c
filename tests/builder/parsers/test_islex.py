"""ISLEX parser against a slice of the real ISLEdict.txt (PyPI pysle 4.0.2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.parsers.islex import PHONES, iter_entries, transcription
from lexicon_server.builder.records import IslexEntry


@pytest.fixture(scope="module")
def entries(fixtures: Path) -> list[IslexEntry]:
    return list(iter_entries(fixtures / "islex" / "ISLEdict.txt"))


def _of(entries: list[IslexEntry], word: str) -> list[IslexEntry]:
    return [e for e in entries if e.word == word]


def test_one_entry_per_line(fixtures: Path, entries: list[IslexEntry]) -> None:
    lines = (fixtures / "islex" / "ISLEdict.txt").read_text(encoding="utf-8").splitlines()
    assert [e.word for e in entries] == [line.split("(", 1)[0] for line in lines]


def test_syllables_stress_and_labels(entries: list[IslexEntry]) -> None:
    (ing,) = _of(entries, "equivocating")
    assert ing.pos == ("vbg",) and ing.tags == ("+equivocate+ing",)
    assert ing.syllables == ((("ɪ", "k"), ("w", "ˈɪ"), ("v", "ə"), ("k", "ˌei"), ("ɾ", "ɪ", "ŋ")),)
    assert transcription(ing) == "ɪk.wˈɪ.və.kˌei.ɾɪŋ"
    assert transcription(ing, syllable_marks=False) == "ɪkwˈɪvəkˌeiɾɪŋ"
    (abbrev,) = _of(entries, "a&e")
    assert abbrev.pos == ("nnp",) and abbrev.tags == ("+abbreviation", "nnp_company")


def test_phrases_keep_one_group_per_written_word(entries: list[IslexEntry]) -> None:
    (hope,) = _of(entries, "abandon_hope")
    assert hope.pos == () and hope.tags == ()
    assert transcription(hope) == "ə.bˈæn.dn̩ hoʊp"
    (carte,) = _of(entries, "a_la_carte")
    assert len(carte.syllables) == 3


def test_variants_count_interleaved_lines(entries: list[IslexEntry]) -> None:
    # The release interleaves 'bang-up' with 'bangup' and 'shariah' with 'shari'/'sharia'.
    assert [e.variant for e in _of(entries, "bang-up")] == [0, 1]
    assert [e.variant for e in _of(entries, "shariah")] == [0, 1]
    assert [e.variant for e in _of(entries, "era")] == [0, 1, 2]
    assert all(e.variant == 0 for e in _of(entries, "bangup"))


def test_unframed_release_lines_read_as_one_syllable(entries: list[IslexEntry]) -> None:
    (er_nn,) = [e for e in _of(entries, "er") if e.pos == ("nn",)]
    assert er_nn.syllables == ((("ə", "r"),),)
    assert [e.syllables for e in _of(entries, "th") if e.pos == ("jj",)] == [((("ɵ",),),)]


def test_every_phone_is_in_the_inventory(entries: list[IslexEntry]) -> None:
    phones = {p.lstrip("ˈˌ") for e in entries for w in e.syllables for s in w for p in s}
    assert phones <= PHONES
    assert {"ɑɪ", "ei", "n̩", "ɾ", "ɚ"} <= phones  # the slice covers ISLEX's own spellings


@pytest.mark.parametrize(
    ("line", "what"),
    [
        ("cat # k ˈæ t #", "expected 'word"),
        ("cat(nn) # k ˈæ t", "does not end with its '#' mark"),
        ("cat(nn) # k ˈæ . . t #", "empty syllable"),
        ("cat(nn) # k ˈæ T #", "unknown ISLEX phone 'T'"),
    ],
)
def test_malformed_lines_name_the_line(tmp_path: Path, line: str, what: str) -> None:
    bad = tmp_path / "ISLEdict.txt"
    bad.write_text(f"dog(nn) # d ˈɔ g #\n{line}\n", encoding="utf-8")
    with pytest.raises(ParseError, match=rf"ISLEdict\.txt:2: .*{what}"):
        list(iter_entries(bad))


@pytest.mark.parametrize("cut_at", range(3000, 3008))
def test_truncated_file_is_reported(fixtures: Path, tmp_path: Path, cut_at: int) -> None:
    # Cuts inside a line, some of them inside a multi-byte IPA character.
    cut = tmp_path / "ISLEdict.txt"
    cut.write_bytes((fixtures / "islex" / "ISLEdict.txt").read_bytes()[:cut_at])
    with pytest.raises(ParseError, match=r"truncated|not UTF-8"):
        list(iter_entries(cut))
