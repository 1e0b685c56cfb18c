"""ARPAbet (CMUdict) to IPA, and the normalisation that compares IPA from different sources.

Stdlib only: the builder uses it to give CMUdict pronunciations an IPA form, the server may
use it to render one. The mapping is the usual General American reading of CMUdict's 39
phonemes:

- vowels: ``AA ɑ, AE æ, AO ɔ, AW aʊ, AY aɪ, EH ɛ, EY eɪ, IH ɪ, IY i, OW oʊ, OY ɔɪ,
  UH ʊ, UW u``; ``AH`` is ``ʌ`` when stressed and ``ə`` when not (``AH0``), ``ER`` is
  ``ɝ`` when stressed and ``ɚ`` when not, because CMUdict writes both qualities with one
  symbol and the stress digit is what tells them apart;
- consonants: ``B b, CH tʃ, D d, DH ð, F f, G ɡ, HH h, JH dʒ, K k, L l, M m, N n, NG ŋ,
  P p, R ɹ, S s, SH ʃ, T t, TH θ, V v, W w, Y j, Z z, ZH ʒ``.

**Stress marks go immediately before the stressed vowel** (``ˈ`` for ``1``, ``ˌ`` for
``2``), not before the syllable's onset: CMUdict has no syllable boundaries, and placing the
mark at the onset would mean guessing them. ISLEX marks stress the same way, so the two can
be compared without re-syllabifying either. ``cat`` -> ``kˈæt``, ``about`` -> ``əbˈaʊt``.

:func:`comparable` is the normalisation used to compare a CMUdict-derived form with ISLEX's
(see docs/source-formats.md for the agreement measured on the committed slices).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lexicon_server.errors import LexiconServerError

__all__ = [
    "ARPABET_TO_IPA",
    "IpaError",
    "arpabet_to_ipa",
    "cmudict_ipa",
    "comparable",
    "dictionary_ipa",
    "islex_phone",
    "same_pronunciation",
]

ARPABET_TO_IPA: dict[str, str] = {
    "AA": "ɑ", "AE": "æ", "AH": "ʌ", "AO": "ɔ", "AW": "aʊ", "AY": "aɪ", "EH": "ɛ",
    "ER": "ɝ", "EY": "eɪ", "IH": "ɪ", "IY": "i", "OW": "oʊ", "OY": "ɔɪ", "UH": "ʊ",
    "UW": "u",
    "B": "b", "CH": "tʃ", "D": "d", "DH": "ð", "F": "f", "G": "ɡ", "HH": "h", "JH": "dʒ",
    "K": "k", "L": "l", "M": "m", "N": "n", "NG": "ŋ", "P": "p", "R": "ɹ", "S": "s",
    "SH": "ʃ", "T": "t", "TH": "θ", "V": "v", "W": "w", "Y": "j", "Z": "z", "ZH": "ʒ",
}  # fmt: skip
"""Stressed (or stress-less) reading of each phoneme; see :func:`arpabet_to_ipa` for AH0/ER0."""

_UNSTRESSED = {"AH": "ə", "ER": "ɚ"}
_MARKS = {"0": "", "1": "ˈ", "2": "ˌ"}


class IpaError(LexiconServerError, ValueError):
    """A phone that is not one of CMUdict's 39 ARPAbet phonemes (with an optional 0/1/2)."""


def arpabet_to_ipa(phones: Iterable[str]) -> str:
    """IPA for a CMUdict pronunciation: ``('K', 'AE1', 'T')`` -> ``'kˈæt'``.

    Vowels must carry their stress digit, as in CMUdict; the mark is placed before the vowel.
    """
    out: list[str] = []
    for phone in phones:
        digit = phone[-1] if phone[-1:] in _MARKS else ""
        base = phone[:-1] if digit else phone
        ipa = ARPABET_TO_IPA.get(base)
        if ipa is None:
            raise IpaError(f"{phone!r} is not an ARPAbet phoneme (expected e.g. 'AE1', 'K')")
        if digit == "0":
            ipa = _UNSTRESSED.get(base, ipa)
        out.append(_MARKS.get(digit, "") + ipa)
    return "".join(out)


def dictionary_ipa(words: Iterable[Iterable[str]]) -> str:
    """The IPA a lexicon shows for one pronunciation, given per written word as syllables
    (already IPA, stress marks in place): syllables dotted, words spaced, and no stress mark
    on a word of one syllable, as dictionaries print it (``bank`` -> ``bæŋk``, not
    ``bˈæŋk``: the mark says nothing there). A CMUdict pronunciation, which has no syllable
    boundaries, is passed as one syllable per vowel's mark: see :func:`cmudict_ipa`."""
    shown = []
    for syllables in words:
        parts = list(syllables)
        text = ".".join(parts)
        if len(parts) == 1:
            text = text.replace("ˈ", "").replace("ˌ", "")
        shown.append(text)
    return " ".join(shown)


def cmudict_ipa(phones: Iterable[str]) -> str:
    """A CMUdict pronunciation as a lexicon shows its IPA: :func:`arpabet_to_ipa`, without
    the stress mark when the word has one vowel (one syllable), no syllable dots (CMUdict
    has no syllable boundaries)."""
    phones = list(phones)
    ipa = arpabet_to_ipa(phones)
    vowels = sum(1 for phone in phones if phone[-1:] in _MARKS)
    return dictionary_ipa([[ipa]]) if vowels <= 1 else ipa


# ISLEX's own spellings of phonemes the mapping above writes in the common IPA way.
_ISLEX_SPELLINGS = (("ei", "eɪ"), ("ɑɪ", "aɪ"), ("ɔi", "ɔɪ"), ("ɵ", "θ"), ("g", "ɡ"))
_ISLEX_PHONES = dict(_ISLEX_SPELLINGS)


def islex_phone(phone: str) -> str:
    """One ISLEX phone (its stress mark kept) in the common IPA spelling the mapping above
    uses: ``ˈei`` -> ``ˈeɪ``, ``g`` -> ``ɡ``; every other phone as it is."""
    body = phone.lstrip("ˈˌ")
    return phone[: len(phone) - len(body)] + _ISLEX_PHONES.get(body, body)


_SYLLABIC = (("n̩", "ən"), ("l̩", "əl"), ("m̩", "əm"))
# ISLEX's second spellings of the r-coloured vowels (`ˈʌn.dəɹ` beside `ˈʌn.dɚ`, `wɚɹk` beside
# `wɝk`): the same sounds as CMUdict's ER, so compared as one.
_RHOTIC = (("ɚɹ", "ɚ"), ("ɝɹ", "ɝ"), ("əɹ", "ɚ"))
# What stress alone tells apart: the marks, and the stressed and reduced vowel of AH and ER.
_STRESS_ONLY = (("ˈ", ""), ("ˌ", ""), ("ʌ", "ə"), ("ɝ", "ɚ"))


def comparable(ipa: str, *, stress: bool = True) -> str:
    """Normalise an IPA string for comparison across sources.

    Removes syllable dots, spaces and ISLEX's ``#`` word marks; writes ISLEX's ``ei ɑɪ ɔi ɵ g``
    as ``eɪ aɪ ɔɪ θ ɡ``; spells syllabic consonants ``n̩ l̩ m̩`` as ``ən əl əm`` (CMUdict writes
    ``AH0 N``); writes ISLEX's ``əɹ``, ``ɚɹ``, ``ɝɹ`` as ``ɚ ɚ ɝ`` (its second spellings of
    the r-coloured vowels); with ``stress=False`` drops the stress marks too, and with them
    the vowel qualities that only stress tells apart (``ʌ`` is written ``ə``, ``ɝ`` is
    ``ɚ``: CMUdict has one phoneme for each pair, so ``of`` ``ʌv`` and ISLEX's ``əv`` are the
    same phones).
    The flap ``ɾ`` is kept: :func:`same_pronunciation` lets it stand for ``t`` or ``d``.
    """
    text = re.sub(r"[.\s#]", "", ipa)
    for old, new in (*_ISLEX_SPELLINGS, *_SYLLABIC, *_RHOTIC):
        text = text.replace(old, new)
    if not stress:
        for old, new in _STRESS_ONLY:
            text = text.replace(old, new)
    return text


def same_pronunciation(ours: str, theirs: str, *, stress: bool = True) -> bool:
    """Whether two IPA strings agree after :func:`comparable`, a flap matching ``t`` or ``d``.

    CMUdict writes the flap of ``better`` as ``T`` and of ``ladder`` as ``D``; ISLEX writes
    ``ɾ`` for both, so either side's flap matches the other side's ``t``/``d``.
    """
    a, b = comparable(ours, stress=stress), comparable(theirs, stress=stress)
    if "ɾ" not in a and "ɾ" not in b:
        return a == b
    if len(a) != len(b):
        return False
    return all(x == y or {x, y} in ({"ɾ", "t"}, {"ɾ", "d"}) for x, y in zip(a, b, strict=True))
