"""GCIDE entry parser against a dictzip slice of the real dict-gcide 0.48.5 database."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.parsers.gcide import iter_entries, parse_entry
from lexicon_server.builder.records import DefinitionEntry


@pytest.fixture(scope="module")
def entries(fixtures: Path) -> list[DefinitionEntry]:
    folder = fixtures / "gcide"
    return list(iter_entries(folder / "gcide.index", folder / "gcide.dict.dz"))


def _one(entries: list[DefinitionEntry], word: str, pos: str) -> DefinitionEntry:
    (entry,) = [e for e in entries if e.headword == word and e.pos == pos]
    return entry


def test_headers(entries: list[DefinitionEntry]) -> None:
    house = _one(entries, "House", "n.")
    assert house.pronunciation == "hous" and house.inflections == ("Houses",)
    assert house.etymology is not None and house.etymology.startswith("OE. hous, hus, AS.")
    assert "See Hide" in house.etymology  # braces dropped, text kept
    verb = _one(entries, "House", "v. t.")
    assert verb.inflections == ("Housed", "Housing") and verb.etymology == "AS. h?sian."
    banc = _one(entries, "Banc", "n.")  # 'Banc \\Banc\\, Bancus \\Ban"cus\\, Bank \\Bank\\, n.'
    assert banc.etymology == "OF. banc, LL. bancus. See Bank, n."
    abaculus = _one(entries, "Abaculus", "n.")  # the header wraps onto '{Abaculi} (-l[imac]).'
    assert abaculus.inflections == ("Abaculi",) and abaculus.etymology == "L., dim. of abacus."


def test_senses_domains_and_quotations(entries: list[DefinitionEntry]) -> None:
    house = _one(entries, "House", "n.")
    assert [s.number for s in house.senses] == [str(n) for n in range(1, 12)]  # '12.' is empty
    first = house.senses[0]
    assert first.definition.startswith("A structure intended or used as a habitation")
    assert [(q.text[:20], q.author) for q in first.quotations] == [
        ("Houses are built to ", "Bacon"),
        ("Bees with smoke and ", "Shak"),
    ]
    assert house.senses[5].domain == "Com." and house.senses[5].definition.startswith("A firm")
    assert house.synonyms == ("Dwelling", "residence", "abode") and house.source == "1913 Webster"
    wrapped = _one(entries, "House", "v. t.").senses[2].quotations[0]
    assert wrapped.author == "Sir P. Sidney"  # '--Sir' / 'P. Sidney.' over two lines
    assert _one(entries, "Rhizopoda", "n. pl.").senses[0].domain == "Zool."  # from 'n. pl. (Zool.)'


def test_unnumbered_and_wordnet_entries(entries: list[DefinitionEntry]) -> None:
    (housage,) = [e for e in entries if e.headword == "Housage"]
    assert [s.number for s in housage.senses] == [None]
    assert housage.senses[0].definition.startswith("A fee for keeping goods")
    zero = entries[0]  # the release's first entry opens with an epigraph
    assert (zero.headword, zero.pos, zero.synonyms) == ("0", "adj.", ("zero",))
    assert zero.source == "WordNet 1.5 +PJC"
    cat = _one(entries, "Cat o' nine tails", "n.")
    assert cat.synonyms == ("cat",)  # not the next entry's 'Catopter' that bled into it


def test_no_markup_is_left(entries: list[DefinitionEntry]) -> None:
    for entry in entries:
        for sense in entry.senses:
            assert "{" not in sense.definition and "[1913 Webster]" not in sense.definition
            assert sense.definition and "\n" not in sense.definition


def test_fragments_are_skipped_not_fatal(entries: list[DefinitionEntry]) -> None:
    # 'Rhizopoda' is also the key of a fragment ('{Molluscoidea}, including ...').
    assert parse_entry("{Molluscoidea}, including Brachiopoda and Bryozoa.\n") is None
    assert len([e for e in entries if e.headword == "Rhizopoda"]) == 1


def test_a_dictd_file_that_is_not_gcide_is_an_error(fixtures: Path, tmp_path: Path) -> None:
    freedict = fixtures / "freedict"
    with pytest.raises(ParseError, match=r"not a GCIDE file|expected cp1252 text"):
        list(
            iter_entries(freedict / "freedict-eng-fra.index", freedict / "freedict-eng-fra.dict.dz")
        )


def test_truncated_dict_is_reported(fixtures: Path, tmp_path: Path) -> None:
    text = gzip.decompress((fixtures / "gcide" / "gcide.dict.dz").read_bytes())
    cut = tmp_path / "gcide.dict"
    cut.write_bytes(text[: len(text) // 2])
    with pytest.raises(
        ParseError,
        match=r"gcide\.dict:\d+: entry '\w+' \(index line \d+, byte \d+\): "
        r"expected \d+ bytes of text, the file ends",
    ):
        list(iter_entries(fixtures / "gcide" / "gcide.index", cut))


def test_usage_labels_are_kept_as_written_and_given_apart(entries: list[DefinitionEntry]) -> None:
    """'[Obs.]' once came out as 'O' and '[slang]' as 's' (read as character entities)."""
    abate = _one(entries, "Abate", "v. t.")
    beat = next(s for s in abate.senses if s.definition.startswith("To beat down"))
    assert beat.definition == "To beat down; to overthrow. [Obs.]" and beat.labels == ("Obs.",)
    (lit,) = [e for e in entries if e.headword == "Lit" and len(e.senses) == 2]
    assert lit.senses[1].definition.endswith("-- often used with up. [slang]")
    assert lit.senses[1].labels == ("slang",) and lit.senses[0].labels == ()
    run = [s.labels for e in entries if e.headword == "Run" for s in e.senses if s.labels]
    assert ("Colloq. U.S.",) in run and ("Colloq.",) in run
    # Character entities are still letters: 'Abaculi (-l[imac])' in the header.
    assert _one(entries, "Abaculus", "n.").inflections == ("Abaculi",)


@pytest.mark.parametrize(
    ("labels", "tags"),
    [
        (("slang",), ["slang"]),
        (("Slang, U. S.",), ["slang"]),
        (("Obs. or Colloq.",), ["obsolete", "colloquial"]),
        (("R.",), ["rare"]),
        (("Prov. Eng.", "Obs."), ["dialect", "obsolete"]),
        (("Scot.",), []),
        (("Written also bouse",), []),
    ],
)
def test_labels_become_register_tags(labels: tuple[str, ...], tags: list[str]) -> None:
    from lexicon_server.builder.gcide_writer import register_tags

    assert register_tags(labels) == tags
