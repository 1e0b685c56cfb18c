"""Meanings from the installed lexical corpus, slang-labelled senses first.

All SQL of the slang group lives here; the looked-up phrase only ever travels as a
bound parameter.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from lexicon_server.slang.definitions import SLANG_TAGS, Definition
from lexicon_server.slang.errors import MeaningSourceError

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

__all__ = ["LexicalCorpus", "corpus_definitions", "norm", "open_corpus"]

_SPACES = re.compile(r"\s+")

_SENSES_SQL = """
SELECT t.text, e.pos, s.gloss, s.tags, src.name, src.licence,
       (SELECT x.text FROM examples x WHERE x.sense_id = s.id ORDER BY x.id LIMIT 1)
FROM terms t
JOIN entries e ON e.term_id = t.id
JOIN senses s ON s.entry_id = e.id
JOIN sources src ON src.id = s.source_id
WHERE t.id = ?
ORDER BY e.id, s.rank, s.id
"""


class LexicalCorpus(Protocol):
    """What the slang group needs from `lexicon_server.corpus.reader.Corpus`."""

    def db(self, language: str, capability: str) -> sqlite3.Connection: ...


def norm(phrase: str) -> str:
    """The corpus look-up key: NFKC, case-folded, whitespace collapsed (as `terms.norm`)."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", phrase).casefold()).strip()


def _tags(raw: str) -> tuple[str, ...]:
    return tuple(raw.split())


def _is_slang(tags: tuple[str, ...]) -> bool:
    return any(tag.casefold() in SLANG_TAGS for tag in tags)


def _term_ids(conn: sqlite3.Connection, key: str) -> list[int]:
    """The phrase itself, then the lemmas it is an inflected form of."""
    ids = [
        row[0] for row in conn.execute("SELECT id FROM terms WHERE norm = ? ORDER BY id", (key,))
    ]
    for (lemma_id,) in conn.execute(
        "SELECT DISTINCT lemma_term_id FROM inflections WHERE form_norm = ? ORDER BY lemma_term_id",
        (key,),
    ):
        if lemma_id not in ids:
            ids.append(lemma_id)
    return ids


def corpus_definitions(
    corpus: LexicalCorpus, phrase: str, limit: int, language: str = "en"
) -> list[Definition]:
    """Up to `limit` senses of `phrase`: those labelled slang/informal/... first, then any."""
    try:
        conn = corpus.db(language, "lexical")
        key = norm(phrase)
        rows = [
            row for term_id in _term_ids(conn, key) for row in conn.execute(_SENSES_SQL, (term_id,))
        ]
    except LookupError as exc:  # CapabilityUnavailable: names the reason and the fix
        raise MeaningSourceError("corpus", str(exc)) from exc
    except sqlite3.Error as exc:
        raise MeaningSourceError(
            "corpus",
            f"reading the {language} lexical database failed ({exc}); "
            "run `lexicon-data verify` and reinstall if it reports damage",
        ) from exc
    found: list[Definition] = []
    for headword, pos, gloss, raw_tags, source, licence, example in rows:
        tags = _tags(raw_tags)
        found.append(
            Definition(
                text=gloss,
                origin="corpus",
                source=source,
                trust="curated",
                headword=headword,
                slang=_is_slang(tags),
                pos=pos,
                tags=tags,
                example=example,
                licence=licence,
            )
        )
    # Stable sort: slang-labelled senses move to the front, source order kept within each.
    found.sort(key=lambda d: not d.slang)
    return found[:limit]


def open_corpus(data_dir: Path | None = None) -> Corpus:
    """The corpus of the active selection that `lexicon-data install` activated."""
    from lexicon_server.corpus.reader import Corpus
    from lexicon_store.selection import NoActiveSelection, load_active

    try:
        return Corpus(load_active(data_dir))
    except NoActiveSelection as exc:
        raise MeaningSourceError("corpus", str(exc)) from exc
