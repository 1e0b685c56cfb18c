"""The glossary tools' answers cut to the response budget (query/budget.py).

`glossary_find` keeps its best results and `glossary_map` its first terms (and, for one
term, its first mentions); what is left out is said in `budget.cut`, as every tool says it.
"""

from __future__ import annotations

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
    keep = longest_prefix(len(entries), lambda n: answer_chars({**body, key: entries[:n]}), target)
    keep = max(keep, 1) if entries else 0
    left = len(entries) - keep
    if not left:
        return body, []
    note = (
        f"{key}: the last {left} of {len(entries)}{items} left out to stay within the "
        f"response budget; {ask}"
    )
    return {**body, key: entries[:keep]}, [note]


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

    keep = longest_prefix(len(words), lambda n: answer_chars(with_words(n)), target)
    left = len(words) - keep
    if not left:
        return body, []
    note = f"dictionary: the senses of the last {left} of {len(words)} words left out"
    return with_words(keep), [note]


def _drop_terms(body: dict[str, Any], target: int) -> tuple[dict[str, Any], list[str]]:
    terms = body["terms"]
    keep = longest_prefix(len(terms), lambda n: answer_chars({"terms": terms[:n]}), target)
    keep = max(keep, 1) if terms else 0  # one term stays; its mentions may be cut next
    left = len(terms) - keep
    if not left:
        return body, []
    note = (
        f"terms: the last {left} of {len(terms)} terms (in file order) left out to stay within "
        f"the response budget; the first left out is {terms[keep]['term']!r}; ask for one "
        "term with `term`"
    )
    return {**body, "terms": terms[:keep]}, [note]


def _drop_mentions(body: dict[str, Any], target: int) -> tuple[dict[str, Any], list[str]]:
    terms = body["terms"]
    if len(terms) != 1:
        return body, []
    item = terms[0]
    mentions = item["mentionedIn"]

    def with_mentions(n: int) -> dict[str, Any]:
        return {**body, "terms": [{**item, "mentionedIn": mentions[:n]}]}

    keep = longest_prefix(len(mentions), lambda n: answer_chars(with_mentions(n)), target)
    left = len(mentions) - keep
    if not left:
        return body, []
    note = (
        f"mentionedIn of {item['term']!r}: the last {left} of {len(mentions)} terms (in file "
        "order) left out to stay within the response budget"
    )
    return with_mentions(keep), [note]
