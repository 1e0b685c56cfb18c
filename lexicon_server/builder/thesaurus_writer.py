"""A MyThes thesaurus as its own component, `<lang>/thesaurus.sqlite` (docs/thesauri.md).

The database has the lexical schema, so the server reads it like a lexical component:
each headword is a term with one entry per part-of-speech label (`unknown` where MyThes
gives none), each meaning line is one sense of it (in file order; its gloss is the
Italian sense note, else the line's first terms), and each term of the line is a
sense-scoped edge to the term: `synonym`, or what the term's note says it is
(`Oberbegriff`/`generic term` -> hypernym, `Unterbegriff` -> hyponym, `antonym`/
`Gegenteil` -> antonym). A headword listed twice with the same meaning (OpenThesaurus
does this) gives one sense.
"""

from __future__ import annotations

from pathlib import Path

from lexicon_server.builder.inputs import SourceInput
from lexicon_server.builder.lexical_writer import LexicalWriter
from lexicon_server.builder.records import ThesaurusEntry
from lexicon_server.corpus.normalize import norm

__all__ = ["GLOSS_TERMS", "note_relation", "write_thesaurus"]

GLOSS_TERMS = 3  # how many of a meaning's terms name it when MyThes gives no gloss

_RELATIONS = (
    ("oberbegriff", "hypernym"),
    ("generic term", "hypernym"),
    ("unterbegriff", "hyponym"),
    ("antonym", "antonym"),
    ("gegenteil", "antonym"),
    ("gegenwort", "antonym"),
)


def note_relation(note: str | None) -> str:
    """The relation a term's MyThes note names, else `synonym` (register labels such as
    `ugs.` or `Hauptform` say how the word is used, not how it relates)."""
    if note:
        folded = note.casefold()
        for label, relation in _RELATIONS:
            if label in folded:
                return relation
    return "synonym"


def _gloss(entry: ThesaurusEntry) -> str:
    if entry.sense_note:
        return entry.sense_note
    return "; ".join(entry.terms[:GLOSS_TERMS])


def write_thesaurus(
    path: Path, language: str, src: SourceInput, *, dataset_version: str
) -> dict[str, int]:
    from lexicon_server.builder.parsers import mythes

    name = src.spec.name
    w = LexicalWriter(
        path,
        language=language,
        dataset_version=dataset_version,
        sources=[src.row()],
        built_from=name,
    )
    ranks: dict[int, int] = {}
    seen: set[tuple[str, str | None, tuple[str, ...]]] = set()
    edges = 0
    try:
        for entry in mythes.iter_entries(src.file("dat")):
            key = (norm(entry.headword), entry.pos, entry.terms)
            if key in seen:
                continue
            seen.add(key)
            term_id = w.term(entry.headword)
            entry_id = w.entry(term_id, entry.pos or "unknown", name)
            rank = ranks.get(entry_id, 0)
            ranks[entry_id] = rank + 1
            sense_id = w.sense(entry_id, _gloss(entry), name, rank=rank)
            notes = entry.notes or (None,) * len(entry.terms)
            own = key[0]
            for term, note in zip(entry.terms, notes, strict=True):
                if norm(term) == own:
                    continue
                w.sense_term_relation(note_relation(note), sense_id, term, name)
                edges += 1
    except BaseException:
        w.abort()
        raise
    return {**w.finish(), "thesaurus_edges": edges}
