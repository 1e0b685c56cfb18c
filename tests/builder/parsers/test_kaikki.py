"""Kaikki/Wiktextract JSONL parser against a hand-written sample in the published format."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from lexicon_server.builder.parsers import kaikki
from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.records import WiktEntry


@pytest.fixture(scope="module")
def sample(fixtures: Path) -> Path:
    return fixtures / "kaikki" / "kaikki-sample.jsonl"


@pytest.fixture(scope="module")
def entries(sample: Path) -> dict[tuple[str, str, str], WiktEntry]:
    return {(e.language, e.word, e.pos): e for e in kaikki.iter_entries(sample)}


def test_redirects_are_skipped_and_every_entry_is_read(
    sample: Path, entries: dict[tuple[str, str, str], WiktEntry]
) -> None:
    lines = [line for line in sample.read_text().splitlines() if line.strip()]
    assert len(entries) == len(lines) - 1  # one redirect line
    assert ("en", "Dog", "hard-redirect") not in entries


def test_dog_senses_pronunciations_etymology(
    entries: dict[tuple[str, str, str], WiktEntry],
) -> None:
    dog = entries[("en", "dog", "noun")]
    assert dog.ipa == ("/dɒɡ/", "/dɔɡ/")
    assert dog.etymology and dog.etymology.startswith("From Middle English")
    assert len(dog.senses) == 2  # the gloss-less sense is dropped
    slang = dog.senses[1]
    assert "slang" in slang.tags and slang.examples == ("You dirty dog!",)
    assert dog.senses[0].sense_id == "en-dog-en-noun-1"


def test_entry_level_translations_keep_their_sense_hint(
    entries: dict[tuple[str, str, str], WiktEntry],
) -> None:
    dog = entries[("en", "dog", "noun")]
    got = {(t.language, t.word, t.sense_hint) for t in dog.translations}
    assert got == {("fr", "chien", "animal"), ("de", "Hund", "animal"), ("ja", "犬", "animal")}
    house = entries[("en", "house", "noun")]
    assert [t.word for t in house.translations] == ["maison", "Haus"]  # empty word dropped
    assert house.translations[0].tags == ("feminine",)


def test_sense_level_translations_stay_on_their_sense(
    entries: dict[tuple[str, str, str], WiktEntry],
) -> None:
    bank = entries[("en", "bank", "noun")]
    assert [t.word for t in bank.senses[0].translations] == ["banque", "banco"]
    assert [t.word for t in bank.senses[1].translations] == ["rive"]
    assert bank.translations == ()


def test_sub_sense_gloss_is_the_most_specific(
    entries: dict[tuple[str, str, str], WiktEntry],
) -> None:
    lit = entries[("en", "lit", "adj")]
    assert lit.senses[1].gloss == "Very drunk or high on drugs."
    assert [s.tags for s in lit.senses if "slang" in s.tags] == [("slang",), ("slang", "US")]


def test_form_of_gives_inflections(entries: dict[tuple[str, str, str], WiktEntry]) -> None:
    ran = entries[("en", "ran", "verb")]
    assert ran.senses[0].form_of == ("run",)
    assert [(r.form, r.lemma, r.pos) for r in kaikki.inflections(ran)] == [("ran", "run", "verb")]


def test_language_filter_and_gzip(sample: Path, tmp_path: Path) -> None:
    packed = tmp_path / "kaikki.jsonl.gz"
    packed.write_bytes(gzip.compress(sample.read_bytes()))
    french = list(kaikki.iter_entries(packed, languages={"fr"}))
    assert [(e.word, e.senses[0].examples) for e in french] == [("chien", ("Le chien aboie.",))]


def test_bad_line_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "broken.jsonl"
    bad.write_text('{"word": "a", "lang_code": "en", "pos": "noun", "senses": []}\n{"word": \n')
    stream = kaikki.iter_entries(bad)
    assert next(stream).word == "a"
    with pytest.raises(ParseError, match=r"broken\.jsonl:2"):
        next(stream)


def test_iter_inflections_over_a_file(sample: Path) -> None:
    rows = list(kaikki.iter_inflections(sample, language="en"))
    assert [(r.form, r.lemma) for r in rows] == [("ran", "run")]
    assert list(kaikki.iter_inflections(sample, language="fr")) == []
