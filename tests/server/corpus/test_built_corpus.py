"""The tools on corpora made by the real builder (root conftest fixtures).

`sample_data_dir`: the committed fixture slices built, packaged, installed and activated
through lexicon_store. `starter_data_dir` (marker `starter`): the real starter corpus.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from _support.lookup import all_translations
from _support.provenance import assert_sources_complete
from mcp import Client

from lexicon_server.config import load_config
from lexicon_server.corpus.reader import Corpus
from lexicon_server.query.common import entry_installed, normalize
from lexicon_server.query.lookup import lookup_data
from lexicon_server.query.lookup_rows import target_entry_column
from lexicon_server.query.translate import translate
from lexicon_server.server import build_server
from lexicon_store.selection import load_active


def _data_dir(request: pytest.FixtureRequest, name: str) -> Path:
    return Path(request.getfixturevalue(name))


def _calls(data_dir: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    corpus = Corpus(load_active(data_dir))
    server = build_server(corpus, load_config({}))

    async def main() -> list[dict[str, Any]]:
        out = []
        async with Client(server) as client:
            for name, args in calls:
                result = await client.call_tool(name, args)
                assert not result.is_error, (name, args, result.content)
                assert result.structured_content is not None
                assert_sources_complete(result.structured_content)
                out.append(result.structured_content)
        return out

    return anyio.run(main)


def _texts(translate: dict[str, Any]) -> set[str]:
    return {c["text"] for g in translate["groups"] for c in g["candidates"]}


def test_sample_corpus_through_the_client(request: pytest.FixtureRequest) -> None:
    data_dir = _data_dir(request, "sample_data_dir")
    lookup, inflected, synonyms, hypernyms, translate, neighbours = _calls(
        data_dir,
        [
            ("dictionary_lookup", {"word": "dog"}),
            ("dictionary_lookup", {"word": "dogs"}),
            ("dictionary_synonyms", {"word": "dog"}),
            ("dictionary_relations", {"word": "dog", "relation": "hypernym", "max_depth": 2}),
            ("dictionary_translate", {"word": "house", "target_language": "fr"}),
            ("dictionary_semantic_neighbors", {"word": "king", "limit": 20}),
        ],
    )
    assert lookup["found"] and lookup["senses"]
    first = lookup["senses"][0]
    assert lookup["sources"][first.get("source", lookup["sense_source"])] and first["synset"]
    assert any("canis" in s["gloss"].lower() for s in lookup["senses"])
    assert inflected["resolutions"][0]["lemma"] == "dog"
    assert inflected["resolutions"][0]["via"] in {"inflection_table", "suffix_rule"}
    assert "domestic dog" in {c["text"] for g in synonyms["groups"] for c in g["candidates"]}
    direct = [r for r in hypernyms["results"] if r.get("relation_scope", "direct") == "direct"]
    assert any("canine" in r["target"]["words"] for r in direct)
    transitive = [
        r for r in hypernyms["results"] if r.get("relation_scope", "direct") == "transitive"
    ]
    for hop in transitive:
        assert hop["distance"] == 2 and len(hop["path"]) == 2
        assert hop["path"][0]["to_id"] == hop["path"][1]["from_id"]
    assert "maison" in _texts(translate)
    assert "queen" in {n["text"] for n in neighbours["neighbors"]}


def test_sample_corpus_target_entries_come_from_the_builder(
    request: pytest.FixtureRequest,
) -> None:
    """The real builder records whether each translation's target word has an entry
    (`translations.target_entry`); look-up and translate read it, and it agrees with
    probing the installed target language for every translation they show."""
    corpus = Corpus(load_active(_data_dir(request, "sample_data_dir")))
    try:
        conn = corpus.db("en", "lexical")
        assert target_entry_column(conn)
        linked = conn.execute(
            "SELECT count(*) FROM translations WHERE target_entry IS NOT NULL"
        ).fetchone()[0]
        assert linked > 0
        words = [
            row[0]
            for row in conn.execute(
                "SELECT DISTINCT t.text FROM translations tr JOIN terms t ON t.id = tr.term_id "
                "ORDER BY t.text LIMIT 200"
            )
        ]
        flags: list[bool] = []
        for word in words:
            result = lookup_data(corpus, word, limit=100, translations_limit=100)
            assert_sources_complete(result)
            for t in all_translations(result):
                expected = entry_installed(corpus, t["target_language"], normalize(t["text"]))
                assert t["target_entry_installed"] is expected, (word, t)
                flags.append(expected)
            french = translate(corpus, word, "fr", limit=100)
            assert_sources_complete(french.model_dump(mode="json"))
            for group in french.groups:
                for c in group.candidates:
                    assert c.target_entry_installed is entry_installed(
                        corpus, "fr", normalize(c.text)
                    ), (word, c)
        assert True in flags and False in flags
    finally:
        corpus.close()


@pytest.mark.starter
def test_starter_translate_house_into_french(request: pytest.FixtureRequest) -> None:
    data_dir = _data_dir(request, "starter_data_dir")
    (translate,) = _calls(
        data_dir, [("dictionary_translate", {"word": "house", "target_language": "fr"})]
    )
    assert "maison" in _texts(translate)


@pytest.mark.starter
def test_starter_lookup_translations_reach_every_language(request: pytest.FixtureRequest) -> None:
    # FreeDict gives 'dog' 16 German rows (most of them tools called "dog") before any
    # other language: the default budget of 20 must still reach French and the rest.
    data_dir = _data_dir(request, "starter_data_dir")
    (dog,) = _calls(data_dir, [("dictionary_lookup", {"word": "dog"})])
    sets = dog["unsensed_translations"]
    languages = [t["target_language"] for t in sets]
    assert languages == sorted(set(languages))  # shown one set per language, in order
    assert set(languages) == {"de", "es", "fi", "fr", "it", "ja", "pl", "pt"}
    french = next(t for t in sets if t["target_language"] == "fr")
    assert "chien" in [i["text"] for i in french["items"]]
    assert sum(len(t["items"]) for t in sets) == 20


@pytest.mark.starter
def test_starter_semantic_neighbours_of_king(request: pytest.FixtureRequest) -> None:
    data_dir = _data_dir(request, "starter_data_dir")
    (result,) = _calls(data_dir, [("dictionary_semantic_neighbors", {"word": "king"})])
    assert "queen" in {n["text"] for n in result["neighbors"]}


@pytest.mark.starter
@pytest.mark.parametrize(
    ("word", "first_gloss", "others"),
    [
        ("be", "have the quality of being", True),  # not 'Be', beryllium
        ("Be", "a light strong brittle grey toxic bivalent metallic element", True),
        ("cat", "feline mammal usually having thick soft fur", True),  # not 'CAT', the scan
        ("day", "time for Earth to make a complete rotation on its axis", True),  # not 'Day'
        # an inflected form in lower case reaches lower-case lemmas only: not 'Night'
        ("nights", "the time after sunset and before sunrise while it is dark outside", False),
    ],
)
def test_starter_senses_of_the_term_spelled_as_asked_come_first(
    request: pytest.FixtureRequest, word: str, first_gloss: str, others: bool
) -> None:
    """Several terms share a spelling up to case ('be', 'Be'): every tool leads with the
    senses of the one spelled as the query, then the others."""
    data_dir = _data_dir(request, "starter_data_dir")
    lookup, synonyms, relations, translate = _calls(
        data_dir,
        [
            ("dictionary_lookup", {"word": word, "limit": 100}),
            ("dictionary_synonyms", {"word": word}),
            ("dictionary_relations", {"word": word, "relation": "hypernym"}),
            ("dictionary_translate", {"word": word, "target_language": "fr"}),
        ],
    )
    assert lookup["senses"][0]["gloss"].startswith(first_gloss)
    lemma = lookup["resolutions"][0]["lemma"]
    assert lookup["senses"][0]["word"] == lemma == synonyms["resolutions"][0]["lemma"]
    words = [s["word"] for s in lookup["senses"]]
    assert (len(set(words)) > 1) is others  # the other terms' senses come after
    assert words == sorted(words, key=lambda w: w != lemma)
    own = {s["id"] for s in lookup["senses"] if s["word"] == lemma}
    # The other tools skip senses with nothing to show, but start from the same term.
    assert synonyms["groups"][0]["sense"]["id"] in own
    assert relations["results"][0]["from_sense"] in own
    sensed = [g for g in translate["groups"] if g.get("sense") is not None]
    if sensed:  # the starter's English-French translations are mostly not tied to senses
        assert sensed[0]["sense"]["id"] in own


@pytest.mark.starter
def test_starter_inflected_forms_read_as_their_parts_of_speech(
    request: pytest.FixtureRequest,
) -> None:
    """An inflected form shows the senses it can have: 'ran' and 'went' only verbs (WordNet's
    exception lists), 'leaves' the noun 'leaf' from the lists and the verb 'leave' by rule."""
    data_dir = _data_dir(request, "starter_data_dir")
    ran, went, leaves = _calls(
        data_dir,
        [
            ("dictionary_lookup", {"word": "ran", "limit": 100}),
            ("dictionary_lookup", {"word": "went", "limit": 100}),
            ("dictionary_lookup", {"word": "leaves", "limit": 100}),
        ],
    )
    for answer, lemma in ((ran, "run"), (went, "go")):
        assert {s["pos"] for s in answer["senses"]} == {"verb"}
        assert {s["word"] for s in answer["senses"]} == {lemma}
        assert answer["count"] == answer["total_senses"] > 10
    read = {(s["word"], s["pos"]) for s in leaves["senses"]}
    assert {("leaf", "noun"), ("leave", "verb")} <= read
    assert {"inflection_table", "suffix_rule"} == {r["via"] for r in leaves["resolutions"]}


@pytest.mark.starter
@pytest.mark.parametrize(
    ("form", "lemmas"),
    [
        ("was", {("be", "verb")}),  # not 'Be' (beryllium) nor 'WA' (Washington) by '-s'
        ("has", {("have", "verb")}),  # not 'HA' by '-s', nor the noun 'have'
        ("hates", {("hate", "noun"), ("hate", "verb")}),  # not 'hat' by '-es'
        ("aurorae", {("aurora", "noun"), ("Aurora", "noun")}),
        ("americans", {("American", "noun")}),  # no lower-case lemma: any case
        ("chummed", {("chum", "noun")}),  # WordNet 3.0 lists the verb; 3.1 has the noun
    ],
)
def test_starter_inflected_forms_reach_the_right_lemmas(
    request: pytest.FixtureRequest, form: str, lemmas: set[tuple[str, str]]
) -> None:
    data_dir = _data_dir(request, "starter_data_dir")
    (answer,) = _calls(data_dir, [("dictionary_lookup", {"word": form, "limit": 100})])
    assert {(s["word"], s["pos"]) for s in answer["senses"]} == lemmas
    first = answer["senses"][0]["word"]
    assert first == first.lower() or not any(w == w.lower() for w, _ in lemmas)


@pytest.mark.starter
@pytest.mark.parametrize(
    ("form", "first"),
    [("Was", "be"), ("Bases", "base"), ("Hopes", "hope"), ("CATS", "cat"), ("Aurorae", "aurora")],
)
def test_starter_capitalised_inflected_forms_lead_with_the_common_word(
    request: pytest.FixtureRequest, form: str, first: str
) -> None:
    """A form capitalised at the start of a sentence is still the common word first."""
    data_dir = _data_dir(request, "starter_data_dir")
    (answer,) = _calls(data_dir, [("dictionary_lookup", {"word": form, "limit": 1})])
    assert answer["senses"][0]["word"] == first


@pytest.mark.starter
def test_starter_adjective_synonyms_reach_similar_synsets(request: pytest.FixtureRequest) -> None:
    data_dir = _data_dir(request, "starter_data_dir")
    happy, large = _calls(
        data_dir,
        [("dictionary_synonyms", {"word": "happy"}), ("dictionary_synonyms", {"word": "large"})],
    )
    main = happy["groups"][0]
    assert main["sense"]["gloss"].startswith("enjoying or showing or marked by joy")
    assert {"blissful", "halcyon"} <= {c["text"] for c in main["candidates"]}
    assert {c["relation"] for c in main["candidates"]} == {"similar"}
    # 'large' links to some fifty similar synsets; past `limit` they are not read, so the
    # note gives a lower bound
    assert large["budget"]["cut"][0].startswith("sense-scoped candidates: at least ")
