"""dictionary_relations: direct and transitive scopes, paths, allocations."""

from __future__ import annotations

import pytest
from _support.dumped import dumped
from _support.provenance import assert_sources_complete

from lexicon_server.corpus.reader import Corpus
from lexicon_server.errors import InvalidArgument
from lexicon_server.models import RelationsResult
from lexicon_server.query.budget import fit_response
from lexicon_server.query.relations import (
    _drop_last,
    clear_synset_caches,
    relations,
)


def _scopes(result: RelationsResult) -> list[str]:
    return [r.relation_scope for r in result.results]


def test_direct_hypernym(corpus: Corpus) -> None:
    result = relations(corpus, "dog", "hypernym")
    assert len(result.results) == 1
    hit = result.results[0]
    assert hit.relation_scope == "direct" and hit.distance == 1
    assert hit.words == ["canine", "canid"]
    assert hit.synset is None  # the source's own id only on request
    with_ids = relations(corpus, "dog", "hypernym", source_ids=True).results[0]
    assert with_ids.synset == "wn31-02083346-n"
    assert hit.target_entry_installed
    assert hit.from_sense is not None and list(result.senses) == [hit.from_sense]
    sense = result.senses[hit.from_sense]
    assert sense.gloss == "a member of the genus Canis"
    # A direct result is its one edge: the edge's scope and source are the result's own.
    assert hit.path == [] and hit.sense_scope == "synset"
    assert "path" not in dumped(relations(corpus, "dog", "hypernym"))["results"][0]
    # ... and the source, the same as its sense's, is said once: on the result, as the
    # first described sense's source.
    assert hit.source is None and sense.source is None
    assert result.sense_source == "wordnet-3.1"
    assert list(result.sources) == ["wordnet-3.1"]
    assert_sources_complete(result.model_dump(mode="json"))


def test_transitive_has_full_path(corpus: Corpus) -> None:
    result = relations(corpus, "dog", "hypernym", max_depth=2)
    assert _scopes(result) == ["direct", "transitive"]
    hop = next(r for r in result.results if r.relation_scope == "transitive")
    assert hop.distance == 2
    assert hop.words == ["carnivore"]
    assert [e.to_id for e in hop.path] == ["wn31-02083346-n", "wn31-02075296-n"]
    assert hop.path[0].from_id == "wn31-02084071-n"
    assert hop.path[1].from_id == hop.path[0].to_id
    assert all(e.relation == "hypernym" and e.source == "wordnet-3.1" for e in hop.path)
    # Both results start from the same sense, described once.
    assert {r.from_sense for r in result.results} == set(result.senses)
    assert len(result.senses) == 1
    assert result.sources["wordnet-3.1"] == "WordNet"
    assert_sources_complete(result.model_dump(mode="json"))


def test_transitive_zero_disables(corpus: Corpus) -> None:
    result = relations(corpus, "dog", "hypernym", max_depth=2, transitive_limit=0)
    assert "transitive" not in _scopes(result) and result.transitive_limit == 0


def test_hyponyms_and_unused_transitive_allocation(corpus: Corpus) -> None:
    result = relations(corpus, "canine", "hyponym", max_depth=2, limit=3, transitive_limit=2)
    # one direct (dog), two transitive (puppy, hound)
    assert _scopes(result) == ["direct", "transitive", "transitive"]
    words = {", ".join(r.words) for r in result.results}
    assert words == {"dog, domestic dog, Canis familiaris", "puppy", "hound"}
    assert all(r.text is None for r in result.results)  # the words said once
    # with room to spare, the unused transitive allocation is not forced
    small = relations(corpus, "dog", "hyponym", max_depth=2, limit=5, transitive_limit=5)
    assert _scopes(small) == ["direct", "direct"]


def test_sense_scoped_antonym(corpus: Corpus) -> None:
    result = relations(corpus, "good", "antonym")
    assert len(result.results) == 1
    hit = result.results[0]
    assert hit.sense_scope == "sense" and hit.words == ["bad"]
    assert hit.target_sense is not None


def test_unsensed_cross_language_targets(corpus: Corpus) -> None:
    result = relations(corpus, "dog", "related_to")
    targets = {r.words[0]: r for r in result.results}
    assert set(targets) == {"chien", "Hund"}
    assert targets["chien"].target_entry_installed  # fr installed and has 'chien'
    assert not targets["Hund"].target_entry_installed  # de not installed
    assert all(r.sense_scope == "unsensed" and r.from_sense is None for r in result.results)
    assert result.senses == {}
    assert {r.source for r in result.results} == set(result.sources) == {"conceptnet"}
    assert_sources_complete(result.model_dump(mode="json"))


def test_aliases(corpus: Corpus) -> None:
    assert relations(corpus, "dog", "hypernyms").relation == "hypernym"


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"relation": "friendship"}, "relation"),
        ({"max_depth": 3}, "max_depth"),
        ({"max_depth": 0}, "max_depth"),
        ({"relation": "antonym", "max_depth": 2}, "max_depth"),
        ({"max_depth": 2, "transitive_limit": -1}, "transitive_limit"),
        ({"max_depth": 2, "limit": 2, "transitive_limit": 3}, "transitive_limit"),
        ({"limit": 0}, "limit"),
    ],
)
def test_bad_input(corpus: Corpus, kwargs: dict[str, object], parameter: str) -> None:
    args: dict[str, object] = {"relation": "hypernym", **kwargs}
    with pytest.raises(InvalidArgument) as info:
        relations(corpus, "dog", **args)  # type: ignore[arg-type]
    assert info.value.parameter == parameter


def test_shrinking_keeps_only_the_sources_still_cited(corpus: Corpus) -> None:
    result = relations(corpus, "dog", "related_to")
    assert list(result.sources) == ["conceptnet"]
    empty = fit_response(result, _drop_last, max_chars=1)
    assert empty.results == [] and empty.sources == {}


def test_shrinking_keeps_only_the_senses_still_named(corpus: Corpus) -> None:
    result = relations(corpus, "dog", "hypernym", max_depth=2)
    assert len(result.senses) == 1
    shorter, _ = _drop_last(result, 0) or (None, "")
    assert shorter is not None and len(shorter.results) == 1 and len(shorter.senses) == 1
    empty = fit_response(result, _drop_last, max_chars=1)
    assert empty.results == [] and empty.senses == {} and empty.sources == {}


def test_resolution_source_is_listed(corpus: Corpus) -> None:
    # 'ran' reaches 'run' through WordNet's exception list, which has no related_to edges
    result = relations(corpus, "ran", "related_to")
    assert result.results == [] and (result.resolutions or [])[0].source == "wordnet-3.1"
    assert list(result.sources) == ["wordnet-3.1"]
    assert_sources_complete(result.model_dump(mode="json"))


@pytest.mark.parametrize(
    ("word", "relation", "depth"),
    [
        ("dog", "hypernym", 1),
        ("dog", "hypernym", 2),
        ("canine", "hyponym", 2),
        ("good", "antonym", 1),
        ("dog", "related_to", 1),
        ("ran", "related_to", 1),
        ("zebra", "hypernym", 1),
    ],
)
def test_plain_data_is_the_model_dump(corpus: Corpus, word: str, relation: str, depth: int) -> None:
    data = dumped(relations(corpus, word, relation, max_depth=depth))
    assert data["results"] or word in ("ran", "zebra")
    assert data == relations(corpus, word, relation, max_depth=depth).model_dump(mode="json")
    # what the SDK does with the tool's structured content
    assert RelationsResult.model_validate(data).model_dump(mode="json") == data


def test_plain_data_over_the_size_bound_goes_through_the_model(
    corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a bound above the budget means: build the model and let fit_response measure it
    monkeypatch.setattr("lexicon_server.query.relations.MAX_RESPONSE_CHARS", 0)
    data = dumped(relations(corpus, "dog", "hypernym", max_depth=2))
    assert data == relations(corpus, "dog", "hypernym", max_depth=2).model_dump(mode="json")
    assert len(data["results"]) == 2


def test_plain_data_over_the_estimate_is_measured(
    corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an estimate above the budget is checked against the real size, and an answer that
    # fits is still returned as it was built
    monkeypatch.setattr("lexicon_server.query.budget.json_bound", lambda **_: 10**9)
    data = dumped(relations(corpus, "dog", "hypernym", max_depth=2))
    assert data == relations(corpus, "dog", "hypernym", max_depth=2).model_dump(mode="json")
    assert len(data["results"]) == 2 and "cut" not in data


def test_kept_synsets_are_not_shared_with_answers(corpus: Corpus) -> None:
    # synsets are kept across calls; a caller changing one answer must not change the next
    first = dumped(relations(corpus, "dog", "hypernym"))
    first["results"][0]["words"].append("changed by the caller")
    again = dumped(relations(corpus, "dog", "hypernym"))
    assert again["results"][0]["words"] == ["canine", "canid"]
    deeper = dumped(relations(corpus, "dog", "hypernym", max_depth=2))
    assert deeper["results"][1]["path"][0]["to_text"] == "canine, canid"


def test_kept_synsets_answer_like_fresh_reads(corpus: Corpus) -> None:
    kept = dumped(relations(corpus, "canine", "hyponym", max_depth=2))
    assert dumped(relations(corpus, "canine", "hyponym", max_depth=2)) == kept
    clear_synset_caches(corpus)
    assert dumped(relations(corpus, "canine", "hyponym", max_depth=2)) == kept


def test_a_relation_the_sources_lack_is_told_apart_from_none_for_the_word(
    corpus: Corpus,
) -> None:
    lacking = dumped(relations(corpus, "dog", "causes"))
    assert lacking["results"] == [] and lacking["relation_in_data"] is False
    stored = dumped(relations(corpus, "dog", "antonym"))  # the data has antonyms, not of 'dog'
    # true, the default, is left out of the answer
    assert stored["results"] == [] and "relation_in_data" not in stored
    assert relations(corpus, "dog", "antonym").relation_in_data is True
    assert "relation_in_data" not in dumped(relations(corpus, "dog", "hypernym"))
    assert relations(corpus, "dog", "causes").relation_in_data is False
