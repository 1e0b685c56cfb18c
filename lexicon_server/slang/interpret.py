"""`interpret`: explain caller-chosen phrases where they occur in a text.

This is dictionary-assisted reading, not slang detection: the caller names the phrases,
and the meanings are listed by source order, not chosen for the sentence.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, Unpack

from lexicon_server.slang.definitions import Definition
from lexicon_server.slang.errors import SlangInputError
from lexicon_server.slang.offsets import Utf16Index
from lexicon_server.slang.phrases import (
    MAX_PHRASES,
    Span,
    check_phrase,
    check_text,
    find_occurrences,
    first_equal,
)
from lexicon_server.slang.sources import (
    ORDERS,
    MeaningSources,
    Order,
    SourceArguments,
    check_limit,
)

__all__ = ["InterpretEntry", "InterpretResult", "Status", "interpret"]

Status = Literal["found", "not_found", "not_in_text", "error"]


@dataclass(frozen=True)
class InterpretEntry:
    """One requested phrase: where it occurs, what it means, and whether the look-up worked.

    `error` is set exactly when `status == "error"`; meanings from the sources that did
    answer are kept in `definitions` even then.
    """

    term: str
    status: Status
    occurrences: tuple[Span, ...]
    definitions: tuple[Definition, ...]
    error: str | None = None
    marked_as_slang: bool = False  # see docs/slang.md, "Marked as slang"


@dataclass(frozen=True)
class InterpretResult:
    text: str
    entries: tuple[InterpretEntry, ...]
    has_errors: bool
    sources: tuple[str, ...]


def _unique_terms(terms: Iterable[str]) -> list[str]:
    if isinstance(terms, str):
        raise SlangInputError("terms", "must be a list of phrases, not a single string")
    checked = [check_phrase(t, f"terms[{i}]") for i, t in enumerate(terms)]
    if not checked:
        raise SlangInputError("terms", "must name at least one phrase to explain")
    if len(checked) > MAX_PHRASES:
        raise SlangInputError("terms", f"has {len(checked)} phrases; the limit is {MAX_PHRASES}")
    unique: list[str] = []
    for term in checked:
        if first_equal(term, unique) is None:  # first spelling wins; a repeat is not looked up
            unique.append(term)
    return unique


def interpret(
    text: str,
    terms: Iterable[str],
    limit: int = 3,
    *,
    sources: MeaningSources | None = None,
    order: Order = "auto",
    **given: Unpack[SourceArguments],
) -> InterpretResult:
    """Occurrences and meanings of each phrase in `terms`; look-up failures stay per entry.

    `order`: `auto` lists slang meanings first for a phrase marked as slang, `slang` for
    every phrase, `source` keeps each source's order. Without `sources`, `given` names
    them (corpus, glossary, online, config, language).
    """
    check_text(text)
    unique = _unique_terms(terms)
    check_limit(limit)
    if order not in ORDERS:
        raise SlangInputError("order", f"must be one of {', '.join(ORDERS)}, got {order!r}")
    if sources is None:
        sources = MeaningSources.build(**given)
    sources.require_any()
    index = Utf16Index.of(text)
    entries: list[InterpretEntry] = []
    for term in unique:
        occurrences = tuple(find_occurrences(text, term, index))
        if not occurrences:
            entries.append(InterpretEntry(term, "not_in_text", (), ()))
            continue
        got = sources.collect(term, limit, order=order)
        if got.errors:
            status: Status = "error"
        else:
            status = "found" if got.definitions else "not_found"
        entries.append(
            InterpretEntry(
                term,
                status,
                occurrences,
                tuple(got.definitions),
                "; ".join(got.errors) or None,
                got.marked,
            )
        )
    return InterpretResult(
        text, tuple(entries), any(e.status == "error" for e in entries), sources.names
    )
