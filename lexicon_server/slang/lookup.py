"""`lookup`: every meaning of one phrase from the configured sources."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lexicon_server.slang.definitions import Definition
from lexicon_server.slang.errors import MeaningSourceError
from lexicon_server.slang.glossary_source import ProjectGlossary
from lexicon_server.slang.online import SortBy, UrbanDictionary
from lexicon_server.slang.phrases import check_phrase
from lexicon_server.slang.sources import MeaningSources, check_limit

if TYPE_CHECKING:
    from lexicon_server.config import ServerConfig
    from lexicon_server.slang.corpus_source import LexicalCorpus

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
    corpus: LexicalCorpus | None = None,
    glossary: ProjectGlossary | Path | str | None = None,
    online: UrbanDictionary | bool = False,
    config: ServerConfig | None = None,
    language: str = "en",
    sources: MeaningSources | None = None,
) -> LookupResult:
    """Meanings of `term` (up to `limit` per source); raises if any source fails.

    `sort_by` orders the online provider's answers: its own order (`api`) or by votes.
    """
    check_phrase(term, "term")
    check_limit(limit)
    if sources is None:
        sources = MeaningSources.build(
            corpus=corpus, glossary=glossary, online=online, config=config, language=language
        )
    sources.require_any()
    found, errors = sources.gather(term, limit, sort_by)
    if errors:
        raise MeaningSourceError("lookup", "; ".join(errors))
    return LookupResult(term, tuple(found), sources.names)
