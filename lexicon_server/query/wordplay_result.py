"""The shape every wordplay kind's result shares: its count, cut notes and field order."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from lexicon_server.query.provenance import Cited
from lexicon_server.query.rhymes import RhymeIndex

__all__ = ["Answer", "Data", "KindCall", "result", "with_note"]

Data = dict[str, Any]


@dataclass(frozen=True)
class KindCall:
    """What a wordplay kind reads and answers into: the words database and its index, the
    sources cited so far, the asked limit and the result's first fields."""

    conn: sqlite3.Connection
    index: RhymeIndex
    cited: Cited
    limit: int
    base: Data


@dataclass
class Answer:
    """What a kind hands back before the shared result fields are added."""

    count: int
    truncated: bool
    query_words: list[str]
    unresolved: list[str]
    cut: list[str]


def result(
    base: Data,
    answer: Answer,
    cited: Cited,
    *,
    letters: str | None = None,
    input_is_palindrome: bool | None = None,
    context_scope: str | None = None,
    vocabulary: str | None = None,
    phones_from: str | None = None,
    query_phones: list[str] | None = None,
    results: list[Data],
) -> Data:
    """The whole result in `WordplayResult`'s field order, without the fields it leaves out
    when they are null or empty (as its dump has them). A pun answer says its senses'
    scope once (`sense_scope: "synset"`): every other kind's is the default, unsensed."""
    data = dict(base)
    optional = {
        "letters": letters,
        "input_is_palindrome": input_is_palindrome,
        "context_scope": context_scope,
        "vocabulary": vocabulary,
        "phones_from": phones_from,
        "query_phones": query_phones,
        "query_words": answer.query_words,
        "unresolved": answer.unresolved,
    }
    data.update(
        (key, value) for key, value in optional.items() if value is not None and value != []
    )
    data["truncated"] = answer.truncated
    if base["kind"] == "pun":
        data["sense_scope"] = "synset"
    data["results"] = results
    data["sources"] = cited.sources()
    if answer.cut:  # else left out (see the result model)
        data["cut"] = answer.cut
    return data


def with_note(cut: list[str], note: str) -> list[str]:
    return cut if note in cut else [*cut, note]
