"""A language's MyThes thesaurus in dictionary_synonyms (docs/thesauri.md).

The thesaurus is its own component, `<lang>/thesaurus.sqlite`, in the lexical schema: a
headword's meaning lines are its senses and their terms sense-scoped `synonym` edges. A
word is looked up there by the same keys the lexical component resolved it to (its own
norm and its lemmas'), so `Haus` finds OpenThesaurus's lower-case headword `haus`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lexicon_server.corpus.rows.facts import sources
from lexicon_server.corpus.rows.relations import meaning_synonyms
from lexicon_server.corpus.rows.senses import SenseRow, senses_of_norms
from lexicon_server.query.headwords import normalize

if TYPE_CHECKING:
    import sqlite3

    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.corpus.rows.facts import SourceTable

__all__ = ["ThesaurusSenses", "thesaurus_handle", "thesaurus_senses"]


@dataclass(frozen=True)
class ThesaurusSenses:
    table: SourceTable
    rows: list[SenseRow]
    # sense id -> candidates (text, norm, relation, source id, has entry, sense scope)
    candidates: dict[int, list[tuple[str, str, str, int, bool, str]]]


def thesaurus_handle(language: str, sense_rowid: int) -> str:
    """A thesaurus meaning's id for the caller (`de:t12`): it names a MyThes meaning line,
    not a dictionary sense, so dictionary_translate does not take it as `sense_id`."""
    return f"{language}:t{sense_rowid}"


def thesaurus_senses(
    corpus: Corpus, language: str, norms: Iterable[str], own: set[str]
) -> ThesaurusSenses | None:
    """The meanings of the words `norms` in the language's thesaurus, with their terms
    (the word's own spellings left out), or None when the selection has no thesaurus."""
    conn = corpus.extra_db(f"{language}/thesaurus.sqlite", "lexical")
    if conn is None:
        return None
    rows = senses_of_norms(conn, norms)
    return ThesaurusSenses(sources(conn), rows, _candidates(conn, rows, own))


def _candidates(
    conn: sqlite3.Connection, rows: list[SenseRow], own: set[str]
) -> dict[int, list[tuple[str, str, str, int, bool, str]]]:
    out: dict[int, list[tuple[str, str, str, int, bool, str]]] = {row.id: [] for row in rows}
    if not rows:
        return out
    seen: dict[int, set[str]] = {row.id: set(own) for row in rows}
    for sense_id, text, norm, source_id, has_entry in meaning_synonyms(conn, out):
        assert text is not None  # joined to its term
        key = norm or normalize(text)
        if key not in seen[sense_id]:
            seen[sense_id].add(key)
            out[sense_id].append((text, key, "synonym", source_id, bool(has_entry), "sense"))
    return out
