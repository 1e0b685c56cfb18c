"""Pronunciations belong to their word (issue 29 item 5): a pronunciation the source ties
to a written form goes to the first returned sense of that form's own term, never to
another term's sense ('better' resolves to 'good' and 'well' too, and showed their
sounds under its first sense); an inflected form shows its own sounds, not only its
lemma's ('ran' is not said like 'run')."""

from __future__ import annotations

from collections.abc import Callable

from lexicon_server.corpus.reader import Corpus
from lexicon_server.corpus.rows.senses import SenseRow
from lexicon_server.query.lookup import _pronunciations, lookup


def _sense(sense_id: int, entry_id: int, word: str) -> SenseRow:
    return SenseRow(sense_id, None, "gloss", "", 1, entry_id, "adj", None, word, None, None, 1)


KEYS = {1: "cmudict"}


def test_a_lemma_sound_stays_with_the_lemma() -> None:
    chosen = [_sense(10, 1, "better"), _sense(20, 2, "good"), _sense(21, 2, "good")]
    rows = [
        (None, "arpabet", "B EH1 T ER0", 0, 1, "better"),
        (None, "arpabet", "G UH1 D", 0, 1, "good"),
        (None, "arpabet", "W EH1 L", 0, 1, "well"),  # no sense of 'well' returned
    ]
    dealt, count = _pronunciations(rows, chosen, KEYS)
    assert {sense: [p["value"] for p in prons] for sense, prons in dealt.items()} == {
        10: ["B EH1 T ER0"],
        20: ["G UH1 D"],
    }
    assert count == 2


def test_with_no_sense_the_form_keeps_its_sounds() -> None:
    dealt, count = _pronunciations([(None, "arpabet", "R AE1 N", 0, 1, "ran")], [], KEYS)
    assert dealt == {0: [{"notation": "arpabet", "value": "R AE1 N", "source": "cmudict"}]}
    assert count == 1


# CMUdict lists 'ran' on its own; the mini corpus knows it only as a form of 'run'.
_RAN_SAID = """
INSERT INTO terms (text, norm) VALUES ('ran', 'ran');
INSERT INTO pronunciations (term_id, notation, value, variant, source_id)
SELECT id, 'arpabet', 'R AE1 N', 0, 2 FROM terms WHERE text = 'ran';
"""


def test_an_inflected_form_shows_its_own_sound_and_its_lemma_keeps_its(
    mini_variant: Callable[[str, str, str], Corpus],
) -> None:
    corpus = mini_variant("ran_said", "en/lexical.sqlite", _RAN_SAID)
    result = lookup(corpus, "ran")
    assert [p.value for p in result.pronunciations] == ["R AE1 N"]
    first = result.senses[0]
    assert first.word == "run" and [p.value for p in first.pronunciations] == ["R AH1 N"]
    # The form's own sounds count against the same budget.
    one = lookup(corpus, "ran", pronunciations_limit=1)
    assert [p.value for p in one.pronunciations] == ["R AE1 N"]
    assert not one.senses[0].pronunciations


def test_a_form_with_senses_of_its_own_shows_its_sounds_with_them(corpus: Corpus) -> None:
    result = lookup(corpus, "run")
    assert not result.pronunciations
    assert [p.value for p in result.senses[0].pronunciations] == ["R AH1 N"]
