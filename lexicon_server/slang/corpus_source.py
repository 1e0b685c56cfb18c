"""Meanings from the installed lexical corpus, slang-labelled senses first.

The phrase turns into senses through the dictionary tools' own reader
(`query.senses.read_senses`); the slang group's SQL lives here, and the looked-up phrase
only ever travels as a bound parameter.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from lexicon_server.corpus.normalize import norm  # the key the builder stored in terms.norm
from lexicon_server.corpus.rows.facts import sources
from lexicon_server.corpus.rows.slang import first_example, usage_words
from lexicon_server.query.definitions import definition_keys, definition_rows
from lexicon_server.query.senses import read_senses
from lexicon_server.slang.definitions import SLANG_TAGS, Definition
from lexicon_server.slang.errors import MeaningSourceError

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

__all__ = ["USAGE_DOMAINS", "LexicalCorpus", "corpus_definitions", "norm", "open_corpus"]

# WordNet marks register with "domain of synset - usage" pointers (`;u`, stored under the
# LMF name `exemplifies`) to synsets such as {slang, argot, ...}, {colloquialism} or
# {disparagement}; a sense pointing at one of these words is treated like a tagged one.
USAGE_DOMAINS = frozenset(
    {
        "slang",
        "argot",
        "cant",
        "colloquialism",
        "vulgarism",
        "obscenity",
        "profanity",
        "disparagement",
        "derogation",
        "ethnic slur",
        "dysphemism",
    }
)


class LexicalCorpus(Protocol):
    """What the slang group needs from `lexicon_server.corpus.reader.Corpus`."""

    def db(self, language: str, capability: str) -> sqlite3.Connection: ...

    def extra_db(self, relative: str, schema: str) -> sqlite3.Connection | None: ...


def _usage_tags(conn: sqlite3.Connection, sense_id: int, synset_id: int | None) -> list[str]:
    names = {norm(text) for text in usage_words(conn, sense_id, synset_id)}
    return [f"usage:{name}" for name in sorted(names & USAGE_DOMAINS)]


def _is_slang(tags: tuple[str, ...]) -> bool:
    return any(tag.casefold() in SLANG_TAGS or tag.startswith("usage:") for tag in tags)


def corpus_definitions(
    corpus: LexicalCorpus, phrase: str, limit: int, language: str = "en"
) -> list[Definition]:
    """Up to `limit` senses of `phrase`: those labelled slang/informal/... first, then any.
    English reads GCIDE's senses too (after WordNet's, as a look-up shows them), whose
    usage labels ('[slang]') are tags like WordNet's usage domains."""
    try:
        conn = corpus.db(language, "lexical")
        # The one senses reader of every dictionary tool, with its lemma rule.
        heads, senses = read_senses(conn, phrase, language)
        table = sources(conn)
        rows = [
            (
                sense.word,
                sense.pos,
                sense.gloss,
                table.keys[sense.source_id],
                table.infos[sense.source_id],
                first_example(conn, sense.id),
                tuple(sense.tags.split()) + tuple(_usage_tags(conn, sense.id, sense.synset_id)),
            )
            for sense in senses
        ]
        rows += [
            (r.headword, r.pos, r.gloss, r.source, r.licence, r.example, r.tags)
            for r in definition_rows(corpus, language, *definition_keys(heads, phrase))
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
    for headword, pos, gloss, source, licence, example, tags in rows:
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
