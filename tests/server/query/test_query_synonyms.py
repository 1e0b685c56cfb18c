"""dictionary_synonyms: sense groups, the unsensed allocation and its rules."""

from __future__ import annotations

import pytest
from _support.dumped import dumped
from _support.provenance import assert_sources_complete

from lexicon_server.corpus.reader import Corpus
from lexicon_server.errors import InvalidArgument
from lexicon_server.expand import expanded
from lexicon_server.models import SynonymsResult
from lexicon_server.query.budget import drop_last_group, fit_response
from lexicon_server.query.relations import relations
from lexicon_server.query.synonyms import LIMIT_DEFAULT, UNSENSED_DEFAULT, synonyms


def _candidates(result: SynonymsResult) -> int:
    return sum(len(g.candidates) for g in result.groups)


def test_groups_by_sense_with_unsensed_last(corpus: Corpus) -> None:
    result = synonyms(corpus, "dog", max_senses=100)
    sensed = [g for g in result.groups if g.sense is not None]
    texts = {c for g in sensed for c in g.candidates}
    assert {"domestic dog", "Canis familiaris", "chase", "trail"} <= texts
    assert "dog" not in texts
    unsensed = [g for g in result.groups if g.sense is None]
    assert len(unsensed) == 1 and unsensed[0].sense_scope == "unsensed"
    # the default allocation (10) holds all 7 same-language unsensed synonyms, best first
    assert unsensed[0].candidates[:5] == ["doggy", "pooch", "mutt", "cur", "tyke"]
    assert len(unsensed[0].candidates) == 7 and not unsensed[0].truncated
    assert unsensed[0].source == "conceptnet"
    assert all(d.source is None and d.sense_scope is None for d in unsensed[0].details.values())
    assert set(result.sources) == {"conceptnet", "wordnet-3.1"}
    assert_sources_complete(result.model_dump(mode="json"))
    assert "chien" not in {c for g in result.groups for c in g.candidates}
    assert result.unsensed_limit == UNSENSED_DEFAULT and result.unsensed_returned == 7
    assert synonyms(corpus, "dog", limit=20, unsensed_limit=5).unsensed_returned == 5


def test_zero_disables_unsensed(corpus: Corpus) -> None:
    result = synonyms(corpus, "dog", unsensed_limit=0)
    assert all(g.sense is not None for g in result.groups)
    assert result.unsensed_returned == 0
    assert result.max_senses == 100  # the room is the sense groups', so every sense


def test_default_senses_follow_the_unsensed_list(corpus: Corpus) -> None:
    # 'dog' has 7 unsensed synonyms here: too few for the default 28, so every sense
    assert synonyms(corpus, "dog").max_senses == 100
    # an allocation the list fills leaves the sense groups to the first 2 senses
    few = synonyms(corpus, "dog", unsensed_limit=5)
    assert few.max_senses == 2 and few.senses_inspected <= 2


def test_unused_unsensed_allocation_goes_to_sense_groups(corpus: Corpus) -> None:
    # 'set' has 30 senses with one synonym each and no unsensed edges
    result = synonyms(corpus, "set", limit=10, max_senses=30, unsensed_limit=5)
    assert _candidates(result) == 10
    assert result.unsensed_returned == 0


def test_limit_is_the_total_cap(corpus: Corpus) -> None:
    result = synonyms(corpus, "dog", limit=3, unsensed_limit=1)
    assert _candidates(result) == 3
    assert result.unsensed_returned == 1


def test_default_allocation_never_exceeds_a_small_limit(corpus: Corpus) -> None:
    result = synonyms(corpus, "dog", limit=2)
    assert result.unsensed_limit == 2 and _candidates(result) == 2


def test_max_senses_bounds_inspection(corpus: Corpus) -> None:
    result = synonyms(corpus, "set", limit=100, max_senses=4, unsensed_limit=0)
    assert result.senses_inspected == 4 and _candidates(result) == 4


def test_inflected_form_resolves(corpus: Corpus) -> None:
    result = synonyms(corpus, "dogs")
    assert result.found and result.resolutions and result.resolutions[0].lemma == "dog"
    # the lemma is the word's own spelling, never one of its candidates
    texts = {c for g in result.groups for c in g.candidates}
    assert "domestic dog" in texts and "dog" not in texts


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"unsensed_limit": -1}, "unsensed_limit"),
        ({"unsensed_limit": LIMIT_DEFAULT + 1}, "unsensed_limit"),
        ({"limit": 3, "unsensed_limit": 4}, "unsensed_limit"),
        ({"limit": 0}, "limit"),
        ({"limit": 101}, "limit"),
        ({"max_senses": 0}, "max_senses"),
    ],
)
def test_allocation_rules(corpus: Corpus, kwargs: dict[str, object], parameter: str) -> None:
    with pytest.raises(InvalidArgument) as info:
        synonyms(corpus, "dog", **kwargs)  # type: ignore[arg-type]
    assert info.value.parameter == parameter


def test_minus_one_is_refused_as_reserved(corpus: Corpus) -> None:
    with pytest.raises(InvalidArgument, match="-1"):
        synonyms(corpus, "dog", unsensed_limit=-1)


def test_shrinking_keeps_only_the_sources_still_cited(corpus: Corpus) -> None:
    result = synonyms(corpus, "dog")
    assert list(result.sources) == ["conceptnet", "wordnet-3.1"]
    size = len(result.model_dump_json())
    smaller = fit_response(result, drop_last_group, max_chars=size - 1)
    # the unsensed (ConceptNet) group is last, so it goes first
    assert len(smaller.groups) == len(result.groups) - 1
    assert all(g.sense is not None for g in smaller.groups)
    assert list(smaller.sources) == ["wordnet-3.1"]
    assert_sources_complete(smaller.model_dump(mode="json"))


@pytest.mark.parametrize("word", ["dog", "dogs", "set", "ran", "good", "zebra", "nothing-here"])
@pytest.mark.parametrize("limit", [1, 20, 100])
def test_plain_data_is_the_model_dump(corpus: Corpus, word: str, limit: int) -> None:
    data = dumped(synonyms(corpus, word, limit=limit))
    assert data == synonyms(corpus, word, limit=limit).model_dump(mode="json")
    # what the SDK does with the tool's structured content
    assert SynonymsResult.model_validate(data).model_dump(mode="json") == data


def test_plain_data_over_the_size_bound_goes_through_the_model(
    corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a bound above the budget means: build the model and let fit_response measure it
    monkeypatch.setattr("lexicon_server.query.synonyms.MAX_RESPONSE_CHARS", 0)
    data = dumped(synonyms(corpus, "dog"))
    assert data == synonyms(corpus, "dog").model_dump(mode="json")
    assert len(data["groups"]) == 3 and list(data["sources"]) == ["conceptnet", "wordnet-3.1"]


def test_plain_data_over_the_estimate_is_measured(
    corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an estimate above the budget is checked against the real size, and an answer that
    # fits is still returned as it was built
    monkeypatch.setattr("lexicon_server.query.budget.json_bound", lambda **_: 10**9)
    data = dumped(synonyms(corpus, "dog"))
    assert data == synonyms(corpus, "dog").model_dump(mode="json")
    assert len(data["groups"]) == 3 and list(data["sources"]) == ["conceptnet", "wordnet-3.1"]


def test_members_kept_by_relations_serve_synonyms(corpus: Corpus) -> None:
    # relations reads (and keeps) every member of the synsets it names, the word's own
    # sense included; synonyms reusing them still leaves the word itself out
    assert dumped(relations(corpus, "canine", "hyponym"))["results"]
    result = dumped(synonyms(corpus, "dog", unsensed_limit=0))
    texts = [c for g in result["groups"] for c in g["candidates"]]
    assert "domestic dog" in texts and "Canis familiaris" in texts and "dog" not in texts
    assert result == synonyms(corpus, "dog", unsensed_limit=0).model_dump(mode="json")


def test_adjectives_offer_the_words_of_similar_synsets(corpus: Corpus) -> None:
    # WordNet's head adjective 'happy' is alone in its synset; its near-synonyms are the
    # satellite synset linked to it as similar, and the satellite leads back to its head.
    happy = dumped(synonyms(corpus, "happy"))
    (group,) = expanded("dictionary_synonyms", happy)["groups"]
    candidates = group["candidates"]
    assert [(c["text"], c["relation"], c["sense_scope"]) for c in candidates] == [
        ("glad", "similar", "synset"),
        ("joyful", "similar", "synset"),
    ]
    # what both candidates share is said once, on the group (issue 28)
    assert happy["groups"][0]["relation"] == "similar"
    glad = expanded("dictionary_synonyms", dumped(synonyms(corpus, "glad")))
    glad_candidates = glad["groups"][0]["candidates"]
    assert [(c["text"], c["relation"]) for c in glad_candidates] == [
        ("joyful", "synset_member"),
        ("happy", "similar"),
    ]
    assert_sources_complete(happy)
    assert SynonymsResult.model_validate(happy).model_dump(mode="json") == happy
    # nouns and verbs are not extended: 'dog' keeps its synset members and edges only
    relations_of_dog = {
        c["relation"]
        for g in expanded("dictionary_synonyms", dumped(synonyms(corpus, "dog")))["groups"]
        for c in g["candidates"]
    }
    assert "similar" not in relations_of_dog


def test_synonym_edges_the_source_ties_to_a_sense(corpus: Corpus) -> None:
    (group,) = expanded("dictionary_synonyms", dumped(synonyms(corpus, "run")))["groups"]
    assert group["sense_scope"] == "synset"
    candidates = group["candidates"]
    assert [(c["text"], c["relation"], c["sense_scope"]) for c in candidates] == [
        ("sprint", "synonym", "sense")
    ]
