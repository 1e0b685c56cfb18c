"""Pun candidates: exact homophones of the query that carry senses it does not have.

Candidates only, never finished jokes: each lists up to five of its distinct senses with
their glosses (when the English lexical component is installed), and an optional
`context` re-orders them by (non-stop) words shared with those glosses, never by vector
similarity. Split out of `query/wordplay.py`, which dispatches to it.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic_core import to_json

from lexicon_server.corpus.rows import wordplay as rows
from lexicon_server.corpus.wordplay_keys import fold
from lexicon_server.models import MAX_RESPONSE_CHARS
from lexicon_server.query.budget import clip
from lexicon_server.query.headwords import normalize
from lexicon_server.query.provenance import Cited
from lexicon_server.query.rhymes import RhymeIndex, query_words
from lexicon_server.query.wordplay_result import Answer, Data, result, with_note

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

__all__ = ["MAX_PUN_SENSES", "PUN_GLOSS_CHARS", "Pun", "fit_puns", "puns"]

LANGUAGE = "en"
MAX_PUN_SENSES = 5  # senses listed per pun candidate (the total is reported)
PUN_GLOSS_CHARS = 240

_CONTEXT_WORD = re.compile(r"[a-z]+")
# Words too common to say anything about which sense a context means.
_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "for",
        "from",
        "has",
        "have",
        "he",
        "her",
        "his",
        "i",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "our",
        "she",
        "so",
        "that",
        "the",
        "their",
        "them",
        "they",
        "this",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "which",
        "who",
        "will",
        "with",
        "you",
        "your",
    ]
)


def _context_words(context: str) -> set[str]:
    return {w for w in _CONTEXT_WORD.findall(fold(context)) if len(w) > 1} - _STOPWORDS


def _in_sense_order(corpus: Corpus, word: str, synsets: list[str]) -> list[str]:
    """`synsets` (external ids) in the lexical component's sense order for `word`
    ('night': the time after sunset before the goddess); any it does not list keep their
    order at the end."""
    lexical = corpus.db(LANGUAGE, "lexical")
    order: dict[str, int] = {}
    for synset in rows.synsets_in_sense_order(lexical, normalize(word), word):
        order.setdefault(synset, len(order))
    return sorted(synsets, key=lambda synset: order.get(synset, len(order)))


def _gloss_reader(corpus: Corpus) -> Callable[[str], str | None] | None:
    """Glosses come from the lexical component when it is installed; else None."""
    if corpus.selection.availability(LANGUAGE, "lexical") is not None:
        return None
    lexical = corpus.db(LANGUAGE, "lexical")

    return lambda synset: rows.synset_gloss(lexical, synset)


@dataclass(frozen=True, slots=True)
class Pun:
    """A pun candidate before the response budget decides whether it is listed."""

    fields: Data  # PunCandidate fields but provenance
    spelling_source: int
    pron_source: int
    matches: int


def puns(
    corpus: Corpus,
    conn: sqlite3.Connection,
    index: RhymeIndex,
    text: str,
    context: str | None,
    limit: int,
    base: Data,
) -> Data:
    found, folded = query_words(conn, text)
    query_ids = [row[0] for row in found]
    cut: list[str] = []
    phones_list: list[str] = []
    if query_ids:
        phones_list = rows.distinct_phones(conn, query_ids)
    query_senses = set(rows.word_synsets(conn, query_ids))
    gloss = _gloss_reader(corpus)
    context_words = _context_words(context) if context is not None else set()
    if context is not None and gloss is None:
        cut.append("context not used: English lexical data (glosses) is not installed")
    # Homophones grouped by spelling ignoring case, in rank order.
    groups: dict[str, tuple[str, str, list[int], int, int]] = {}
    for phones in phones_list:
        for word_id, word, source_id, pron_source in rows.homophones(conn, phones):
            key = fold(word)
            if key == folded:
                continue
            if key not in groups:
                groups[key] = (word, phones, [], source_id, pron_source)
            groups[key][2].append(word_id)
    candidates: list[Pun] = []
    for word, phones, ids, source_id, pron_source in groups.values():
        # Senses may sit on another capitalisation of the spelling ('Mars' beside 'mars').
        same_word = {row[0] for row in query_words(conn, word)[0]} | set(ids)
        distinct = [s for s in rows.word_synsets(conn, sorted(same_word)) if s not in query_senses]
        if not distinct:
            continue  # no meaning of its own to pun on
        if gloss is not None:
            distinct = _in_sense_order(corpus, word, distinct)
        senses: list[Data] = []
        matches: set[str] = set()
        for synset in distinct[:MAX_PUN_SENSES]:
            text_of = gloss(synset) if gloss is not None else None
            senses.append(
                {
                    "synset": synset,
                    **({} if text_of is None else {"gloss": clip(text_of, PUN_GLOSS_CHARS)}),
                }
            )
            if text_of is not None and context_words:
                matches |= context_words & set(_CONTEXT_WORD.findall(fold(text_of)))
        if context_words and gloss is not None and fold(word) in context_words:
            matches.add(fold(word))
        fields: Data = {"word": word, "phones": phones}
        # Empty lists are left out, as everywhere in an answer.
        if senses:
            fields["distinct_senses"] = senses
        fields["distinct_senses_total"] = len(distinct)
        if matches:
            fields["context_matches"] = sorted(matches)
        candidates.append(Pun(fields, source_id, pron_source, len(matches)))
    ranked = context is not None and gloss is not None
    if ranked:
        # Stable: equal overlap keeps frequency order.
        candidates.sort(key=lambda pun: -pun.matches)
    answer = Answer(
        min(len(candidates), limit),
        len(candidates) > limit,
        [row[1] for row in found],
        [] if phones_list else [text],
        cut,
    )
    scope = "context_ranked" if ranked else "uncontextualized"
    return fit_puns(index, base, answer, candidates[:limit], scope, MAX_RESPONSE_CHARS)


def fit_puns(
    index: RhymeIndex,
    base: Data,
    answer: Answer,
    listed: list[Pun],
    context_scope: str,
    max_chars: int,
) -> Data:
    """The pun result, its last candidates dropped until the serialised JSON fits."""
    while True:
        # Sources are cited afresh per attempt: a dropped candidate's must not stay listed.
        cited = Cited()
        puns = [_pun(index, cited, pun) for pun in listed]
        found = result(base, answer, cited, context_scope=context_scope, results=puns)
        # Characters, as the budget counts them (the JSON is UTF-8, not escaped).
        if not listed or len(to_json(found).decode()) <= max_chars:
            return found
        listed = listed[:-1]
        answer = Answer(
            answer.count - 1,
            True,
            answer.query_words,
            answer.unresolved,
            with_note(answer.cut, "pun candidates dropped to fit the response size budget"),
        )


def _pun(index: RhymeIndex, cited: Cited, pun: Pun) -> Data:
    # Its senses come from the source of its spelling (the lexical data's headword).
    return {
        **pun.fields,
        "spelling_source": index.source(cited, pun.spelling_source),
        "pronunciation_source": index.source(cited, pun.pron_source),
    }
