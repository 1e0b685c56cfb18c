"""An immutable, searchable view of one version of the glossary file.

Normalized terms and descriptions are joined into two newline-separated strings, so a
substring test over every entry is one C-level `str.find` scan instead of a Python loop
over entries; a match offset maps back to its entry by binary search. Normalized text
never contains a newline (whitespace is collapsed), so a match cannot span two entries.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from functools import cached_property, lru_cache

from lexicon_server.glossary.fileformat import ParsedFile
from lexicon_server.glossary.model import Entry, FindHit, MapItem
from lexicon_server.glossary.normalize import normalize

__all__ = ["MAX_QUERY_WORDS", "Snapshot"]

MAX_QUERY_WORDS = 64

# Up to this many entries, one scan per term beats loading numpy for the full map.
_SCAN_LIMIT = 300

# Match kinds, best first; the order is the ranking the glossary promises.
_EXACT_TERM, _TERM_CONTAINS, _EXACT_DESCRIPTION, _DESCRIPTION_CONTAINS = 4, 3, 2, 1


# After a write all but one description are the same strings as before; remembering their
# normalized form makes the next snapshot's search structures cheaper to build.
_normalize_description = lru_cache(maxsize=1 << 15)(normalize)


class _Blob:
    """Many strings joined by newlines, with the start offset of each."""

    __slots__ = ("starts", "text")

    def __init__(self, parts: Sequence[str]) -> None:
        self.text = "\n".join(parts)
        starts: list[int] = []
        offset = 0
        for part in parts:
            starts.append(offset)
            offset += len(part) + 1
        self.starts = starts

    def containing(self, needle: str) -> list[int]:
        """Indexes of the parts that contain `needle`, ascending."""
        found: list[int] = []
        text, starts = self.text, self.starts
        last = len(starts) - 1
        pos = text.find(needle)
        while pos != -1:
            index = bisect_right(starts, pos) - 1
            found.append(index)
            if index == last:
                break
            pos = text.find(needle, starts[index + 1])  # one hit per part is enough
        return found


class _TokenIndex:
    """Which parts contain a needle, found through the distinct words of all parts.

    A needle without spaces occurs in a part exactly when it occurs inside one of the
    part's words, so scanning the joined distinct words (far shorter than the joined
    parts) and merging their posting lists gives the answer. A needle with spaces is
    narrowed to the parts that have each of its pieces, then confirmed on the text.
    """

    __slots__ = ("parts", "postings", "words")

    def __init__(self, parts: Sequence[str]) -> None:
        postings: dict[str, list[int]] = {}
        for index, part in enumerate(parts):
            for word in set(part.split(" ")):
                postings.setdefault(word, []).append(index)
        self.parts = parts
        self.words = _Blob(list(postings))
        self.postings = list(postings.values())

    def _with_piece(self, piece: str) -> set[int]:
        found: set[int] = set()
        for word in self.words.containing(piece):
            found.update(self.postings[word])
        return found

    def containing(self, needle: str) -> list[int]:
        """Indexes of the parts that contain `needle`, ascending."""
        pieces = needle.split(" ")
        if len(pieces) == 1:
            return sorted(self._with_piece(needle))
        candidates: set[int] | None = None
        for piece in sorted(set(pieces), key=len, reverse=True):  # longest: fewest hits
            found = self._with_piece(piece)
            candidates = found if candidates is None else candidates & found
            if not candidates:
                return []
        return sorted(i for i in candidates or () if needle in self.parts[i])


class Snapshot:
    """One parsed version of the file plus the look-up structures built from it."""

    def __init__(self, parsed: ParsedFile) -> None:
        self.parsed = parsed
        self.entries: tuple[Entry, ...] = tuple(parsed.entries)
        # entry index -> position among the file's lines (blank lines have no entry)
        self.entry_lines = tuple(i for i, line in enumerate(parsed.lines) if line.entry is not None)
        self.terms_norm = tuple(normalize(e.term) for e in self.entries)
        self.by_term = {norm: i for i, norm in enumerate(self.terms_norm)}
        self._mentions: tuple[tuple[int, ...], ...] | None = None
        self._mentions_lock = threading.Lock()
        self._map_items: tuple[MapItem, ...] | None = None  # the full map, built once

    # Search structures are built on first use: a write makes a new snapshot, and the
    # next write needs only `by_term`. (Two threads may build one twice; same result.)

    @cached_property
    def descriptions_norm(self) -> tuple[str, ...]:
        return tuple(_normalize_description(e.description) for e in self.entries)

    @cached_property
    def by_description(self) -> dict[str, list[int]]:
        found: dict[str, list[int]] = {}
        for i, norm in enumerate(self.descriptions_norm):
            found.setdefault(norm, []).append(i)
        return found

    @cached_property
    def _terms(self) -> _Blob:
        return _Blob(self.terms_norm)

    @cached_property
    def _descriptions(self) -> _Blob:
        return _Blob(self.descriptions_norm)

    @cached_property
    def _description_words(self) -> _TokenIndex:
        return _TokenIndex(self.descriptions_norm)

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, term: str) -> Entry | None:
        index = self.by_term.get(normalize(term))
        return None if index is None else self.entries[index]

    def find(self, query: str, max_results: int) -> list[FindHit]:
        """Rank entries against the whole query and each of its words (see docs/glossary.md)."""
        whole = normalize(query)
        if not whole:
            return []
        words = list(dict.fromkeys(whole.split()))[:MAX_QUERY_WORDS]
        whole_kind = self._kinds(whole)
        word_kinds = [self._kinds(word) for word in words]
        scores: dict[int, int] = {}
        for index in set(whole_kind).union(*word_kinds):
            matched = [kinds[index] for kinds in word_kinds if index in kinds]
            # Tiers never overlap: at most 64 words, each worth at most 4 points.
            scores[index] = (
                whole_kind.get(index, 0) * 1_000_000 + len(matched) * 1_000 + sum(matched)
            )
        ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
        return [FindHit(self.entries[i], score) for i, score in ranked[:max_results]]

    def _kinds(self, needle: str) -> dict[int, int]:
        """The best match kind of `needle` for every entry it matches."""
        kinds: dict[int, int] = {}
        for index in self._description_words.containing(needle):
            kinds[index] = _DESCRIPTION_CONTAINS
        for index in self.by_description.get(needle, ()):
            kinds[index] = _EXACT_DESCRIPTION
        for index in self._terms.containing(needle):
            kinds[index] = _TERM_CONTAINS
        exact = self.by_term.get(needle)
        if exact is not None:
            kinds[exact] = _EXACT_TERM
        return kinds

    def mentioned_in(self, index: int) -> tuple[int, ...]:
        """Entries, in file order, whose description contains term `index` (self excluded)."""
        if self._mentions is not None:
            return self._mentions[index]
        found = self._description_words.containing(self.terms_norm[index])
        return tuple(i for i in found if i != index)

    def map(self, term: str | None = None) -> list[MapItem] | None:
        """Each term with the terms whose descriptions mention it; or only `term` (None: absent)."""
        if term is not None:
            index = self.by_term.get(normalize(term))
            if index is None:
                return None
            return [self._item(index, self.mentioned_in(index))]
        if self._map_items is None:
            mentions = self._all_mentions()
            self._map_items = tuple(self._item(i, mentions[i]) for i in range(len(self.entries)))
        return list(self._map_items)

    def _item(self, index: int, mentions: Iterable[int]) -> MapItem:
        return MapItem(self.entries[index].term, tuple(self.entries[i].term for i in mentions))

    def _all_mentions(self) -> tuple[tuple[int, ...], ...]:
        # Computed once per file version: the snapshot is immutable, so the answer is too.
        with self._mentions_lock:
            if self._mentions is None:
                if len(self.entries) <= _SCAN_LIMIT:
                    self._mentions = tuple(
                        tuple(i for i in self._descriptions.containing(norm) if i != index)
                        for index, norm in enumerate(self.terms_norm)
                    )
                else:
                    from lexicon_server.glossary.mentions import all_mentions

                    self._mentions = all_mentions(
                        self.terms_norm, self._descriptions.text, self._descriptions.starts
                    )
            return self._mentions
