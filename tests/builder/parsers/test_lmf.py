"""WN-LMF parser: a hand-written OEWN-shaped file and the `wn` package's LMF samples."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from lexicon_server.builder.parsers import lmf
from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.records import SynsetRecord


@pytest.fixture(scope="module")
def oewn(fixtures: Path) -> Path:
    return fixtures / "oewn" / "english-wordnet-2025-sample.xml"


@pytest.fixture(scope="module")
def synsets(oewn: Path) -> dict[str, SynsetRecord]:
    return {s.external_id: s for s in lmf.iter_synsets(oewn)}


def test_dog_canine_carnivore(synsets: dict[str, SynsetRecord]) -> None:
    dog = synsets["oewn-02086723-n"]
    assert [m.lemma for m in dog.members] == ["dog", "domestic dog", "Canis familiaris"]
    assert dog.lexname == "noun.animal"  # dc:subject holds a Wikidata id here and is ignored
    assert dog.examples == ("the dog barked all night",)
    assert dog.gloss.startswith("a member of the genus Canis")
    (up,) = [p.target_synset for p in dog.pointers if p.relation == "hypernym"]
    (top,) = [p.target_synset for p in synsets[up].pointers if p.relation == "hypernym"]
    assert [m.lemma for m in synsets[top].members] == ["carnivore"]


def test_member_order_follows_members_attribute(synsets: dict[str, SynsetRecord]) -> None:
    bank = synsets["oewn-08437235-n"]
    assert [m.lemma for m in bank.members][:2] == ["depository financial institution", "bank"]
    assert bank.members[1].sense_key == "oewn-bank__1.14.00.."


def test_sense_relations_become_member_pointers(synsets: dict[str, SynsetRecord]) -> None:
    verb = synsets["oewn-02348370-v"]
    (derivation,) = [p for p in verb.pointers if p.relation == "derivation"]
    assert (derivation.source_member, derivation.target_member) == (1, 2)
    target = synsets[derivation.target_synset]
    assert target.members[derivation.target_member - 1].lemma == "bank"
    good = synsets["oewn-01123148-a"]
    assert [(p.relation, p.target_synset) for p in good.pointers] == [
        ("antonym", "oewn-01125429-a")
    ]


def test_satellites_and_adjposition(synsets: dict[str, SynsetRecord]) -> None:
    silent = synsets["oewn-01925827-s"]
    assert silent.pos == "adj" and silent.satellite
    assert [m.lemma for m in silent.members] == ["silent", "soundless"]
    assert synsets["oewn-00929798-s"].members[0].adjposition == "ip"
    assert not synsets["oewn-01922763-a"].satellite


def test_entries_with_pronunciations_forms_and_sense_examples(oewn: Path) -> None:
    entries = {(e.lemma, e.pos): e for e in lmf.iter_entries(oewn)}
    dog = entries[("dog", "noun")]
    assert [(p.text, p.variety) for p in dog.pronunciations] == [("dɒɡ", "GB"), ("dɔɡ", "US")]
    assert dog.forms == ("dogs",) and dog.language == "en" and dog.lexicon == "oewn"
    bank_verb = entries[("bank", "verb")].senses[0]
    assert bank_verb.examples == ("She banks at the local bank",)
    assert bank_verb.relations == (("derivation", "oewn-bank__1.14.00.."),)
    assert [s.synset for s in entries[("bank", "noun")].senses] == [
        "oewn-09236472-n",
        "oewn-08437235-n",
    ]


def test_lexicon_info(oewn: Path, fixtures: Path) -> None:
    (info,) = lmf.lexicons(oewn)
    assert (info.id, info.language, info.version) == ("oewn", "en", "2025")
    assert "creativecommons.org/licenses/by/4.0" in info.license
    two = lmf.lexicons(fixtures / "lmf-wn" / "mini-lmf-1.0.xml")
    assert [i.language for i in two] == ["en", "es"]


def test_wn_lmf_1_0_sample_two_lexicons_and_counts(fixtures: Path) -> None:
    path = fixtures / "lmf-wn" / "mini-lmf-1.0.xml"
    spanish = list(lmf.iter_entries(path, lexicon="test-es"))
    assert spanish and {e.language for e in spanish} == {"es"}
    ranks = {r.sense_key: r for r in lmf.iter_sense_ranks(path, lexicon="test-en")}
    assert ranks["test-en-information-n-0001-01"].tag_count == 3
    english = {s.external_id: s for s in lmf.iter_synsets(path, lexicon="test-en")}
    assert all(s.external_id.startswith("test-en-") for s in english.values())
    example = english["test-en-0002-n"]
    assert {m.lemma for m in example.members} == {"example", "illustration"}
    targets = {p.target_synset for s in english.values() for p in s.pointers}
    assert targets <= set(english)


def test_wn_lmf_1_4_sense_numbers_and_members(fixtures: Path) -> None:
    path = fixtures / "lmf-wn" / "mini-lmf-1.4.xml"
    numbers = {r.sense_key: r.sense_number for r in lmf.iter_sense_ranks(path)}
    assert numbers["test-1.4-foo_bar-n-2"] == 1 and numbers["test-1.4-foo_bar-n-1"] == 2
    assert numbers["test-1.4-Baz-n-2"] == 2  # no 'n': position in the entry
    first = next(s for s in lmf.iter_synsets(path) if s.external_id == "test-1.4-1")
    assert [m.lemma for m in first.members] == ["Foo Bar", "foo bar", "baz", "BAZ", "Baz"]
    metaphor = next(p for p in first.pointers if p.relation == "metaphor")
    assert (metaphor.source_member, metaphor.target_member) == (1, 3)


def test_malformed_xml_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "broken.xml"
    bad.write_text('<LexicalResource><Lexicon id="x" language="en"><LexicalEntry id="a">')
    with pytest.raises(ParseError, match=r"broken\.xml"):
        list(lmf.iter_entries(bad))


def _synthetic(path: Path, entries: int) -> Path:
    with open(path, "w", encoding="utf-8") as out:
        out.write('<LexicalResource><Lexicon id="t" language="en" version="1" license="x">\n')
        for i in range(entries):
            out.write(
                f'<LexicalEntry id="t-w{i}-n"><Lemma writtenForm="w{i}" partOfSpeech="n"/>'
                f'<Sense id="t-w{i}-n-1" synset="t-{i}-n"/></LexicalEntry>\n'
            )
        for i in range(entries):
            out.write(
                f'<Synset id="t-{i}-n" partOfSpeech="n" members="t-w{i}-n">'
                f"<Definition>thing number {i} " + "padding " * 20 + "</Definition></Synset>\n"
            )
        out.write("</Lexicon></LexicalResource>\n")
    return path


def _peak(path: Path) -> int:
    tracemalloc.start()
    try:
        count = sum(1 for _ in lmf.iter_synsets(path))
        assert count > 0
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_input(tmp_path: Path) -> None:
    small = _peak(_synthetic(tmp_path / "small.xml", 200))
    large = _peak(_synthetic(tmp_path / "large.xml", 3_000))  # 15x the input
    assert large < 3 * small
