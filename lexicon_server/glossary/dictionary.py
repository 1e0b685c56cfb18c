"""General-language senses from the installed English dictionary, next to the project's own.

A glossary term is often also an ordinary word ("release", "batch"). Showing the
dictionary's senses beside the project's definition lets an agent see which meaning
the project narrows or overrides. This reads the corpus's English lexical database
directly with one small, parameterised query; it never writes anything.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from lexicon_server.corpus.reader import CapabilityUnavailable

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

__all__ = [
    "MAX_SENSES_PER_WORD",
    "MAX_WORDS",
    "DictionaryReport",
    "DictionarySense",
    "WordSenses",
    "dictionary_senses",
]

MAX_WORDS = 6
MAX_SENSES_PER_WORD = 3

_SENSES_SQL = """
SELECT t.text, e.pos, s.gloss, src.name
FROM terms AS t
JOIN entries AS e ON e.term_id = t.id
JOIN senses AS s ON s.entry_id = e.id
JOIN sources AS src ON src.id = s.source_id
WHERE t.norm = ?
ORDER BY e.id, s.rank
LIMIT ?
"""

# A form the dictionary lists as inflected ("batches") leads to its lemma ("batch").
_LEMMA_SQL = """
SELECT DISTINCT t.norm
FROM inflections AS i JOIN terms AS t ON t.id = i.lemma_term_id
WHERE i.form_norm = ?
ORDER BY t.norm
LIMIT 1
"""


@dataclass(frozen=True)
class DictionarySense:
    headword: str
    pos: str
    gloss: str
    source: str


@dataclass(frozen=True)
class WordSenses:
    word: str  # as asked: the query or a matched glossary term
    senses: tuple[DictionarySense, ...]  # empty: not an ordinary dictionary word


@dataclass(frozen=True)
class DictionaryReport:
    status: Literal["ok", "unavailable"]
    message: str | None
    words: tuple[WordSenses, ...]


def _dictionary_norm(text: str) -> str:
    # The corpus's own look-up key (docs/corpus-format.md): NFKC, casefold, collapsed spaces.
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def dictionary_senses(corpus: Corpus | None, words: Sequence[str]) -> DictionaryReport:
    """Up to MAX_SENSES_PER_WORD English senses for each of the first MAX_WORDS distinct words."""
    if corpus is None:
        from lexicon_store.selection import install_command

        return DictionaryReport(
            "unavailable",
            "no dictionary data is loaded in this server, so only the project's definitions are "
            f"shown; install the English dictionary with `{install_command()}` and restart "
            "lexicon-mcp",
            (),
        )
    try:
        conn = corpus.db("en", "lexical")
    except CapabilityUnavailable as exc:
        return DictionaryReport(
            "unavailable",
            f"the English dictionary is not available ({exc.reason}), so only the project's "
            "definitions are shown; add it with "
            "`lexicon-data add-language --languages en --capabilities lexical`",
            (),
        )
    looked_up: dict[str, WordSenses] = {}
    for word in words:
        key = _dictionary_norm(word)
        if not key or key in looked_up:
            continue
        if len(looked_up) == MAX_WORDS:
            break
        looked_up[key] = WordSenses(word, _senses(conn, key))
    return DictionaryReport("ok", None, tuple(looked_up.values()))


def _senses(conn: sqlite3.Connection, key: str) -> tuple[DictionarySense, ...]:
    rows = conn.execute(_SENSES_SQL, (key, MAX_SENSES_PER_WORD)).fetchall()
    if not rows:
        lemma = conn.execute(_LEMMA_SQL, (key,)).fetchone()
        if lemma is not None:
            rows = conn.execute(_SENSES_SQL, (lemma[0], MAX_SENSES_PER_WORD)).fetchall()
    return tuple(DictionarySense(str(r[0]), str(r[1]), str(r[2]), str(r[3])) for r in rows)
