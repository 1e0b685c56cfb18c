"""dictionary_lookup's query function on the schema-built mini corpus."""

from __future__ import annotations

import pytest
from _support.dumped import dumped
from _support.lookup import flat, sense_translations
from _support.provenance import assert_sources_complete
from pydantic_core import to_json

from lexicon_server.corpus.reader import CapabilityUnavailable, Corpus
from lexicon_server.corpus.term_docs import in_language_turns
from lexicon_server.errors import InvalidArgument
from lexicon_server.models import LookupResult
from lexicon_server.query import lookup as lookup_module
from lexicon_server.query.lookup import lookup
from lexicon_server.query.relations import relations
from lexicon_server.query.synonyms import synonyms
from lexicon_server.query.translate import translate


def test_senses_carry_provenance_and_scope(corpus: Corpus) -> None:
    result = lookup(corpus, "dog")
    assert result.found and result.language == "en"
    assert result.dataset_version == corpus.dataset_version
    glosses = [s.gloss for s in result.senses]
    assert "a member of the genus Canis" in glosses
    assert "go after with the intent to catch" in glosses
    # The first sense's source is said once, on the result; senses of it do not repeat it.
    assert result.sense_source == "wordnet-3.1"
    for sense in result.senses:
        assert sense.source is None
        assert sense.sense_scope == "synset"
        assert sense.id.startswith("en:s")
    assert result.sources["wordnet-3.1"] == "WordNet"
    assert result.resolutions is None  # found as written
    assert_sources_complete(result.model_dump(mode="json"))


def test_examples_budget_is_shared_round_robin(corpus: Corpus) -> None:
    result = lookup(corpus, "house", examples_limit=4)
    by_gloss = {s.gloss: s for s in result.senses}
    dwelling = by_gloss["a dwelling that serves as living quarters"]
    family = by_gloss["a social unit living together"]
    # 6 and 3 examples exist; 4 dealt in turn give 2 and 2
    assert [len(dwelling.examples), len(family.examples)] == [2, 2]
    # said once for the answer, not on each sense (issue 28)
    assert "examples" in result.truncated_fields
    full = lookup(corpus, "house", examples_limit=100)
    by_gloss = {s.gloss: s for s in full.senses}
    assert len(by_gloss["a dwelling that serves as living quarters"].examples) == 6
    assert "examples" not in full.truncated_fields


def test_zero_disables_a_detail_class_and_says_it_is_truncated(corpus: Corpus) -> None:
    result = lookup(corpus, "house", examples_limit=0, pronunciations_limit=0, translations_limit=0)
    assert all(
        not s.examples and not s.pronunciations and not s.translations for s in result.senses
    )
    assert {"examples", "translations"} <= set(result.truncated_fields)
    assert result.unsensed_translations == []


def test_translations_round_robin_including_unsensed(corpus: Corpus) -> None:
    result = lookup(corpus, "house", translations_limit=3)
    per_sense = [len(flat(s.translations)) for s in result.senses]
    assert per_sense == [1, 1]
    unsensed = flat(result.unsensed_translations)
    assert len(unsensed) == 1
    assert unsensed[0]["sense_scope"] == "unsensed"
    assert all(t["sense_scope"] == "sense" for t in sense_translations(result))
    total = sum(per_sense) + len(unsensed)
    assert total == 3


def test_translation_marks_target_entry_installed(corpus: Corpus) -> None:
    result = lookup(corpus, "house", translations_limit=100)
    found = {t["text"]: t["target_entry_installed"] for t in sense_translations(result)}
    assert found["maison"] is True  # fr installed, has 'maison'
    assert found["domicile"] is False  # fr installed, no entry
    assert found["Haus"] is False  # de not installed


def test_translations_come_in_sets_by_language_and_source(corpus: Corpus) -> None:
    data = dumped(lookup(corpus, "house", translations_limit=100))
    dwelling = next(s for s in data["senses"] if s["gloss"].startswith("a dwelling"))
    # rows come in language order: Haus (de), then maison and domicile (fr), one set each
    sets = dwelling["translations"]
    assert [(t["target_language"], t["sense_scope"]) for t in sets] == [
        ("de", "sense"),
        ("fr", "sense"),
    ]
    assert [i["text"] for i in sets[1]["items"]] == ["maison", "domicile"]
    unsensed = data["unsensed_translations"]
    assert {t["target_language"] for t in unsensed} == {"de", "fr"}
    # 'unsensed' is a set's default scope, so an unsensed set leaves it out
    assert all("sense_scope" not in t and t["items"] for t in unsensed)


def test_a_tight_translation_budget_gives_each_language_a_turn(corpus: Corpus) -> None:
    # 'dog' has two German rows and one French: in language order a budget of two went
    # to German alone; in turns each language gets one.
    data = dumped(lookup(corpus, "dog", translations_limit=2))
    sets = data["unsensed_translations"]
    assert [(t["target_language"], [i["text"] for i in t["items"]]) for t in sets] == [
        ("de", ["Hund"]),
        ("fr", ["chien"]),
    ]
    assert data["truncated_fields"] == ["translations"]
    again = dumped(lookup(corpus, "dog", translations_limit=3))["unsensed_translations"]
    assert [[i["text"] for i in t["items"]] for t in again] == [["Hund", "Köter"], ["chien"]]


def test_language_turns_order() -> None:
    rows = [("de", 1), ("de", 2), ("de", 3), ("es", 4), ("fr", 5), ("fr", 6)]
    assert in_language_turns(rows) == [
        ("de", 1),
        ("es", 4),
        ("fr", 5),
        ("de", 2),
        ("fr", 6),
        ("de", 3),
    ]
    assert in_language_turns([]) == []


def test_empty_details_are_left_out(corpus: Corpus) -> None:
    bare = dumped(
        lookup(corpus, "house", examples_limit=0, pronunciations_limit=0, translations_limit=0)
    )
    for sense in bare["senses"]:
        assert not {"examples", "pronunciations", "translations", "etymology"} & set(sense)
        assert "truncated_fields" not in sense
    # what was cut is still said, so an absent list never reads as "none exist"
    assert "examples" in bare["truncated_fields"]
    full = dumped(lookup(corpus, "house", translations_limit=100))
    items = [i for s in full["senses"] for t in s.get("translations", []) for i in t["items"]]
    assert items and all("note" not in i or i["note"] for i in items)
    # the typed result reads the absent fields back as their empty defaults
    model = LookupResult.model_validate(bare)
    assert model.senses[0].examples == [] and model.senses[0].etymology is None


def test_pronunciations_once_with_source(corpus: Corpus) -> None:
    result = lookup(corpus, "house", pronunciations_limit=8)
    prons = [p for s in result.senses for p in s.pronunciations]
    assert [p.value for p in prons] == ["HH AW1 S", "HH AW1 Z"]
    assert all(p.source == "cmudict" and p.scope == "term" for p in prons)
    assert result.sources["cmudict"] == "BSD-2-Clause"
    one = lookup(corpus, "house", pronunciations_limit=1)
    assert "pronunciations" in one.truncated_fields


def test_limit_caps_senses_and_reports_total(corpus: Corpus) -> None:
    result = lookup(corpus, "set", limit=5)
    assert len(result.senses) == 5 and result.total_senses == 30
    assert any("25 more" in note for note in result.cut)


def test_irregular_inflection_resolves_to_lemma(corpus: Corpus) -> None:
    result = lookup(corpus, "ran")
    assert result.found
    assert result.resolutions[0].via == "inflection_table"
    assert result.resolutions[0].lemma == "run"
    assert result.senses[0].gloss == "move fast by using one's feet"


@pytest.mark.parametrize(
    ("form", "lemma", "rule"),
    [
        ("dogs", "dog", "-s"),
        ("houses", "house", "-s"),
        ("running", "run", "-ning"),
        ("dogged", "dog", "-ged"),
    ],
)
def test_regular_inflection_resolves_by_suffix_rule(
    corpus: Corpus, form: str, lemma: str, rule: str
) -> None:
    result = lookup(corpus, form)
    assert result.found
    assert result.resolutions[0].via == "suffix_rule"
    assert result.resolutions[0].lemma == lemma
    assert result.resolutions[0].rule == rule


def test_an_inflected_form_keeps_to_its_parts_of_speech(corpus: Corpus) -> None:
    # 'dogged' can only be the verb 'dog': the noun's senses are not its senses
    dogged = lookup(corpus, "dogged")
    assert [r.pos for r in dogged.resolutions] == ["verb"]
    assert [s.pos for s in dogged.senses] == ["verb"] and dogged.total_senses == 1
    # 'dogs' is the noun's plural and the verb's third person
    dogs = lookup(corpus, "dogs")
    assert [(r.lemma, r.pos) for r in dogs.resolutions] == [("dog", "noun"), ("dog", "verb")]
    assert {s.pos for s in dogs.senses} == {"noun", "verb"}
    assert dogs.total_senses == lookup(corpus, "dog").total_senses
    # the other tools read the same senses
    assert dumped(synonyms(corpus, "dogged"))["senses_inspected"] == 1
    assert dumped(relations(corpus, "dogged", "hypernym"))["senses_inspected"] == 1
    assert translate(corpus, "dogged", "fr").senses_inspected == 1
    # 'ran' is in the inflection table as a verb
    assert {s.pos for s in lookup(corpus, "ran").senses} == {"verb"}


def test_unknown_word_is_not_found_not_an_error(corpus: Corpus) -> None:
    result = lookup(corpus, "qwertyuiop")
    assert not result.found and result.senses == [] and result.resolutions == []


@pytest.mark.parametrize(
    ("language", "reason"),
    [("de", "language_not_installed"), ("xx", "unknown_language")],
)
def test_unavailable_language_has_its_reason(corpus: Corpus, language: str, reason: str) -> None:
    with pytest.raises(CapabilityUnavailable) as info:
        lookup(corpus, "Haus", language=language)
    assert info.value.reason == reason


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"word": ""}, "word"),
        ({"word": "   "}, "word"),
        ({"word": "a" * 101}, "word"),
        ({"word": "dog\x00"}, "word"),
        ({"limit": 0}, "limit"),
        ({"limit": 101}, "limit"),
        ({"examples_limit": -1}, "examples_limit"),
        ({"translations_limit": 101}, "translations_limit"),
        ({"language": "english!"}, "language"),
        ({"language": "e"}, "language"),
    ],
)
def test_bad_input_names_the_parameter(
    corpus: Corpus, kwargs: dict[str, object], parameter: str
) -> None:
    args: dict[str, object] = {"word": "dog", **kwargs}
    with pytest.raises(InvalidArgument) as info:
        lookup(corpus, **args)  # type: ignore[arg-type]
    assert info.value.parameter == parameter
    assert parameter in str(info.value)


def test_a_word_known_only_by_its_pronunciation(corpus: Corpus) -> None:
    result = lookup(corpus, "Obama")
    assert result.found and result.senses == []
    assert [p.value for p in result.pronunciations] == ["OW0 B AA1 M AH0"]
    assert result.pronunciations[0].source == "cmudict"
    assert set(result.sources) == {"cmudict"}
    assert lookup(corpus, "house").pronunciations == []  # shown under the senses instead


def test_regional_tag_falls_back_to_its_language(corpus: Corpus) -> None:
    result = lookup(corpus, "dog", language="en-US")
    assert result.language == "en" and result.found
    with pytest.raises(CapabilityUnavailable) as info:
        lookup(corpus, "dog", language="xx-YY")
    assert info.value.reason == "unknown_language"


# Inflected (table and rule), unknown, pronunciation-only, bare and other-language words.
VARIED = [
    ("dog", "en"),
    ("house", "en"),
    ("set", "en"),
    ("dogs", "en"),
    ("ran", "en"),
    ("running", "en"),
    ("dogged", "en"),
    ("Obama", "en"),
    ("qwertyuiop", "en"),
    ("maison", "fr"),
    ("chien", "fr"),
]
BUDGETS = [
    {},
    {"limit": 1, "examples_limit": 0, "pronunciations_limit": 1, "translations_limit": 1},
    {"limit": 100, "examples_limit": 100, "pronunciations_limit": 100, "translations_limit": 100},
    {"limit": 2, "translations_limit": 2},
]


@pytest.mark.parametrize(("word", "language"), VARIED)
@pytest.mark.parametrize("budgets", BUDGETS)
def test_lookup_data_is_the_model_dump(
    corpus: Corpus, word: str, language: str, budgets: dict[str, int]
) -> None:
    """The plain data is exactly what the validated model dumps, field order included,
    and `lookup` is that model."""
    data = dumped(lookup(corpus, word, language, **budgets))
    model = LookupResult.model_validate(data)
    assert model.model_dump(mode="json") == data
    assert to_json(data) == model.model_dump_json().encode()
    assert lookup(corpus, word, language, **budgets) == model
    assert_sources_complete(data)


def test_sources_name_exactly_what_is_shown(corpus: Corpus) -> None:
    """A source only the cut-off items cite is not listed."""
    full = dumped(lookup(corpus, "house", translations_limit=100))
    assert {"wordnet-3.1", "cmudict", "freedict-eng-fra"} <= set(full["sources"])
    bare = dumped(lookup(corpus, "house", pronunciations_limit=0, translations_limit=0))
    assert set(bare["sources"]) == {"wordnet-3.1"}
    inflected = dumped(lookup(corpus, "ran", limit=1, examples_limit=0, pronunciations_limit=0))
    assert inflected["resolutions"][0]["via"] == "inflection_table"
    assert_sources_complete(inflected)


def test_budget_cut_drops_senses_and_their_sources(
    corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The response budget cuts trailing senses; what they alone cited leaves `sources`.
    (The fixture's answers are small, so the budget is lowered to make one cut.)"""
    full = dumped(lookup(corpus, "house", translations_limit=0))
    size = len(to_json(full).decode())
    limit = size - 10  # any sense is longer than 10 characters
    monkeypatch.setattr(lookup_module, "MAX_RESPONSE_CHARS", limit)
    cut = dumped(lookup(corpus, "house", translations_limit=0))
    assert len(to_json(cut).decode()) <= limit
    assert len(cut["senses"]) < len(full["senses"])
    assert cut["total_senses"] == full["total_senses"]
    assert "response budget" in cut["cut"][-1]
    assert LookupResult.model_validate(cut).model_dump(mode="json") == cut
    assert_sources_complete(cut)
    assert lookup(corpus, "house", translations_limit=0) == LookupResult.model_validate(cut)
    # Too small for any sense: the senses and then the unsensed translations go, and with
    # them every source they cited.
    monkeypatch.setattr(lookup_module, "MAX_RESPONSE_CHARS", 10)
    bare = dumped(lookup(corpus, "house", translations_limit=3))
    assert bare["senses"] == [] and "unsensed_translations" not in bare
    assert "translations" in bare["truncated_fields"] and bare["sources"] == {}
    assert "unsensed translations: dropped" in bare["cut"][-1]
    assert_sources_complete(bare)


def test_repeated_translations_past_the_read_ahead_are_still_counted(corpus: Corpus) -> None:
    # 'echo' has six German rows of one word before 'Widerhall': a budget of two reads
    # six rows a language ahead (twice budget + 1), finds one German word, and must read
    # on to learn that a second one exists.
    two = dumped(lookup(corpus, "echo", translations_limit=2))
    assert [[i["text"] for i in t["items"]] for t in two["unsensed_translations"]] == [
        ["Echo"],
        ["écho"],
    ]
    assert two["truncated_fields"] == ["translations"]
    three = dumped(lookup(corpus, "echo", translations_limit=3))
    assert [[i["text"] for i in t["items"]] for t in three["unsensed_translations"]] == [
        ["Echo", "Widerhall"],
        ["écho"],
    ]
    assert "truncated_fields" not in three  # nothing left out
