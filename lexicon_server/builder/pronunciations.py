"""English pronunciations: CMUdict's ARPAbet, and IPA beside it.

Each word with a CMUdict pronunciation gets its IPA from ISLEX where ISLEX has the word
(with its syllable boundaries, its own phone spellings `ei`, `ɑɪ`, `ɔi`, `ɵ`, `g` written
as the common `eɪ aɪ ɔɪ θ ɡ`; source `islex`), and otherwise from CMUdict's own
pronunciations through the documented mapping of `corpus.ipa` (source `cmudict-ipa`, a
source row of its own so that an answer says the IPA was mapped, not published). ISLEX
also gives IPA to words of the component that CMUdict lacks (WordNet lemmas such as
phrases). A word of one syllable shows no stress mark (`bank` -> `bæŋk`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from lexicon_server.corpus.ipa import cmudict_ipa, dictionary_ipa, islex_phone
from lexicon_server.corpus.normalize import display_form

if TYPE_CHECKING:
    from lexicon_server.builder.inputs import Inputs, SourceInput
    from lexicon_server.builder.lexical_writer import LexicalWriter, SourceRow
    from lexicon_server.builder.records import PronunciationRow

__all__ = ["CMUDICT_SOURCES", "add_pronunciations", "mapped_source", "source_rows"]

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


def _islex(src: SourceInput) -> dict[str, list[str]]:
    """Written form -> its ISLEX IPA forms, in file order, without repeats."""
    from lexicon_server.builder.parsers import islex

    out: dict[str, list[str]] = {}
    for entry in islex.iter_entries(src.file("dict")):
        ipa = dictionary_ipa(
            ["".join(map(islex_phone, s)) for s in word] for word in entry.syllables
        )
        forms = out.setdefault(display_form(entry.word), [])
        if ipa not in forms:
            forms.append(ipa)
    return out


def add_pronunciations(w: LexicalWriter, inputs: Inputs) -> dict[str, int]:
    """Write CMUdict's ARPAbet and the IPA beside it; returns counts by IPA origin.

    Call after the sources that add entries, so that ISLEX finds their words."""
    from lexicon_server.builder.parsers import cmudict

    islex_src = inputs.get("islex")
    islex = _islex(islex_src) if islex_src is not None else {}
    counts = {"ipa_islex": 0, "ipa_mapped": 0}
    done: set[str] = set()
    for name in CMUDICT_SOURCES:
        if (src := inputs.get(name)) is None:
            continue
        rows: list[PronunciationRow] = list(cmudict.iter_pronunciations(src.file("dict")))
        w.pronunciations(rows, name)
        for r in rows:
            word = display_form(r.word)
            if word in done:
                continue
            if word in islex:
                _add_islex(w, w.term(word), islex[word])
                counts["ipa_islex"] += len(islex[word])
                done.add(word)
            else:
                w.pronunciation(w.term(word), "ipa", cmudict_ipa(r.phones), r.variant,
                                mapped_source(name))  # fmt: skip
                counts["ipa_mapped"] += 1
    for word, forms in islex.items():
        if word not in done and (term_id := w.known_term(word)) is not None:
            _add_islex(w, term_id, forms)
            counts["ipa_islex"] += len(forms)
    return counts


def _add_islex(w: LexicalWriter, term_id: int, forms: list[str]) -> None:
    for variant, ipa in enumerate(forms):
        w.pronunciation(term_id, "ipa", ipa, variant, "islex")
