"""General-language senses from the installed English dictionary, next to the project's own.

A glossary term is often also an ordinary word ("release", "batch"). Showing the
dictionary's senses beside the project's definition lets an agent see which meaning
the project narrows or overrides. This reads the corpus's English lexical database
through the same senses reader as the dictionary tools (`query.senses.read_senses`);
it never writes anything.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from lexicon_server.corpus.reader import CapabilityUnavailable
from lexicon_server.corpus.rows.facts import sources
from lexicon_server.query.headwords import normalize
from lexicon_server.query.senses import read_senses

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
        key = normalize(word)
        if not key or key in looked_up:
            continue
        if len(looked_up) == MAX_WORDS:
            break
        looked_up[key] = WordSenses(word, _senses(conn, word))
    return DictionaryReport("ok", None, tuple(looked_up.values()))


def _senses(conn: sqlite3.Connection, word: str) -> tuple[DictionarySense, ...]:
    # The one senses reader every dictionary tool uses: an inflected form ("batches")
    # leads to its lemma ("batch") as it does there.
    _heads, rows = read_senses(conn, word, "en", MAX_SENSES_PER_WORD)
    keys = sources(conn).keys
    return tuple(DictionarySense(r.word, r.pos, r.gloss, keys[r.source_id]) for r in rows)
