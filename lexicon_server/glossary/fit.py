"""The glossary tools' answers cut to the response budget (query/budget.py).

`glossary_find` keeps its best results and `glossary_map` its first terms (and, for one
term, its first mentions); what is left out is said in `budget.cut`, as every tool says it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lexicon_server.query.budget import answer_chars, fit_plain, longest_prefix

__all__ = ["drop_trailing", "fit_find", "fit_map"]


def fit_find(body: dict[str, Any]) -> dict[str, Any]:
    """A `glossary_find` answer within the budget: trailing results, then the dictionary
    section's trailing words, are left out."""
    return fit_plain(body, [_drop_results, _drop_dictionary_words])


def fit_map(body: dict[str, Any]) -> dict[str, Any]:
    """A `glossary_map` answer within the budget: trailing terms are left out, and if one
    term is still too much, its trailing mentions."""
    return fit_plain(body, [_drop_terms, _drop_mentions])


def drop_trailing(
    body: dict[str, Any], key: str, target: int, *, items: str = "", ask: str
) -> tuple[dict[str, Any], list[str]]:
    """`body` with as many leading items of its list `key` as fit in `target` characters
    (the first always stays: its text may be shortened), and the note saying how many were
    left out (`items` names them, `ask` says how to get the rest). The slang answers'
    definitions are cut the same way."""
    entries = body[key]

    def note(_keep: int, left: int) -> str:
        return (
            f"{key}: the last {left} of {len(entries)}{items} left out to stay within the "
            f"response budget; {ask}"
        )

    return _cut(body, len(entries), lambda n: {**body, key: entries[:n]}, target, note, 1)


def _cut(
    body: dict[str, Any],
    count: int,
    with_first: Callable[[int], dict[str, Any]],
    target: int,
    note: Callable[[int, int], str],
    at_least: int = 0,
) -> tuple[dict[str, Any], list[str]]:
    """`with_first(n)`, the answer with the first n of `count` items, for the most items
    that fit in `target` characters (at least `at_least` when there are any), and the note
    `note(kept, left)`; `body` unchanged when all of them fit."""
    keep = longest_prefix(count, lambda n: answer_chars(with_first(n)), target)
    keep = min(count, max(keep, at_least))
    if keep == count:
        return body, []
    return with_first(keep), [note(keep, count - keep)]


def _drop_results(body: dict[str, Any], target: int) -> tuple[dict[str, Any], list[str]]:
    return drop_trailing(
        body,
        "results",
        target,
        items=" matching entries",
        ask="ask with a narrower query or a smaller maxResults",
    )


def _drop_dictionary_words(body: dict[str, Any], target: int) -> tuple[dict[str, Any], list[str]]:
    section = body.get("dictionary")
    if not section or not section.get("words"):
        return body, []
    words = section["words"]

    def with_words(n: int) -> dict[str, Any]:
        return {**body, "dictionary": {**section, "words": words[:n]}}

    def note(_keep: int, left: int) -> str:
        return f"dictionary: the senses of the last {left} of {len(words)} words left out"

    return _cut(body, len(words), with_words, target, note)


def _drop_terms(body: dict[str, Any], target: int) -> tuple[dict[str, Any], list[str]]:
    terms = body["terms"]

    def note(keep: int, left: int) -> str:
        return (
            f"terms: the last {left} of {len(terms)} terms (in file order) left out to stay "
            f"within the response budget; the first left out is {terms[keep]['term']!r}; ask "
            "for one term with `term`"
        )

    # One term stays; its mentions may be cut next.
    return _cut(body, len(terms), lambda n: {**body, "terms": terms[:n]}, target, note, 1)


def _drop_mentions(body: dict[str, Any], target: int) -> tuple[dict[str, Any], list[str]]:
    terms = body["terms"]
    if len(terms) != 1:
        return body, []
    item = terms[0]
    mentions = item["mentionedIn"]

    def with_mentions(n: int) -> dict[str, Any]:
        return {**body, "terms": [{**item, "mentionedIn": mentions[:n]}]}

    def note(_keep: int, left: int) -> str:
        return (
            f"mentionedIn of {item['term']!r}: the last {left} of {len(mentions)} terms (in "
            "file order) left out to stay within the response budget"
        )

    return _cut(body, len(mentions), with_mentions, target, note)
