"""WNDB parser against the committed WordNet 3.1 slice (a valid WNDB database) and 3.0 .exc."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest

from lexicon_server.builder.parsers import wndb
from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.records import SynsetRecord


@pytest.fixture(scope="module")
def wn31(fixtures: Path) -> Path:
    return fixtures / "wordnet31"


@pytest.fixture(scope="module")
def synsets(wn31: Path) -> dict[str, SynsetRecord]:
    return {s.external_id: s for s in wndb.iter_synsets(wn31, prefix="wn31")}


def _by_lemma(synsets: dict[str, SynsetRecord], lemma: str, pos: str) -> list[SynsetRecord]:
    return [s for s in synsets.values() if s.pos == pos and lemma in (m.lemma for m in s.members)]


def test_every_pointer_lands_on_a_synset_of_the_slice(synsets: dict[str, SynsetRecord]) -> None:
    assert len(synsets) > 300
    targets = {p.target_synset for s in synsets.values() for p in s.pointers}
    assert targets <= set(synsets)


def test_dog_canine_carnivore_chain(synsets: dict[str, SynsetRecord]) -> None:
    dog = synsets["wn31-00007644-n"]
    assert dog.members[0].lemma == "dog" and dog.lexname == "noun.animal"
    hypernyms = [synsets[p.target_synset] for p in dog.pointers if p.relation == "hypernym"]
    canine = next(h for h in hypernyms if h.members[0].lemma == "canine")
    up = [synsets[p.target_synset] for p in canine.pointers if p.relation == "hypernym"]
    assert [u.members[0].lemma for u in up] == ["carnivore"]
    # the inverse direction is published too
    assert any(
        p.relation == "hyponym" and p.target_synset == dog.external_id for p in canine.pointers
    )


def test_bank_noun_and_verb_senses_with_glosses_and_examples(
    synsets: dict[str, SynsetRecord],
) -> None:
    nouns, verbs = _by_lemma(synsets, "bank", "noun"), _by_lemma(synsets, "bank", "verb")
    assert len(nouns) == 10 and len(verbs) == 8
    river = next(s for s in nouns if s.gloss.startswith("sloping land"))
    assert "they pulled the canoe up on the bank" in river.examples
    assert '"' not in river.gloss
    assert all(s.gloss for s in nouns + verbs)


def test_lexical_pointers_keep_member_numbers(synsets: dict[str, SynsetRecord]) -> None:
    king = next(
        s for s in _by_lemma(synsets, "king", "noun") if s.gloss.startswith("a male sovereign")
    )
    antonyms = [p for p in king.pointers if p.relation == "antonym"]
    assert antonyms and all(p.source_member >= 1 and p.target_member >= 1 for p in antonyms)
    pairs = {
        (
            king.members[p.source_member - 1].lemma,
            synsets[p.target_synset].members[p.target_member - 1].lemma,
        )
        for p in antonyms
    }
    assert ("king", "queen") in pairs


def test_sense_keys_match_index_sense(wn31: Path, synsets: dict[str, SynsetRecord]) -> None:
    ranks = list(wndb.iter_sense_index(wn31 / "index.sense", prefix="wn31"))
    from_index = {(r.sense_key, r.synset) for r in ranks}
    from_data = {(m.sense_key, s.external_id) for s in synsets.values() for m in s.members}
    assert from_index == from_data
    first_dog = next(r for r in ranks if r.sense_key == "dog%1:05:00::")
    assert (first_dog.sense_number, first_dog.synset) == (1, "wn31-00007644-n")


def test_satellites_and_adjective_markers(synsets: dict[str, SynsetRecord]) -> None:
    silent = [s for s in _by_lemma(synsets, "silent", "adj") if s.satellite]
    assert silent and all(s.external_id.endswith("-a") for s in silent)
    assert any(m.sense_key == "silent%5:00:00:quiet:01" for s in silent for m in s.members)
    marked = [m for s in synsets.values() for m in s.members if m.adjposition]
    assert marked and all(m.adjposition in {"a", "p", "ip"} for m in marked)
    assert all("(" not in m.lemma for m in marked)


def test_relation_names_cover_every_symbol_in_the_full_tables() -> None:
    names = {name for table in wndb.POINTER_RELATIONS.values() for name in table.values()}
    assert {"hypernym", "instance_hyponym", "mero_part", "entails", "similar"} <= names
    assert len(wndb.POINTER_RELATIONS["noun"]) == 20


def test_license_header_is_read_and_skipped(wn31: Path) -> None:
    text = wndb.license_header(wn31 / "data.noun")
    assert "Princeton University" in text and "WordNet 3.1 Copyright" in text
    assert not text.splitlines()[0][0].isdigit()


def test_exceptions(fixtures: Path) -> None:
    rows = list(wndb.iter_exceptions(fixtures / "wordnet30" / "noun.exc"))
    assert {(r.form, r.lemma) for r in rows if r.form == "leaves"} == {
        ("leaves", "leaf"),
        ("leaves", "leave"),
    }
    assert all(r.pos == "noun" for r in rows)
    verbs = list(wndb.iter_exceptions(fixtures / "wordnet30" / "verb.exc"))
    assert any((r.form, r.lemma, r.pos) == ("went", "go", "verb") for r in verbs)


def test_bad_line_fails_with_its_position_after_earlier_records(wn31: Path, tmp_path: Path) -> None:
    lines = (wn31 / "data.verb").read_text().splitlines(keepends=True)
    body = [line for line in lines if not line.startswith("  ")]
    (tmp_path / "data.verb").write_text("".join([*body[:3], body[3][:40] + "\n"]))
    stream = wndb.iter_data_file(tmp_path / "data.verb", prefix="x")
    assert len([next(stream) for _ in range(3)]) == 3  # records arrive before the bad line
    with pytest.raises(ParseError, match=r"data\.verb:4"):
        next(stream)


def test_agrees_with_nltk_wordnet_reader(
    wn31: Path, synsets: dict[str, SynsetRecord], tmp_path: Path
) -> None:
    nltk = pytest.importorskip("nltk")
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class Reader(WordNetCorpusReader):  # type: ignore[misc]
        def map_wn(self, version: str = "wordnet") -> None:
            return None  # WordNet 3.1: skip NLTK's mapping to the 3.0 corpus it would download

    root = tmp_path / "wn"
    root.mkdir()
    for path in wn31.glob("*.*"):
        shutil.copy(path, root)
    for pos in ("noun", "verb", "adj", "adv"):
        (root / f"{pos}.exc").write_text("")
    numbers = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}
    (root / "lexnames").write_text(
        "".join(
            f"{i:02d}\t{name}\t{numbers[name.split('.')[0]]}\n"
            for i, name in enumerate(wndb.LEXNAMES)
        )
    )
    nltk.data.path.append(str(root))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reader = Reader(str(root), None)
            theirs = list(reader.all_synsets())
    finally:
        nltk.data.path.remove(str(root))
    assert len(theirs) == len(synsets)
    for synset in theirs:
        ours = synsets[f"wn31-{synset.offset():08d}-{synset.pos().replace('s', 'a')}"]
        assert [m.lemma for m in ours.members] == [lemma.name() for lemma in synset.lemmas()]
        assert [m.sense_key for m in ours.members] == [lemma.key() for lemma in synset.lemmas()]
        assert ours.satellite == (synset.pos() == "s")
        assert ours.lexname == synset.lexname()
        assert list(ours.examples) == list(synset.examples())
        hypernyms = {p.target_synset for p in ours.pointers if p.relation == "hypernym"}
        assert hypernyms == {f"wn31-{h.offset():08d}-{h.pos()}" for h in synset.hypernyms()}
