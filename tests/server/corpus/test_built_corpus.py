"""The tools on corpora made by the real builder (root conftest fixtures).

`sample_data_dir`: the committed fixture slices built, packaged, installed and activated
through lexicon_store. `starter_data_dir` (marker `starter`): the real starter corpus.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from _support.dumped import dumped
from _support.lookup import all_translations
from _support.provenance import assert_sources_complete
from mcp import Client

from lexicon_server.config import load_config
from lexicon_server.corpus.normalize import norm
from lexicon_server.corpus.reader import Corpus
from lexicon_server.query.headwords import normalize
from lexicon_server.query.lookup import lookup
from lexicon_server.query.synonyms import UNSENSED_DEFAULT
from lexicon_server.query.targets import entry_installed, target_entry_column
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
            ("dictionary_lookup", {"word": "dog", "source_ids": True}),
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
    assert "domestic dog" in {c for g in synonyms["groups"] for c in g["candidates"]}
    direct = [r for r in hypernyms["results"] if r.get("relation_scope", "direct") == "direct"]
    assert any("canine" in r["words"] for r in direct)
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
            result = dumped(lookup(corpus, word, limit=100, translations_limit=100))
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


def _wordnet_senses(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """The senses of the lexical component (not GCIDE's, which follow them under GCIDE's
    own headwords), each with its `word` filled in where the answer left it out."""
    return [
        {**s, "word": s.get("word", answer["word"])}
        for s in answer["senses"]
        if s.get("source", answer.get("sense_source")) != "gcide"
    ]


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
    # other language: the default budget of 20 must still reach other languages. Since
    # MultiWordNet (issue 17) the senses' own translations (es, fr, it, pt) take their
    # share first, and the unsensed ones the rest, one set per language, in order. (A
    # default look-up shows no translations since issue 28: 20 is asked for here.)
    data_dir = _data_dir(request, "starter_data_dir")
    args = {"word": "dog", "limit": 10, "translations_limit": 20}
    (dog,) = _calls(data_dir, [("dictionary_lookup", args)])
    sets = dog["unsensed_translations"]
    languages = [t["target_language"] for t in sets]
    assert languages == sorted(set(languages))
    tied = [t for s in dog["senses"] for t in s.get("translations", [])]
    reached = set(languages) | {t["target_language"] for t in tied}
    assert {"de", "es", "fr", "it"} <= reached
    assert "Hund" in [i["text"] for t in sets if t["target_language"] == "de" for i in t["items"]]
    assert sum(len(t["items"]) for t in [*sets, *tied]) == 20


@pytest.mark.starter
def test_starter_semantic_neighbours_of_king(request: pytest.FixtureRequest) -> None:
    data_dir = _data_dir(request, "starter_data_dir")
    (result,) = _calls(data_dir, [("dictionary_semantic_neighbors", {"word": "king"})])
    assert "queen" in {n["text"] for n in result["neighbors"]}


def _lemma(answer: dict[str, Any]) -> str:
    """The first lemma the answer's word resolved to: the word itself when the answer
    leaves `resolutions` out (found as written, docs/tools.md)."""
    resolutions = answer.get("resolutions", [{"lemma": answer["word"]}])
    return str(resolutions[0]["lemma"])


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
    lemma = _lemma(lookup)
    # GCIDE's senses come after all of these, under its own (capitalised) headwords; a
    # sense leaves out its `word` where it is the word asked for.
    senses = [s for s in lookup["senses"] if s.get("source") != "gcide"]
    words = [s.get("word", lookup["word"]) for s in senses]
    assert words[0] == lemma == _lemma(synonyms)
    assert (len(set(words)) > 1) is others  # the other terms' senses come after
    assert words == sorted(words, key=lambda w: w != lemma)
    own = {s["id"] for s, w in zip(senses, words, strict=True) if w == lemma}
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
        assert {s["pos"] for s in answer["senses"]} == {"verb"}  # GCIDE's too
        assert {s["word"] for s in _wordnet_senses(answer)} == {lemma}
        assert len(answer["senses"]) == answer["total_senses"] > 10
    read = {(s["word"], s["pos"]) for s in _wordnet_senses(leaves)}
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
    senses = _wordnet_senses(answer)
    assert {(s["word"], s["pos"]) for s in senses} == lemmas
    first = senses[0]["word"]
    assert first == first.lower() or not any(w == w.lower() for w, _ in lemmas)


@pytest.mark.starter
@pytest.mark.parametrize(
    ("form", "own", "lemma"),
    [
        ("running", ("running", "noun"), ("run", "verb")),
        ("accepted", ("accepted", "adj"), ("accept", "verb")),
        ("saw", ("saw", "noun"), ("see", "verb")),
        ("found", ("found", "verb"), ("find", "verb")),
        ("meeting", ("meeting", "noun"), ("meet", "verb")),
    ],
)
def test_starter_forms_that_are_headwords_too(
    request: pytest.FixtureRequest, form: str, own: tuple[str, str], lemma: tuple[str, str]
) -> None:
    """A form with its own entry also answers the lemma's senses, as `wn.synsets()` does,
    at the default limit too (but for 'meeting', whose six nouns fill the default six
    places since issue 28: ten reach the verb); each sense comes from a resolution that
    names its headword."""
    data_dir = _data_dir(request, "starter_data_dir")
    first = {"word": form} if form != "meeting" else {"word": form, "limit": 10}
    default, every = _calls(
        data_dir,
        [
            ("dictionary_lookup", first),
            ("dictionary_lookup", {"word": form, "limit": 100}),
        ],
    )
    assert lemma in {(s["word"], s["pos"]) for s in _wordnet_senses(default)}
    assert {own, lemma} <= {(s["word"], s["pos"]) for s in _wordnet_senses(every)}
    vias = {r["lemma"]: r["via"] for r in every["resolutions"]}
    assert vias[own[0]] == "exact" and vias[lemma[0]] in {"inflection_table", "suffix_rule"}
    for sense in _wordnet_senses(every):
        assert any(
            r["lemma"] == sense["word"] and r.get("pos") in (None, sense["pos"])
            for r in every["resolutions"]
        ), sense


@pytest.mark.starter
@pytest.mark.parametrize("form", ["running", "accepted", "saw", "leaves", "Hot_Dog"])
def test_starter_glossary_and_slang_read_the_senses_lookup_reads(
    request: pytest.FixtureRequest, form: str
) -> None:
    from lexicon_server.glossary.dictionary import MAX_SENSES_PER_WORD, dictionary_senses
    from lexicon_server.slang.corpus_source import corpus_definitions

    corpus = Corpus(load_active(_data_dir(request, "starter_data_dir")))
    try:
        # GCIDE's senses are look-up's own addition (a component of their own).
        looked_up = _wordnet_senses(dumped(lookup(corpus, form, limit=100)))
        (glossary,) = dictionary_senses(corpus, [form]).words
        assert [(s.headword, s.pos, s.gloss) for s in glossary.senses] == [
            (s["word"], s["pos"], s["gloss"]) for s in looked_up[:MAX_SENSES_PER_WORD]
        ]
        # The slang source reads every sense; GCIDE's come from their own component, under
        # the headwords the look-up resolved ('running' also reads GCIDE's 'Run').
        slang = corpus_definitions(corpus, form, 10_000)
        assert sorted((d.headword, d.pos, d.text) for d in slang if d.source != "gcide") == (
            sorted((s["word"], s["pos"], s["gloss"]) for s in looked_up)
        )
        resolved = dumped(lookup(corpus, form)).get("resolutions", [])
        lemmas = {norm(form)} | {norm(r["lemma"]) for r in resolved}
        gcide = [d for d in slang if d.source == "gcide"]
        assert {norm(d.headword) for d in gcide} <= lemmas
        assert all(d.licence == "GPL-2+" and d.trust == "curated" for d in gcide)
    finally:
        corpus.close()


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
    assert _wordnet_senses(answer)[0]["word"] == first


def _relation(group: dict[str, Any], word: str) -> str:
    """A synonym candidate's relation: its own (in the group's `details`), else its
    group's, else the default the answer format gives (docs/tools.md)."""
    default = "synset_member" if group.get("sense") else "synonym"
    own = group.get("details", {}).get(word, {})
    return str(own.get("relation", group.get("relation", default)))


def _source(group: dict[str, Any], word: str) -> str | None:
    """A synonym candidate's source: its own, else its group's, else its sense's."""
    sense = group.get("sense") or {}
    own = group.get("details", {}).get(word, {})
    return own.get("source", group.get("source", sense.get("source")))


@pytest.mark.starter
def test_starter_adjective_synonyms_reach_similar_synsets(request: pytest.FixtureRequest) -> None:
    data_dir = _data_dir(request, "starter_data_dir")
    # 5 unsensed slots (the default before Moby) leave the sense groups 15 of 20
    happy, large, default = _calls(
        data_dir,
        [
            ("dictionary_synonyms", {"word": "happy", "limit": 20, "unsensed_limit": 5}),
            ("dictionary_synonyms", {"word": "large", "max_senses": 100}),
            ("dictionary_synonyms", {"word": "happy"}),
        ],
    )
    main = happy["groups"][0]
    assert main["sense"]["gloss"].startswith("enjoying or showing or marked by joy")
    assert {"blissful", "halcyon"} <= set(main["candidates"])
    relations = [_relation(main, c) for c in main["candidates"]]
    # WordNet's similar words first, then the Moby terms tied to the sense
    assert relations == sorted(relations) and set(relations) <= {"similar", "synonym"}
    assert all(
        _source(main, c) == "moby" for c in main["candidates"] if _relation(main, c) == "synonym"
    )
    # At the defaults WordNet's similar words still come first in the main sense, and
    # Moby's terms fill the unsensed group (docs/thesauri.md).
    group = default["groups"][0]
    first = group["candidates"]
    assert first[0] == "blessed" and _relation(group, first[0]) == "similar"
    unsensed = default["groups"][-1]
    assert unsensed["sense_scope"] == "unsensed"
    assert len(unsensed["candidates"]) == default["unsensed_limit"] == UNSENSED_DEFAULT
    # the group names Moby once; its terms are bare words
    assert unsensed["source"] == "moby"
    details = unsensed.get("details", {}).values()
    assert all(d.keys() <= {"target_entry_installed"} for d in details)
    # 'large' links to some fifty similar synsets; past `limit` they are not read, so the
    # note gives a lower bound
    assert any(c.startswith("sense-scoped candidates: at least ") for c in large["cut"])


@pytest.mark.starter
def test_starter_bank_has_ipa_beside_arpabet_and_gcide_senses_follow_wordnets(
    request: pytest.FixtureRequest,
) -> None:
    data_dir = _data_dir(request, "starter_data_dir")
    (bank, wait) = _calls(
        data_dir,
        [
            ("dictionary_lookup", {"word": "bank"}),
            ("dictionary_lookup", {"word": "wait", "limit": 10}),
        ],
    )
    prons = [p for s in bank["senses"] for p in s.get("pronunciations", ())]
    assert prons[:2] == [
        {"notation": "arpabet", "value": "B AE1 NG K", "source": "cmudict"},
        {"notation": "ipa", "value": "bæŋk", "source": "islex"},
    ]
    assert bank["sources"]["islex"] == "MIT"
    # 'wait' has six WordNet senses; GCIDE's fill the rest of the limit.
    sources = [s.get("source", wait["sense_source"]) for s in wait["senses"]]
    assert sources == ["wordnet-3.1"] * 6 + ["gcide"] * 4
    assert all(s["sense_scope"] == "sense" and "synset" not in s for s in wait["senses"][6:])
    assert wait["sources"]["gcide"] == "GPL-2+"
    assert_sources_complete(wait)
