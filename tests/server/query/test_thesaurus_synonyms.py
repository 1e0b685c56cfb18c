"""MyThes thesauri in dictionary_synonyms, on the sample build of the committed slices.

The sample build reads the German and French slices of `tests/fixtures/mythes/` into
their own components, `de/thesaurus.sqlite` and `fr/thesaurus.sqlite` (docs/thesauri.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from _support.provenance import assert_sources_complete
from mcp import Client

from lexicon_server.builder.parsers import mythes
from lexicon_server.builder.thesaurus_writer import note_relation
from lexicon_server.config import load_config
from lexicon_server.corpus.reader import Corpus
from lexicon_server.errors import InvalidArgument
from lexicon_server.query.synonyms import synonyms
from lexicon_server.query.translate import translate
from lexicon_server.server import build_server
from lexicon_store.selection import load_active

FIXTURES = Path(__file__).parents[2] / "fixtures" / "mythes"


def _meanings(path: Path, headword: str) -> list[list[str]]:
    """The synonym terms of each distinct meaning line of `headword`, as the parser reads
    them (the headword's own spelling and hypernym/antonym terms left out)."""
    out: list[list[str]] = []
    for entry in mythes.iter_entries(path):
        if entry.headword != headword:
            continue
        notes = entry.notes or (None,) * len(entry.terms)
        terms = [
            t
            for t, n in zip(entry.terms, notes, strict=True)
            if note_relation(n) == "synonym" and t.casefold() != headword.casefold()
        ]
        if terms not in out:
            out.append(terms)
    return out


def test_haus_answers_from_mythes_grouped_by_meaning(sample_corpus: Corpus) -> None:
    result = synonyms(sample_corpus, "Haus", language="de", limit=100, max_senses=100)
    assert result.found
    groups = [g for g in result.groups if g.sense is not None]
    assert groups and all(g.sense is not None and g.sense.source == "mythes-de" for g in groups)
    expected = _meanings(FIXTURES / "th_de_DE_v2.dat", "haus")
    # one group per distinct meaning line, in file order, each with its own terms
    assert [list(g.candidates) for g in groups] == [m for m in expected if m]
    family = next(g for g in groups if "Sippe" in g.candidates)
    assert "Eigenheim" not in family.candidates
    assert all(g.sense is not None and g.sense.id.startswith("de:t") for g in groups)
    assert result.sources["mythes-de"].startswith("LGPL")
    assert_sources_complete(result.model_dump(mode="json"))


def test_french_thesaurus_and_its_own_licence(sample_corpus: Corpus) -> None:
    result = synonyms(sample_corpus, "maison", language="fr", limit=100)
    texts = {c for g in result.groups for c in g.candidates}
    assert {"baraque", "cabane", "foyer", "villa"} <= texts
    assert result.sources["mythes-fr"] == "LGPL-2.1+"  # from the copyright stanza
    assert result.groups[0].sense is not None and result.groups[0].sense.pos == "Adjectif Nom"


def test_a_thesaurus_meaning_id_is_not_a_translation_sense(sample_corpus: Corpus) -> None:
    result = synonyms(sample_corpus, "Haus", language="de")
    handle = result.groups[0].sense.id if result.groups[0].sense else ""
    with pytest.raises(InvalidArgument):
        translate(sample_corpus, "Haus", "en", language="de", sense_id=handle)


def test_each_thesaurus_is_its_own_component_with_its_notice(sample_data_dir: Path) -> None:
    selection = load_active(sample_data_dir)
    assert "de/thesaurus.sqlite" in selection.files and "fr/thesaurus.sqlite" in selection.files
    components = dict(selection.components)
    assert components["de/thesaurus.sqlite"][0] == "de.lexical.thesaurus"
    licences = selection.files["DATA_LICENSES.md"].read_text(encoding="utf-8")
    de = licences.split("(`mythes-de`)")[1].split("\n## ")[0]
    assert "LGPL" in de and "OpenThesaurus" in de
    fr = licences.split("(`mythes-fr`)")[1].split("\n## ")[0]
    assert "Files: dictionaries/fr_FR/thes_fr.dat" in fr and "License: LGPL-2.1+" in fr


def test_haus_through_the_mcp_client(sample_data_dir: Path) -> None:
    corpus = Corpus(load_active(sample_data_dir))
    server = build_server(corpus, load_config({}))

    async def main() -> dict[str, Any]:
        async with Client(server) as client:
            result = await client.call_tool(
                "dictionary_synonyms", {"word": "Haus", "language": "de", "max_senses": 100}
            )
            assert not result.is_error, result.content
            assert result.structured_content is not None
            return result.structured_content

    answer = anyio.run(main)
    corpus.close()
    assert_sources_complete(answer)
    assert set(answer["sources"]) == {"mythes-de"}
    first = answer["groups"][0]
    assert first["sense"]["source"] == "mythes-de" and first["sense_scope"] == "sense"
    texts = {c for g in answer["groups"] for c in g["candidates"]}
    assert {"Eigenheim", "Heim", "Sippe"} <= texts
    json.dumps(answer)


def test_note_relations() -> None:
    assert note_relation("Oberbegriff") == "hypernym"
    assert note_relation("ugs.; Oberbegriff") == "hypernym"
    assert note_relation("generic term") == "hypernym"
    assert note_relation("antonym") == "antonym"
    assert note_relation("ugs.") == note_relation(None) == note_relation("Hauptform") == "synonym"
