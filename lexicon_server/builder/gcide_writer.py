"""GCIDE (Webster 1913 and its additions, GPL-2+) as its own English component.

`en/gcide.sqlite` has the lexical schema but only GCIDE's rows, so the share-alike source
stays a separate file with its own licence notice and is never merged into WordNet's
synsets: each GCIDE headword is a term, each homograph an entry (its part of speech and
etymology), each numbered definition a sense without a synset, and each quotation an
example of its sense ("text —Author"). A look-up shows these senses after WordNet's,
with `source: gcide` (lexicon_server/query/definitions.py).
"""

from __future__ import annotations

import re
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexicon_server.builder.lexical_writer import LexicalWriter
from lexicon_server.corpus.reader import GCIDE_FILE

if TYPE_CHECKING:
    from lexicon_server.builder.inputs import SourceInput
    from lexicon_server.builder.records import DefinitionEntry, DefinitionSense

__all__ = ["GCIDE_COMPONENT", "corpus_pos", "register_tags", "write_gcide"]

GCIDE_COMPONENT = GCIDE_FILE

# GCIDE's part-of-speech abbreviations for the corpus's WordNet-style names; any other is
# kept as published ('pron.', 'prep.', 'interj.').
_POS = {
    "n.": "noun",
    "v.": "verb",
    "v. t.": "verb",
    "v. i.": "verb",
    "v. t. & i.": "verb",
    "v. i. & t.": "verb",
    "a.": "adj",
    "adj.": "adj",
    "adv.": "adv",
}


# An origin mark the header's last bracket ran into (2,292 of 51,097 etymologies of 0.48
# end 'See Base, a. 1913 Webster'): it names where the entry came from, not the word.
_ORIGIN_TAIL = re.compile(r"\s*\b1913 Webster$")


# A usage label's words as the corpus's sense tags (docs/corpus-format.md), so that the
# slang tools see GCIDE's "[slang]" the way they see WordNet's usage domains. Regions
# ('Scot.', 'U. S.') and languages are not register and give no tag.
_REGISTER = {
    "slang": "slang",
    "colloq": "colloquial",
    "informal": "informal",
    "vulgar": "vulgar",
    "low": "low",
    "cant": "cant",
    "obs": "obsolete",
    "obsoles": "obsolescent",
    "r": "rare",
    "rare": "rare",
    "archaic": "archaic",
    "poetic": "poetic",
    "prov": "dialect",
    "local": "dialect",
}
_LABEL_WORDS = re.compile(r"[A-Za-z]+")


def register_tags(labels: tuple[str, ...]) -> list[str]:
    """'[Slang, U. S.]' -> ['slang']; '[Obs. or Colloq.]' -> ['obsolete', 'colloquial']."""
    tags = (_REGISTER.get(w.casefold()) for label in labels for w in _LABEL_WORDS.findall(label))
    return list(dict.fromkeys(t for t in tags if t))


def corpus_pos(published: str | None) -> str:
    """The corpus's name for a GCIDE part of speech ('v. t.' -> 'verb'); 'unknown' for none."""
    if not published:
        return "unknown"
    return _POS.get(published.strip(), published.strip())


def write_gcide(path: Path, src: SourceInput, *, dataset_version: str) -> dict[str, Any]:
    """Write the GCIDE component from the dictd files of `src`; the stats carry the markup
    rules' counts under `cleaned` (entries each rule changed, docs/source-formats.md)."""
    from lexicon_server.builder.parsers import gcide

    w = LexicalWriter(
        path,
        language="en",
        dataset_version=dataset_version,
        sources=[src.row()],
        built_from=src.spec.name,
        spelling=False,
    )
    name = src.spec.name
    cleaned: dict[str, int] = {}
    try:
        for _, homographs in groupby(
            gcide.iter_entries(src.file("index"), src.file("dict")), key=lambda e: e.headword
        ):
            # A headword's homographs whose every sense is obsolete, rare or dialect last.
            for entry in sorted(homographs, key=_all_dated):
                for rule, count in entry.cleaned:
                    cleaned[rule] = cleaned.get(rule, 0) + count
                _add(w, entry, name)
    except BaseException:
        w.abort()
        raise
    return {**w.finish(), "cleaned": {name: dict(sorted(cleaned.items()))}}


# Labels that put a sense after the others of its entry (and an entry whose every sense
# carries one after its headword's other entries).
_DATED = frozenset({"obsolete", "archaic", "rare", "dialect"})


def _dated(sense: DefinitionSense) -> bool:
    return not _DATED.isdisjoint(register_tags(sense.labels))


def _all_dated(entry: DefinitionEntry) -> bool:
    return bool(entry.senses) and all(_dated(s) for s in entry.senses)


def _add(w: LexicalWriter, entry: DefinitionEntry, source: str) -> None:
    if not entry.senses:
        return  # a Note: or sub-entry list alone: nothing a sense can hold
    term_id = w.term(entry.headword)
    etymology = _ORIGIN_TAIL.sub("", entry.etymology) if entry.etymology else None
    entry_id = w.entry(term_id, corpus_pos(entry.pos), source, etymology or None)
    # Ranked by use as far as GCIDE says: labelled obsolete, rare or dialect senses last.
    for rank, sense in enumerate(sorted(entry.senses, key=_dated)):
        gloss = f"({sense.domain}) {sense.definition}" if sense.domain else sense.definition
        sense_id = w.sense(
            entry_id,
            gloss,
            source,
            rank=rank,
            external_id=sense.number,
            tags=register_tags(sense.labels),
        )
        for quote in sense.quotations:
            text = f"{quote.text} —{quote.author}" if quote.author else quote.text
            w.example(sense_id, text, source)
