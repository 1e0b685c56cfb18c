"""ConceptNet 5.7 assertions parser against a hand-written sample in the published format."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.parsers.conceptnet import iter_assertions, split_term


@pytest.fixture(scope="module")
def sample(fixtures: Path) -> Path:
    return fixtures / "conceptnet" / "conceptnet-assertions-5.7.0-sample.csv"


def test_every_term_edge_is_read_and_urls_skipped(sample: Path) -> None:
    edges = list(iter_assertions(sample))
    lines = sample.read_text(encoding="utf-8").splitlines()
    assert len(edges) == len(lines) - 1  # the /r/ExternalURL line
    assert all(e.relation != "ExternalURL" for e in edges)
    assert "dbpedia/genre" in {e.relation for e in edges}


def test_fields(sample: Path) -> None:
    edges = list(iter_assertions(sample))
    isa = next(e for e in edges if e.relation == "IsA" and e.start_text == "canine")
    assert (isa.start_language, isa.end_language, isa.end_text) == ("en", "en", "carnivore")
    assert isa.weight == 2.0 and isa.dataset == "/d/wordnet/3.1"
    related = next(e for e in edges if e.relation == "RelatedTo")
    assert related.weight == pytest.approx(3.464)
    assert any(e.start_text == "ice_cream" for e in edges)  # underscores kept as published


def test_language_and_relation_filters(sample: Path) -> None:
    cross = list(iter_assertions(sample, languages={"en", "fr"}, relations={"Synonym"}))
    assert [(e.start_text, e.end_language, e.end_text) for e in cross] == [
        ("house", "fr", "maison")
    ]
    japanese = list(iter_assertions(sample, languages={"ja", "en"}, relations={"Synonym"}))
    assert [(e.start_language, e.start_text) for e in japanese] == [("ja", "犬")]


def test_gzip_input(sample: Path, tmp_path: Path) -> None:
    packed = tmp_path / "conceptnet-assertions-5.7.0.csv.gz"
    packed.write_bytes(gzip.compress(sample.read_bytes()))
    assert list(iter_assertions(packed)) == list(iter_assertions(sample))


def test_split_term() -> None:
    assert split_term("/c/en/ice_cream/n/wn/food") == ("en", "ice_cream")
    assert split_term("/c/fr/maison") == ("fr", "maison")
    assert split_term("http://dbpedia.org/resource/Dog") is None
    assert split_term("/c/en") is None


def test_bad_lines_are_reported(tmp_path: Path) -> None:
    short = tmp_path / "short.csv"
    short.write_text("/a/x\t/r/IsA\t/c/en/a\n")
    with pytest.raises(ParseError, match=r"short\.csv:1: expected 5"):
        list(iter_assertions(short))
    bad_json = tmp_path / "json.csv"
    bad_json.write_text("/a/x\t/r/IsA\t/c/en/a\t/c/en/b\t{weight: 1}\n")
    with pytest.raises(ParseError, match="JSON"):
        list(iter_assertions(bad_json))


def test_info_column_read_like_json_loads(tmp_path: Path) -> None:
    odd = tmp_path / "odd.csv"
    odd.write_text(
        '/a/x\t/r/IsA\t/c/en/a\t/c/en/b\t{"dataset": "/d/x", "sources": [{"weight": 9}], '
        '"weight": 0.25}\n'
        '/a/y\t/r/IsA\t/c/en/a\t/c/en/c\t{"weight": 2e-1, "dataset": "/d/\\"q\\""}\n'
        "/a/z\t/r/IsA\t/c/en/a\t/c/en/d\t{}\n"
    )
    got = [(e.weight, e.dataset) for e in iter_assertions(odd)]
    assert got == [(0.25, "/d/x"), (0.2, '/d/"q"'), (1.0, "")]
