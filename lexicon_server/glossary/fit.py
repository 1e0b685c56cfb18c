"""The glossary tools' answers cut to the response budget (query/budget.py).

`glossary_find` keeps its best results and `glossary_map` its first terms (and, for one
term, its first mentions); what is left out is said in `budget.cut`, as every tool says it.
"""

from __future__ import annotations

from typing import Any

from lexicon_server.query.budget import answer_chars, fit_plain, longest_prefix

__all__ = ["fit_find", "fit_map"]


def fit_find(body: dict[str, Any]) -> dict[str, Any]:
    """A `glossary_find` answer within the budget: trailing results, then the dictionary
    section's trailing words, are left out."""
    return fit_plain(body, [_drop_results, _drop_dictionary_words])


def fit_map(body: dict[str, Any]) -> dict[str, Any]:
    """A `glossary_map` answer within the budget: trailing terms are left out, and if one
    term is still too much, its trailing mentions."""
    return fit_plain(body, [_drop_terms, _drop_mentions])


def _drop_results(body: dict[str, Any], target: int) -> tuple[dict[str, Any], list[str]]:
    results = body["results"]
    keep = longest_prefix(
        len(results), lambda n: answer_chars({**body, "results": results[:n]}), target
    )
    keep = max(keep, 1) if results else 0  # the best result stays; its text may be shortened
    left = len(results) - keep
    if not left:
        return body, []
    note = (
        f"results: the last {left} of {len(results)} matching entries left out to stay within "
        "the response budget; ask with a narrower query or a smaller maxResults"
    )
    return {**body, "results": results[:keep]}, [note]


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
