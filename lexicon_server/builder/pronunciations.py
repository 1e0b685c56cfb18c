"""English pronunciations: CMUdict's ARPAbet, and IPA beside it.

Each word with a CMUdict pronunciation gets its IPA from ISLEX where ISLEX has the word
(with its syllable boundaries, its own phone spellings `ei`, `ɑɪ`, `ɔi`, `ɵ`, `g` written
as the common `eɪ aɪ ɔɪ θ ɡ`; source `islex`), and otherwise from CMUdict's own
pronunciations through the documented mapping of `corpus.ipa` (source `cmudict-ipa`, a
source row of its own so that an answer says the IPA was mapped, not published). ISLEX
also gives IPA to words of the component that CMUdict lacks (WordNet lemmas such as
phrases). A word of one syllable shows no stress mark (`bank` -> `bæŋk`).

Where both have the word, only the ISLEX forms that one of CMUdict's lines confirms are
kept, each numbered as that line, those equal with stress first (`ipa_order`): `run`
shows `ɹʌn`, then ISLEX's reduced `ɹn̩`; `for` no longer shows `fɑɹ`. When ISLEX confirms
none, CMUdict's mapped IPA stands in.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from lexicon_server.corpus.ipa import (
    cmudict_ipa,
    dictionary_ipa,
    islex_phone,
    same_pronunciation,
)
from lexicon_server.corpus.normalize import display_form

if TYPE_CHECKING:
    from pathlib import Path

    from lexicon_server.builder.inputs import Inputs
    from lexicon_server.builder.lexical_writer import LexicalWriter, SourceRow
    from lexicon_server.builder.records import PronunciationRow

__all__ = [
    "CMUDICT_SOURCES",
    "add_pronunciations",
    "ipa_order",
    "islex_forms",
    "mapped_source",
    "source_rows",
]

CMUDICT_SOURCES = ("cmudict", "cmudict-local")
_MAPPED = "{}-ipa"  # the source key of a CMUdict source's mapped IPA


def mapped_source(name: str) -> str:
    """The source key of IPA mapped from CMUdict source `name` ('cmudict-ipa')."""
    return _MAPPED.format(name)


def source_rows(inputs: Inputs) -> list[SourceRow]:
    """The `sources` rows pronunciations add beside the fetched sources' own: one for the
    IPA mapped from each CMUdict source, with that source's version and licence."""
    rows = []
    for name in CMUDICT_SOURCES:
        if (src := inputs.get(name)) is not None:
            row = src.row()
            title = f"{row.title}, ARPAbet mapped to IPA (lexicon_server.corpus.ipa)"
            rows.append(replace(row, name=mapped_source(name), title=title))
    return rows


def islex_forms(path: Path) -> dict[str, list[str]]:
    """Written form -> its IPA forms in ISLEX file `path`, in file order, without repeats."""
    from lexicon_server.builder.parsers import islex

    out: dict[str, list[str]] = {}
    for entry in islex.iter_entries(path):
        ipa = dictionary_ipa(
            ["".join(map(islex_phone, s)) for s in word] for word in entry.syllables
        )
        forms = out.setdefault(display_form(entry.word), [])
        if ipa not in forms:
            forms.append(ipa)
    return out


def ipa_order(islex: list[str], mapped: list[str]) -> tuple[list[tuple[str, int, bool]], int]:
    """A word's IPA forms in the order shown, each with the CMUdict line (variant) it says
    and whether it is that line's mapped form, and how many of ISLEX's forms were left out:
    `islex` is ISLEX's forms in file order, `mapped` CMUdict's lines mapped to IPA.

    First the ISLEX forms equal to a CMUdict line (`corpus.ipa.same_pronunciation`) stress
    included, then those equal to one with stress aside (`run`'s reduced `ɹn̩` after
    `ɹʌn`), each numbered as the line it equals, so that an answer shows it after that
    line's ARPAbet. An ISLEX form equal to no line is left out: for the frequent words
    these are mostly another word's sounds (`for` fɑɹ, `city` bˈoʊ.ʒɚɹ, a surname's `to`
    toʊ) or broken lines (`house` haʊsn, haʊzv), and the real variants among them (verb
    `house` haʊz) cannot be told from those by rule. When no ISLEX form agrees, the mapped
    forms stand alone."""
    agree: dict[str, int] = {}
    for stress in (True, False):
        for variant, target in enumerate(mapped):
            for form in islex:
                if form not in agree and same_pronunciation(form, target, stress=stress):
                    agree[form] = variant
    if agree:
        return [(form, variant, False) for form, variant in agree.items()], len(islex) - len(agree)
    return [(form, variant, True) for variant, form in enumerate(mapped)], len(islex)


def add_pronunciations(w: LexicalWriter, inputs: Inputs) -> dict[str, int]:
    """Write CMUdict's ARPAbet and the IPA beside it, chosen and ordered by `ipa_order`;
    returns counts of IPA forms by origin (`ipa_islex`, `ipa_mapped`; `ipa_islex_only` for
    the words CMUdict lacks) and of ISLEX forms left out (`ipa_islex_dropped`).

    Call after the sources that add entries, so that ISLEX finds their words."""
    from lexicon_server.builder.parsers import cmudict

    islex_src = inputs.get("islex")
    islex = islex_forms(islex_src.file("dict")) if islex_src is not None else {}
    counts = dict.fromkeys(("ipa_islex", "ipa_mapped", "ipa_islex_only", "ipa_islex_dropped"), 0)
    done: set[str] = set()
    for name in CMUDICT_SOURCES:
        if (src := inputs.get(name)) is None:
            continue
        rows: list[PronunciationRow] = list(cmudict.iter_pronunciations(src.file("dict")))
        w.pronunciations(rows, name)
        mapped: dict[str, list[str]] = {}  # word -> its mapped IPA, in variant order
        for r in rows:
            word = display_form(r.word)
            if word not in done:
                mapped.setdefault(word, []).append(cmudict_ipa(r.phones))
        for word, forms in mapped.items():
            term_id = w.term(word)
            shown, dropped = ipa_order(islex.get(word, []), forms)
            for ipa, variant, is_mapped in shown:
                source = mapped_source(name) if is_mapped else "islex"
                w.pronunciation(term_id, "ipa", ipa, variant, source)
                counts["ipa_mapped" if is_mapped else "ipa_islex"] += 1
            counts["ipa_islex_dropped"] += dropped
        done.update(mapped)
    for word, forms in islex.items():
        if word not in done and (known := w.known_term(word)) is not None:
            _add_islex(w, known, forms)
            counts["ipa_islex_only"] += len(forms)
    return counts


def _add_islex(w: LexicalWriter, term_id: int, forms: list[str]) -> None:
    for variant, ipa in enumerate(forms):
        w.pronunciation(term_id, "ipa", ipa, variant, "islex")
