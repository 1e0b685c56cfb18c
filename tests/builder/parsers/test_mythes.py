"""MyThes parser against slices of the real .dat files of Debian mythes-en-us, -de, -fr, -it."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.parsers.mythes import encoding_of, iter_entries
from lexicon_server.builder.records import ThesaurusEntry

FILES = ("th_en_US_v2.dat", "th_de_DE_v2.dat", "thes_fr.dat", "th_it_IT_v2.dat")


def _entries(fixtures: Path, name: str) -> list[ThesaurusEntry]:
    return list(iter_entries(fixtures / "mythes" / name))


@pytest.mark.parametrize("name", FILES)
def test_every_meaning_line_is_one_entry(fixtures: Path, name: str) -> None:
    path = fixtures / "mythes" / name
    assert encoding_of(path) == "UTF-8"
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    headers = [line for line in lines if not line.startswith(("(", "-|"))]
    counts = [(h.rpartition("|")[0], int(h.rpartition("|")[2])) for h in headers]
    assert len(headers) + sum(n for _, n in counts) == len(lines)
    entries = _entries(fixtures, name)
    assert len(entries) == sum(n for word, n in counts if word)  # de's empty headword skipped
    assert all(e.terms and all(e.terms) for e in entries)
    assert all(not e.notes or len(e.notes) == len(e.terms) for e in entries)


def test_english_relations_become_notes(fixtures: Path) -> None:
    house = [e for e in _entries(fixtures, "th_en_US_v2.dat") if e.headword == "house"]
    assert len(house) == 14 and house[0].pos == "noun"
    assert house[0].terms[:2] == ("dwelling", "home")
    assert house[0].notes[:2] == ("generic term", "generic term")
    good = [e for e in _entries(fixtures, "th_en_US_v2.dat") if e.headword == "good"]
    assert any("antonym" in e.notes for e in good)


def test_german_has_no_pos_and_keeps_placeholders(fixtures: Path) -> None:
    entries = _entries(fixtures, "th_de_DE_v2.dat")
    assert all(e.pos is None for e in entries)
    assert "" not in {e.headword for e in entries}  # the release's one empty headword
    haus = next(e for e in entries if e.headword == "haus" and "Eigenheim" in e.terms)
    by_term = dict(zip(haus.terms, haus.notes, strict=True))
    assert by_term["Haus"] == "Hauptform" and by_term["Bude"] == "ugs."
    assert by_term["Eigenheim"] is None
    gut = [t for e in entries if e.headword == "gut" for t in e.terms]
    assert "...stoff" in gut and "etwas mehr" in gut  # 'etwas mehr (als)': 'als' is a note


def test_french_and_italian_labels(fixtures: Path) -> None:
    (maison,) = [e for e in _entries(fixtures, "thes_fr.dat") if e.headword == "maison"]
    assert maison.pos == "Adjectif Nom" and maison.notes == ()
    italian = {(e.headword, e.pos, e.sense_note) for e in _entries(fixtures, "th_it_IT_v2.dat")}
    assert ("abbacchiare", "v.", "Avvilire") in italian
    assert ("abbacchiarsi", "v.", None) in italian
    assert ("casa", "s.f.", None) in italian


def test_truncated_file_is_reported(fixtures: Path, tmp_path: Path) -> None:
    lines = (fixtures / "mythes" / "th_en_US_v2.dat").read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "th_en_US_v2.dat"
    cut.write_text("\n".join(lines[:60]) + "\n", encoding="utf-8")  # inside 'good|27'
    with pytest.raises(ParseError, match=r"th_en_US_v2\.dat:60: file ends \d+ meaning"):
        list(iter_entries(cut))


@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        ("UTF-8\ncat|x\n", 2, "expected 'word|count'"),
        ("UTF-8\ncat|1\nfeline|moggy\n", 3, r"expected '\(pos\)\|term"),
        ("KLINGON-8\ncat|1\n(noun)|feline\n", 1, "expected an encoding name"),
    ],
)
def test_malformed_input_names_the_line(tmp_path: Path, text: str, line: int, what: str) -> None:
    bad = tmp_path / "th_xx.dat"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ParseError, match=rf"th_xx\.dat:{line}: {what}"):
        list(iter_entries(bad))


def test_latin1_thesaurus_is_decoded_by_its_header(tmp_path: Path) -> None:
    old = tmp_path / "th_fr_old.dat"
    old.write_bytes("ISO8859-1\nété|1\n(Nom)|saison\n".encode("latin-1"))
    assert [e.headword for e in iter_entries(old)] == ["été"]
