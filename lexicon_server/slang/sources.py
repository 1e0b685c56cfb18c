"""Where meanings come from, in order: corpus, project glossary, then (opt-in) online."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypedDict

from lexicon_server.slang.corpus_source import LexicalCorpus, corpus_definitions
from lexicon_server.slang.definitions import Definition
from lexicon_server.slang.errors import MeaningSourceError, SlangError, SlangInputError
from lexicon_server.slang.glossary_source import ProjectGlossary
from lexicon_server.slang.offline_source import slang_definitions
from lexicon_server.slang.online import SortBy, UrbanDictionary

if TYPE_CHECKING:
    from lexicon_server.config import ServerConfig

__all__ = [
    "MAX_LIMIT",
    "ORDERS",
    "Gathered",
    "MeaningSources",
    "Order",
    "SourceArguments",
    "check_limit",
]

MAX_LIMIT = 10  # meanings per source per phrase

# auto: slang meanings first when the phrase is marked as slang (docs/slang.md); slang:
# the caller marks every phrase; source: each source's own order, sources in turn.
Order = Literal["auto", "slang", "source"]
ORDERS: tuple[Order, ...] = ("auto", "slang", "source")


class SourceArguments(TypedDict, total=False):
    """The library's friendly arguments naming a call's meaning sources, as `lookup` and
    `interpret` take them (see `MeaningSources.build`)."""

    corpus: LexicalCorpus | None
    glossary: ProjectGlossary | Path | str | None
    online: UrbanDictionary | bool
    config: ServerConfig | None
    language: str


@dataclass(frozen=True)
class Gathered:
    definitions: list[Definition]
    errors: list[str]  # one message per source that failed
    marked: bool  # a slang source lists the phrase, or a corpus sense has a register label


def check_limit(limit: object) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise SlangInputError(
            "limit", f"must be a whole number from 1 to {MAX_LIMIT}, got {limit!r}"
        )
    return limit


@dataclass(frozen=True)
class MeaningSources:
    """The meaning sources one call may consult; `None` leaves a source out."""

    corpus: LexicalCorpus | None = None
    glossary: ProjectGlossary | None = None
    online: UrbanDictionary | None = None
    language: str = "en"

    @classmethod
    def build(
        cls,
        *,
        corpus: LexicalCorpus | None = None,
        glossary: ProjectGlossary | Path | str | None = None,
        online: UrbanDictionary | bool = False,
        config: ServerConfig | None = None,
        language: str = "en",
    ) -> MeaningSources:
        """Turn the library's friendly arguments into sources; `online=True` reads the config."""
        if isinstance(glossary, str | Path):
            glossary = ProjectGlossary(Path(glossary))
        provider: UrbanDictionary | None
        if online is True:
            if config is None:
                from lexicon_server.config import load_config

                config = load_config()
            provider = UrbanDictionary.from_config(config)
        else:
            provider = online or None
        return cls(corpus, glossary, provider, language)

    @property
    def names(self) -> tuple[str, ...]:
        present = (
            ("corpus", self.corpus),
            ("glossary", self.glossary),
            ("urban_dictionary", self.online),
        )
        return tuple(name for name, source in present if source is not None)

    def require_any(self) -> None:
        if not self.names:
            raise SlangError(
                "no meaning source to consult: pass corpus=open_corpus(), glossary=PATH or "
                "online=True (the server always passes its corpus)"
            )

    def gather(
        self, phrase: str, limit: int, sort_by: SortBy = "api"
    ) -> tuple[list[Definition], list[str]]:
        """Meanings from every source (ordered as `order="auto"`), and the failures."""
        got = self.collect(phrase, limit, sort_by)
        return got.definitions, got.errors

    def collect(
        self, phrase: str, limit: int, sort_by: SortBy = "api", order: Order = "auto"
    ) -> Gathered:
        """Meanings from every source in `order`, the failures, and whether it is marked."""
        found: list[Definition] = []
        errors: list[str] = []
        marked = False
        steps: list[Callable[[], list[Definition]]] = []
        if self.corpus is not None:
            corpus = self.corpus
            steps.append(lambda: corpus_definitions(corpus, phrase, limit, self.language))

            def offline() -> list[Definition]:
                nonlocal marked
                got = slang_definitions(corpus, phrase, limit, self.language)
                marked = got.marked
                return list(got.definitions)

            steps.append(offline)
        if self.glossary is not None:
            glossary = self.glossary
            steps.append(lambda: glossary.definitions(phrase, limit))
        if self.online is not None:
            online = self.online
            steps.append(lambda: online.define(phrase, limit, sort_by))
        for step in steps:
            try:
                found.extend(step())
            except MeaningSourceError as exc:
                errors.append(str(exc))
        # A register-labelled corpus sense marks the phrase too (corpus_definitions already
        # lists those first within the corpus).
        marked = marked or any(d.slang and d.kind == "sense" for d in found if d.origin == "corpus")
        if order == "slang" or (order == "auto" and marked):
            found.sort(key=lambda d: not d.slang)  # stable: source order kept within each
        return Gathered(found, errors, marked)
