"""Meanings from the offline slang component (`slang.sqlite`: Gen-Z list, Jargon File, emoji).

The component is a shared file of the release (docs/corpus-format.md, "Slang component"),
opened read-only once per selection and found through the selection's file list; a
release without it (built before the slang data) simply has no slang meanings. The
looked-up phrase only ever travels as a bound parameter.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lexicon_server.corpus.rows.slang import open_slang, schema_version, slang_meanings
from lexicon_server.corpus.slang_data import SCHEMA_VERSION, SLANG_FILE, slang_key
from lexicon_server.slang.definitions import Definition
from lexicon_server.slang.errors import MeaningSourceError

__all__ = ["SlangMeanings", "slang_definitions"]


@dataclass(frozen=True)
class SlangMeanings:
    """A phrase's offline slang meanings, and whether one of them marks it as slang."""

    definitions: tuple[Definition, ...]
    marked: bool


def _open(path: Path) -> sqlite3.Connection:
    conn = open_slang(path)
    version = schema_version(conn)
    if version != SCHEMA_VERSION:
        conn.close()
        raise MeaningSourceError(
            "slang_data",
            f"{path} has slang schema version {version}, this server reads version "
            f"{SCHEMA_VERSION}; install the matching data release with `lexicon-data install`",
        )
    return conn


def _connection(corpus: Any) -> sqlite3.Connection | None:
    """The selection's slang database, or None when the release carries none."""
    selection = getattr(corpus, "selection", None)
    files = getattr(selection, "files", None)
    if not files or SLANG_FILE not in files:
        return None
    cache: dict[str, Any] = corpus.cache("slang")  # closed with the selection's handles
    conn = cache.get(SLANG_FILE)
    if conn is None:
        conn = cache[SLANG_FILE] = _open(Path(files[SLANG_FILE]))
    return conn


def slang_definitions(corpus: Any, phrase: str, limit: int, language: str = "en") -> SlangMeanings:
    """Up to `limit` meanings of `phrase` per slang source, in source order."""
    try:
        conn = _connection(corpus)
        if conn is None:
            return SlangMeanings((), False)
        rows = slang_meanings(conn, language, slang_key(phrase))
    except sqlite3.Error as exc:
        raise MeaningSourceError(
            "slang_data",
            f"reading {SLANG_FILE} failed ({exc}); run `lexicon-data verify` and reinstall "
            "if it reports damage",
        ) from exc
    taken: dict[str, int] = {}
    found: list[Definition] = []
    marked = False
    for headword, kind, gloss, pos, tags, emoji, marks, source, licence, trust in rows:
        marked = marked or bool(marks)
        if taken.get(source, 0) >= limit:
            continue
        taken[source] = taken.get(source, 0) + 1
        found.append(
            Definition(
                text=gloss,
                origin="corpus",
                source=source,
                trust=trust,
                headword=headword,
                slang=True,
                pos=pos,
                tags=tuple(tags.split()),
                licence=licence,
                kind=kind,
                emoji=emoji,
            )
        )
    return SlangMeanings(tuple(found), marked)
