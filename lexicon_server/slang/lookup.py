"""`lookup`: every meaning of one phrase from the configured sources."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Unpack

from lexicon_server.slang.definitions import Definition
from lexicon_server.slang.errors import MeaningSourceError
from lexicon_server.slang.online import SortBy
from lexicon_server.slang.phrases import check_phrase
from lexicon_server.slang.sources import MeaningSources, SourceArguments, check_limit

__all__ = ["LookupResult", "lookup"]


@dataclass(frozen=True)
class LookupResult:
    term: str
    definitions: tuple[Definition, ...]
    sources: tuple[str, ...]  # the sources consulted, in order


def lookup(
    term: str,
    *,
    limit: int = 3,
    sort_by: SortBy = "api",
    sources: MeaningSources | None = None,
    **given: Unpack[SourceArguments],
) -> LookupResult:
    """Meanings of `term` (up to `limit` per source); raises if any source fails.

    `sort_by` orders the online provider's answers: its own order (`api`) or by votes.
    Without `sources`, `given` names them (corpus, glossary, online, config, language).
    """
    check_phrase(term, "term")
    check_limit(limit)
    if sources is None:
        sources = MeaningSources.build(**given)
    sources.require_any()
    found, errors = sources.gather(term, limit, sort_by)
    if errors:
        raise MeaningSourceError("lookup", "; ".join(errors))
    return LookupResult(term, tuple(found), sources.names)
