"""A language's MyThes thesaurus in dictionary_synonyms (docs/thesauri.md).

The thesaurus is its own component, `<lang>/thesaurus.sqlite`, in the lexical schema: a
headword's meaning lines are its senses and their terms sense-scoped `synonym` edges. A
word is looked up there by the same keys the lexical component resolved it to (its own
norm and its lemmas'), so `Haus` finds OpenThesaurus's lower-case headword `haus`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lexicon_server.query.facts import ID_LIST, id_list
from lexicon_server.query.headwords import normalize
from lexicon_server.query.provenance import sources

if TYPE_CHECKING:
    import sqlite3

    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.query.provenance import SourceTable

__all__ = ["ThesaurusSenses", "thesaurus_handle", "thesaurus_senses"]

# id, external_id, gloss, source_id, pos, synset_id (always NULL), term_id: the row shape
# the synonyms query reads its own senses in.
_SENSES = (
    "SELECT s.id, s.external_id, s.gloss, s.source_id, e.pos, s.synset_id, e.term_id "
    "FROM terms t JOIN entries e ON e.term_id = t.id JOIN senses s ON s.entry_id = e.id "
    f"WHERE t.norm IN {ID_LIST} ORDER BY t.id, e.id, s.rank, s.id"
)
_EDGES = (
    "SELECT r.src_sense_id, t.text, t.norm, r.source_id, "
    "EXISTS (SELECT 1 FROM entries e WHERE e.term_id = t.id) "
    "FROM relations r JOIN terms t ON t.id = r.dst_term_id "
    f"WHERE r.src_sense_id IN {ID_LIST} AND r.relation = 'synonym' ORDER BY r.src_sense_id, r.id"
)


@dataclass(frozen=True)
class ThesaurusSenses:
    table: SourceTable
    rows: list[tuple[Any, ...]]
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
    keys = sorted(set(norms))
    rows = conn.execute(_SENSES, (json.dumps(keys),)).fetchall() if keys else []
    return ThesaurusSenses(sources(conn), rows, _candidates(conn, rows, own))


def _candidates(
    conn: sqlite3.Connection, rows: list[tuple[Any, ...]], own: set[str]
) -> dict[int, list[tuple[str, str, str, int, bool, str]]]:
    out: dict[int, list[tuple[str, str, str, int, bool, str]]] = {row[0]: [] for row in rows}
    if not rows:
        return out
    seen: dict[int, set[str]] = {row[0]: set(own) for row in rows}
    for sense_id, text, norm, source_id, has_entry in conn.execute(_EDGES, (id_list(out),)):
        key = norm or normalize(text)
        if key not in seen[sense_id]:
            seen[sense_id].add(key)
            out[sense_id].append((text, key, "synonym", source_id, bool(has_entry), "sense"))
    return out
