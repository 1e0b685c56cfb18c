"""Provenance: the sources one result cites (the `sources` table is read by
`corpus.rows.facts.sources`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lexicon_server.models import Resolution

if TYPE_CHECKING:
    from lexicon_server.corpus.rows.facts import SourceTable

__all__ = ["Cited", "as_written", "cited_by", "resolution_chars", "resolution_data"]


class Cited:
    """The sources one result names: `key()` gives a fact's source key and remembers the
    source, `sources()` is the result's `sources` map. One instance per result; it can
    take source ids from several databases (keys are the same across a release)."""

    __slots__ = ("_used",)

    def __init__(self) -> None:
        self._used: dict[str, str] = {}

    def key(self, table: SourceTable, source_id: int) -> str:
        key = table.keys[source_id]
        if key not in self._used:
            self._used[key] = table.infos[source_id]
        return key

    def merge(self, infos: Mapping[str, str]) -> None:
        """Add sources another part of the query already cited (e.g. `Headwords.sources`)."""
        for key, info in infos.items():
            self._used.setdefault(key, info)

    def sources(self) -> dict[str, str]:
        return dict(sorted(self._used.items()))


def cited_by(resolutions: Iterable[Resolution], cited: Cited) -> dict[str, str]:
    """The sources of the resolutions kept (a dropped one's source is not cited)."""
    used = {r.source for r in resolutions if r.source}
    return {key: info for key, info in cited.sources().items() if key in used}


def as_written(word: str, resolutions: Sequence[Resolution]) -> bool:
    """Whether `word` was found as written: one exact match whose lemma is the word. A
    result then leaves its `resolutions` out (the common case says nothing new)."""
    return len(resolutions) == 1 and resolutions[0].via == "exact" and resolutions[0].lemma == word


def resolution_data(word: str, resolutions: Sequence[Resolution]) -> list[dict[str, Any]] | None:
    """`resolutions` of `word` as plain data, each without the details it lacks, or None
    when the word was found as written (`as_written`)."""
    if as_written(word, resolutions):
        return None
    return [r.model_dump(mode="json") for r in resolutions]


def resolution_chars(resolutions: Iterable[Resolution]) -> int:
    """The free-text characters of `resolutions`, for an answer's size bound."""
    return sum([len(r.lemma) + len(r.rule or "") for r in resolutions])
