"""Moby's ranking: a term WordNet also places next to a sense of the root moves up."""

from __future__ import annotations

from lexicon_server.builder.moby_senses import NEAR_BONUS, MobyEdges, WordnetView
from lexicon_server.builder.records import ThesaurusEntry


def _edges() -> tuple[MobyEdges, WordnetView]:
    entries = [
        ThesaurusEntry(headword="happy", pos=None, terms=("lucky", "merry", "glad")),
        ThesaurusEntry(headword="lucky", pos=None, terms=("happy", "fortunate")),
    ]
    view = WordnetView(
        senses={"happy": [("s-happy", 1)]},
        synsets_of={"glad": ["s-glad"], "merry": ["s-other"]},
        links={"s-happy": ["s-glad"]},  # happy's sense is linked to glad's synset
    )
    return MobyEdges(entries, similarity=None), view


def test_a_wordnet_neighbour_gets_the_bonus_and_comes_first() -> None:
    edges, view = _edges()
    boosted = dict(edges.boosted(view))
    # without vectors the weight is the Moby-list cosine: only 'lucky' is a root itself
    plain = {root: scored for root, _, scored in edges.roots}
    assert plain["happy"][0][0] == "lucky"
    assert boosted["happy"][0][0] == "glad"
    assert dict(boosted["happy"])["glad"] == round(dict(plain["happy"])["glad"] + NEAR_BONUS, 4)
    assert dict(boosted["happy"])["merry"] == dict(plain["happy"])["merry"]
    # a root WordNet does not have keeps its order
    assert boosted["lucky"] == plain["lucky"]


def test_the_bonus_leaves_the_roots_own_order_for_the_sense_ties() -> None:
    edges, view = _edges()
    before = [list(s) for _, _, s in edges.roots]
    list(edges.boosted(view))
    assert [list(s) for _, _, s in edges.roots] == before


def test_list_overlaps_are_the_set_formula_exactly() -> None:
    import math
    import random

    from lexicon_server.builder.moby_senses import _ListOverlap

    rng = random.Random(7)
    words = [f"w{i}" for i in range(60)]
    lists = {w: set(rng.sample(words, rng.randint(0, 12))) for w in words}
    overlap = _ListOverlap(lists)
    for key in words:
        if not lists[key]:
            continue
        keys = [*rng.sample(words, 15), "not a root"]
        expected = [
            len(lists[key] & lists[k]) / math.sqrt(len(lists[key]) * len(lists[k]))
            if lists.get(k)
            else 0.0
            for k in keys
        ]
        assert overlap.cosines(key, keys) == expected
