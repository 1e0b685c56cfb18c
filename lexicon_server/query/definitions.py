"""GCIDE's senses for dictionary_lookup, after WordNet's (docs/tools.md, "dictionary_lookup").

GCIDE (Webster 1913 and its additions, GPL-2+) is installed as a component of its own
(`corpus.reader.GCIDE_FILE`). Its senses are never merged into WordNet's synsets: they
follow WordNet's senses of the word, up to the look-up's `limit`, each with its part of
speech, its entry's etymology and its quotations as examples, and `source: gcide`. A
GCIDE sense id is `en:gcide:s<n>`; it has no translations.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from lexicon_server.corpus.normalize import norm
from lexicon_server.corpus.reader import GCIDE_FILE
from lexicon_server.corpus.rows.definitions import (
    count_definitions,
    definitions,
    tagged_definitions,
)
from lexicon_server.corpus.rows.facts import sources
from lexicon_server.corpus.rows.senses import examples as example_rows
from lexicon_server.query.budget import EXAMPLE_CHARS, GLOSS_CHARS, Cuts

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus
    from lexicon_server.query.headwords import Headwords

__all__ = [
    "DefinitionRow",
    "Definitions",
    "definition_keys",
    "definition_rows",
    "definition_senses",
]

_Json = dict[str, Any]


@dataclass
class Definitions:
    """GCIDE's part of one look-up."""

    senses: list[_Json] = field(default_factory=list)
    total: int = 0  # GCIDE senses the word has
    cited: dict[str, str] = field(default_factory=dict)  # source key -> licence
    chars: int = 0  # free text, for the response size bound
    examples: int = 0  # examples shown


@dataclass(frozen=True)
class DefinitionRow:
    """One GCIDE sense as the slang tools read it."""

    headword: str
    pos: str
    gloss: str
    tags: tuple[str, ...]  # usage labels as corpus tags ('slang', 'obsolete')
    source: str
    licence: str
    example: str | None


def definition_keys(heads: Headwords, word: str) -> tuple[set[str], set[str] | None]:
    """(normalised headwords, parts of speech or None for all) whose GCIDE senses belong
    to a query that resolved to `heads`: an inflected form ('ran') keeps the parts of
    speech its resolutions name."""
    norms = {norm(r.lemma) for r in heads.resolutions} or {norm(word)}
    parts = None
    if heads.resolutions and all(r.pos for r in heads.resolutions):
        parts = {str(r.pos) for r in heads.resolutions}
    return norms, parts


class _Components(Protocol):
    def extra_db(self, relative: str, schema: str) -> sqlite3.Connection | None: ...


def definition_rows(
    corpus: _Components, language: str, norms: set[str], parts: set[str] | None = None
) -> list[DefinitionRow]:
    """Every GCIDE sense of the headwords `norms`, in look-up order; none outside English
    or without the component."""
    conn = corpus.extra_db(GCIDE_FILE, "lexical") if language == "en" and norms else None
    if conn is None:
        return []
    keys = sources(conn)
    return [
        DefinitionRow(
            head, sense_pos, gloss, tuple(tags.split()), keys.keys[sid], keys.infos[sid], ex
        )
        for head, sense_pos, gloss, tags, sid, ex in tagged_definitions(conn, norms, parts)
    ]


def definition_senses(
    corpus: Corpus,
    language: str,
    norms: set[str],
    word: str,
    limit: int,
    examples_budget: int,
    sense_source: str | None,
    cuts: Cuts,
    parts: set[str] | None = None,
) -> Definitions:
    """Up to `limit` GCIDE senses of the headwords `norms` (normalised), of the parts of
    speech `parts` only when given, with at most `examples_budget` examples in all,
    dealt one per sense in turn. A sense names its source unless it is `sense_source`,
    and its headword unless it is `word`."""
    out = Definitions()
    if language != "en" or not norms:
        return out
    conn = corpus.extra_db(GCIDE_FILE, "lexical")
    if conn is None:
        return out
    keys = sources(conn)
    out.total = count_definitions(conn, norms, parts)
    if limit <= 0 or not out.total:
        return out
    rows = definitions(conn, norms, parts, limit)
    examples: dict[int, list[tuple[str, int]]] = {}
    for sense_id, text, source_id in example_rows(conn, (r[0] for r in rows)):
        examples.setdefault(sense_id, []).append((text, source_id))
    # One example to each sense in turn, so the first sense cannot take them all.
    takes = [0] * len(rows)
    left = examples_budget
    while left > 0:
        dealt = False
        for n, row in enumerate(rows):
            if left > 0 and takes[n] < len(examples.get(row[0], ())):
                takes[n] += 1
                left -= 1
                dealt = True
        if not dealt:
            break
    for n, (sid, gloss, pos, etymology, head, source_id) in enumerate(rows):
        key = keys.keys[source_id]
        out.cited[key] = keys.infos[source_id]
        sense: _Json = {"id": f"{language}:gcide:s{sid}"}
        if head != word:
            sense["word"] = head
        sense["pos"] = pos
        sense["gloss"] = cuts.clip(gloss, GLOSS_CHARS)
        sense["sense_scope"] = "sense"
        if etymology:
            sense["etymology"] = cuts.clip(etymology, GLOSS_CHARS)
        if key != sense_source:
            sense["source"] = key
        have = examples.get(sid, [])
        shown = []
        for text, ex_source in have[: takes[n]]:
            ex_key = keys.keys[ex_source]
            item: _Json = {"text": cuts.clip(text, EXAMPLE_CHARS)}
            if ex_key != key:
                out.cited[ex_key] = keys.infos[ex_source]
                item["source"] = ex_key
            shown.append(item)
            out.chars += len(text)
        if shown:
            sense["examples"] = shown
            out.examples += len(shown)
        if len(have) > takes[n]:
            sense["truncated_fields"] = ["examples"]
        out.chars += len(gloss) + len(etymology or "") + len(head)
        out.senses.append(sense)
    return out
