"""Term identity: trim, lowercase, collapse whitespace, `,.;` as spaces, ä ö ü ß spelled out."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexicon_server.glossary import Glossary, TermExists, normalize

from .conftest import call


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Batch Release", "batch release"),
        ("batch release", "batch release"),
        ("BATCH RELEASE", "batch release"),
        ("  Batch \t\n  Release  ", "batch release"),
        ("Batch,Release", "batch release"),
        ("Batch.Release;", "batch release"),
        ("Batch , Release", "batch release"),
        ("Größe", "groesse"),
        ("GRÖSSE", "groesse"),
        ("Übergabe", "uebergabe"),
        ("Märchen", "maerchen"),
        ("Straße", "strasse"),
        ("Ma\u0308rchen", "maerchen"),  # decomposed umlaut, as some editors write it
        ("e-mail", "e-mail"),  # other punctuation is kept
    ],
)
def test_normalize(raw: str, expected: str) -> None:
    assert normalize(raw) == expected


@given(st.text())
def test_normalize_is_idempotent_and_clean(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once
    assert once == once.strip()
    assert "  " not in once
    assert not set(once) & set(",.;äöüß")


def test_brief_spellings_are_one_identity(gpath: Path) -> None:
    glossary = Glossary(gpath)
    for spelling in ("batch release", "BATCH RELEASE", " Batch   Release ", "batch,release"):
        with pytest.raises(TermExists) as caught:
            glossary.add(spelling, "another description")
        assert caught.value.existing.term == "Batch Release"
    assert len(glossary.entries()) == 4


def test_identity_through_the_client(gpath: Path) -> None:
    is_error, body, _ = call(
        gpath, "glossary_edit", {"term": "TARGET  STOCK;", "description": "X."}
    )
    assert not is_error and body == {"totalEntries": 4}
    is_error, body, _ = call(gpath, "glossary_find", {"query": "target stock"})
    assert body["results"][0]["entry"] == {"term": "Target Stock", "description": "X."}


def test_german_spelling_is_the_same_term(tmp_path: Path) -> None:
    glossary = Glossary(tmp_path / "g.jsonl")
    glossary.add("Größe", "Size of a part.")
    with pytest.raises(TermExists):
        glossary.add("GROESSE", "dup")
    assert glossary.edit("groeße", "Size of a part, in mm.").total_entries == 1
    assert glossary.entries()[0].term == "Größe"


def test_descriptions_keep_their_text(tmp_path: Path) -> None:
    glossary = Glossary(tmp_path / "g.jsonl")
    description = "  Keeps  Ä, spacing; and CASE.  "
    glossary.add("Thing", description)
    assert Glossary(tmp_path / "g.jsonl").entries()[0].description == description
