"""dictionary_semantic_neighbors: nearest words in vector space, scoped by language.

No `target_language` searches every installed vector language (global); the source's
own tag searches that language only (monolingual); another tag searches that language
with the source word's vector (cross-lingual). The result lists the languages actually
searched and whether the search covered fewer vector languages than the corpus has.

Each language's HNSW index is memory-mapped (usearch `view`), over-fetched, and the
candidates are re-ranked by exact cosine from the memory-mapped float16 matrix, so
scores are exact and nothing is loaded whole. A frequent query word is searched with a
smaller HNSW expansion than a rare one (see `_FREQUENT_ZIPF`). Releases that store each
word's exact neighbours (the `neighbours` table) answer a search in the word's own
language from them, re-ranked the same way, without searching the index; the index
serves larger limits and cross-lingual search.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from lexicon_server.corpus.reader import CapabilityUnavailable, DamagedComponent
from lexicon_server.corpus.rows.facts import meta_value, sources
from lexicon_server.corpus.rows.vocab import (
    most_frequent_item,
    stored_neighbour_ids,
    vocab_texts,
)
from lexicon_server.corpus.vectors import RowFile
from lexicon_server.models import SemanticResult
from lexicon_server.query.arguments import check_limit, corpus_language, word_and_language
from lexicon_server.query.describe import description_data
from lexicon_server.query.headwords import normalize
from lexicon_server.query.provenance import Cited
from lexicon_server.query.spelled_vocabulary import MAX_SPELLED_ROWS, SpelledVocabulary
from lexicon_server.query.spelling_pattern import SpellingFilter, spelling_filter

if TYPE_CHECKING:
    import sqlite3

    import numpy as np

    from lexicon_server.corpus.reader import Corpus
    from lexicon_store.selection import ActiveSelection

__all__ = ["OVERFETCH", "VectorStore", "semantic_neighbors"]

# Candidates fetched from the approximate index per result wanted, before exact re-ranking.
OVERFETCH = 4
_MIN_FETCH = 40
# How hard the HNSW search looks: higher is slower and closer to exact. Rare words sit in
# sparser parts of the graph: on the starter's 100k English vectors, words drawn at
# random from the vocabulary (mostly rare) reach recall@10 of 0.989-0.991 at 128 and
# 0.994-0.996 at 192-256, so the default is 192 to keep a margin over 0.99.
_EXPANSION_SEARCH = 192
# A frequent word's neighbours are found with a third of that effort: words with Zipf >= 4
# (about the starter's 7,000 most frequent) keep recall@10 of 0.996-0.999 at 64 and the
# search is about twice as fast. (Tuned on English only; other languages and
# cross-lingual searches use the default.)
_FREQUENT_ZIPF = 4.0
_EXPANSION_FREQUENT = 64
_METHOD = f"usearch HNSW (over-fetch x{OVERFETCH}) + exact float16 cosine re-rank"
_METHOD_STORED = "exact neighbours stored at build time + exact float16 cosine re-rank"
_METHOD_NONE = "no search: the word has no vector in this language"
_METHOD_SPELLED = (
    "exact float16 cosine over the vocabulary words spelled like the pattern "
    "(at most the {rows:,} most frequent per language)"
)


def _derived_note(store: VectorStore, languages: list[str]) -> str:
    """What `method` says when a vector used was derived rather than trained."""
    derived = []
    for lang in dict.fromkeys(languages):
        try:
            source = store.get(lang).derived_from
        except CapabilityUnavailable:
            continue
        if source:
            derived.append(f"{lang} (from translations into {source})")
    if not derived:
        return ""
    return (
        "; derived vectors for " + ", ".join(derived) + ": each word is the frequency-weighted"
        " mean of its translations' vectors, and its neighbours are marked derived"
    )


def _method(found: bool, stored_by_language: list[bool]) -> str:
    """How the neighbours were found: from stored neighbours only when every language
    searched had them, and no search at all for a word without a vector."""
    if not found:
        return _METHOD_NONE
    return _METHOD_STORED if stored_by_language and all(stored_by_language) else _METHOD


def _verified_bytes(selection: ActiveSelection, relative: str, path: Path) -> bytes:
    """The bytes of the installed object at `path`, checked against its blake3 name.

    usearch trusts the graph it loads: an index with bytes overwritten in place (the
    same size, so the start-up check passes) loaded here and then crashed the process
    (SIGSEGV) or hung in its first search. Objects are named by their digest
    (`objects/blake3/ab/<hex>`), so the bytes read once are hashed (a few milliseconds
    for the starter's 20 MB index) and loaded from memory only when they match."""
    import blake3

    data = path.read_bytes()
    if len(path.name) == 64 and path.parent.parent.name == "blake3":
        digest = blake3.blake3(data, max_threads=blake3.blake3.AUTO).hexdigest()
        if digest != path.name:
            raise DamagedComponent(
                selection, relative, f"has other bytes than installed (blake3 {digest[:12]}…)"
            )
    return data


class _Vectors:
    """One language's vocabulary, float16 matrix (mmap) and HNSW index (mmap)."""

    def __init__(self, corpus: Corpus, language: str) -> None:
        from usearch.index import Index

        self.language = language
        self.conn: sqlite3.Connection = corpus.db(language, "semantic")
        selection = corpus.selection
        # Rows are read with pread, not mapped: a truncated file then fails one call
        # instead of killing the process with SIGBUS (see corpus/vectors.py).
        matrix = f"{language}/semantic.f16.npy"
        relative = f"{language}/semantic.usearch"
        index_path = corpus.path(relative)  # raises the damage found at start-up
        corpus.path(matrix)
        self.matrix = RowFile(selection, matrix)
        # Loaded into memory (view=False) for the same reason: a mapped index that is
        # truncated under the server would SIGBUS inside usearch. The starter's English
        # index is 20 MB.
        try:
            index = Index.restore(
                _verified_bytes(selection, relative, index_path),
                view=False,
                expansion_search=_EXPANSION_SEARCH,
            )
        except DamagedComponent:
            self.matrix.close()
            raise
        except Exception as exc:  # whatever usearch raises on a file it cannot load
            self.matrix.close()
            raise DamagedComponent(selection, relative, f"cannot be loaded ({exc})") from None
        if index is None:
            self.matrix.close()
            raise DamagedComponent(selection, relative, "is not a usearch index")
        self.index = index
        self.size = len(index)
        # How many exact neighbours the release stores per word (0: none).
        stored = meta_value(self.conn, "neighbours")
        self.stored = int(stored) if stored is not None else 0
        # Vectors derived from translations into another language's space (derived_vectors).
        self.derived_from = meta_value(self.conn, "derived_from")
        # The expansion is a setting of the index, not of one search: it is set and used
        # under this lock.
        self._search_lock = threading.Lock()
        self.sources = sources(self.conn)
        self._spelled: SpelledVocabulary | None = None

    def find(self, norm: str) -> tuple[int, int, float] | None:
        """(row, source_id, zipf) of the most frequent vocabulary item spelled `norm`."""
        return most_frequent_item(self.conn, norm)

    def stored_neighbours(self, row: int, count: int) -> np.ndarray[Any, Any] | None:
        """The exact neighbours the release stores for vocabulary row `row` (itself
        excluded), when it stores at least `count` per word and has a row for `row`."""
        import numpy as np

        if count > self.stored:
            return None
        found = stored_neighbour_ids(self.conn, row)
        return None if found is None else np.frombuffer(found, dtype="<i4").astype(np.int64)

    def search(
        self,
        query: np.ndarray[Any, Any],
        count: int,
        exclude: int | None,
        expansion: int = _EXPANSION_SEARCH,
    ) -> tuple[list[tuple[int, float]], bool]:
        """Top `count` (row, exact cosine) pairs, excluding `exclude` (the query word's own
        row, when it is in this language), and whether they came from the stored exact
        neighbours of `exclude` rather than the index; `expansion` is how hard the HNSW
        search looks (see `expansion_for`)."""
        import numpy as np

        keys = None if exclude is None else self.stored_neighbours(exclude, count)
        stored = keys is not None
        if keys is None:
            fetch = min(self.size, max(_MIN_FETCH, count * OVERFETCH) + 1)
            if fetch <= 0:
                return [], False
            with self._search_lock:
                if self.index.expansion_search != expansion:
                    # usearch defines this setter out of order, which mypy misreads as none.
                    self.index.expansion_search = expansion  # type: ignore[misc]
                matches = self.index.search(query, fetch, threads=1)
            keys = np.asarray(matches.keys, dtype=np.int64)
            if exclude is not None:
                keys = keys[keys != exclude]
        if keys.size == 0:
            return [], stored
        keys.sort()  # ascending rows read the memory map sequentially
        scores = self.matrix.rows(keys).astype(np.float32) @ query
        order = (-scores).argsort(kind="stable")[:count]
        return list(zip(keys[order].tolist(), scores[order].tolist(), strict=True)), stored

    def spelled_search(
        self, query: np.ndarray[Any, Any], count: int, exclude: int | None, pattern: str
    ) -> list[tuple[int, float]]:
        """Top `count` (row, exact cosine) pairs among the first MAX_SPELLED_ROWS rows
        spelled like `pattern`, excluding `exclude`."""
        import numpy as np

        if self._spelled is None:
            self._spelled = SpelledVocabulary(self.conn)  # a race makes it twice, harmlessly
        rows = self._spelled.matching(pattern, MAX_SPELLED_ROWS + 1)
        keys = np.asarray([row for row in rows if row != exclude][:MAX_SPELLED_ROWS], np.int64)
        if keys.size == 0:
            return []
        scores = self.matrix.rows(keys).astype(np.float32) @ query
        order = (-scores).argsort(kind="stable")[:count]
        return list(zip(keys[order].tolist(), scores[order].tolist(), strict=True))

    @staticmethod
    def expansion_for(zipf: float) -> int:
        """The HNSW expansion for a query word of this frequency in its own language."""
        return _EXPANSION_FREQUENT if zipf >= _FREQUENT_ZIPF else _EXPANSION_SEARCH

    def close(self) -> None:
        """Close the matrix file (the corpus closes the database connection)."""
        self.matrix.close()

    def texts(self, rows: list[int]) -> dict[int, tuple[str, int]]:
        return vocab_texts(self.conn, rows)


class VectorStore:
    """Opens each language's vectors once, on first use, and keeps them for the process."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self._lock = threading.Lock()
        # vector_languages() for one selection: (the selection, its answer).
        self._languages: tuple[object, tuple[list[str], dict[str, str]]] | None = None

    def get(self, language: str) -> _Vectors:
        self.corpus.require(language, "semantic")
        # Kept with the selection's other handles, so a new selection opens its own
        # vectors and the old ones are closed with it.
        opened = self.corpus.cache("vectors")
        vectors = opened.get(language)
        if vectors is not None:
            return cast("_Vectors", vectors)
        with self._lock:
            vectors = opened.get(language)
            if vectors is None:
                vectors = _Vectors(self.corpus, language)
                opened[language] = vectors
            return cast("_Vectors", vectors)

    def derived_from(self, language: str) -> str | None:
        """The language `language`'s vectors were derived from (None: trained ones), read
        from its vocabulary database: a global search skips derived languages without
        loading their indexes."""
        self.corpus.require(language, "semantic")
        return meta_value(self.corpus.db(language, "semantic"), "derived_from")

    def close(self) -> None:
        """Nothing to do: the corpus closes the vectors with the selection they belong to."""

    def vector_languages(self) -> tuple[list[str], dict[str, str]]:
        """(installed vector languages, {other vector languages of the corpus: reason}).

        The answer is the same for every call on one selection, so it is worked out once
        per selection; callers get copies they may keep."""
        selection = self.corpus.selection
        cached = self._languages
        if cached is None or cached[0] is not selection:
            cached = (selection, self._vector_languages(selection))
            self._languages = cached
        searched, skipped = cached[1]
        return list(searched), dict(skipped)

    @staticmethod
    def _vector_languages(selection: ActiveSelection) -> tuple[list[str], dict[str, str]]:
        searched: list[str] = []
        skipped: dict[str, str] = {}
        for language in sorted(selection.catalogue):
            if "semantic" not in selection.catalogue[language]:
                continue
            reason = selection.availability(language, "semantic")
            if reason is None:
                searched.append(language)
            else:
                skipped[language] = reason
        return searched, skipped


def semantic_neighbors(
    store: VectorStore,
    word: str,
    language: str = "en",
    target_language: str | None = None,
    limit: int = 10,
    pattern: str | None = None,
) -> SemanticResult:
    """Nearest neighbours of `word`'s vector, by exact cosine after HNSW retrieval; with
    `pattern`, the nearest of the words spelled so (before `limit` is applied). (At most
    100 short neighbours: always within the response budget, so nothing is ever cut.)"""
    corpus = store.corpus
    word, language = word_and_language(corpus, word, language)
    target = (
        None
        if target_language is None
        else corpus_language(corpus, "target_language", target_language)
    )
    limit = check_limit("limit", limit)
    spelled = spelling_filter(pattern)
    if target in (None, language):
        # A phrase or description answers with the words it describes (describe.py).
        described = description_data(store, word, language, limit, spelled)
        if described is not None:
            return SemanticResult.model_validate(described)
    source = store.get(language)  # raises CapabilityUnavailable with the reason
    scope, searched, not_searched = _scope(store, language, target)
    cited = Cited()
    hit = source.find(normalize(word))
    neighbors: list[dict[str, Any]] = []
    stored_by_language: list[bool] = []  # per language searched: from stored neighbours?
    if hit is not None:
        ranked = _search(store, source, hit, language, searched, limit, stored_by_language, spelled)
        neighbors = _neighbors(store, ranked, language, cited)
    data: dict[str, Any] = {"word": word, "language": language}
    if target is not None:
        data["target_language"] = target
    data["scope"] = scope
    data["searched_languages"] = searched
    if not_searched:
        data["restricted"] = True
        data["not_searched"] = not_searched
    data["dataset_version"] = corpus.dataset_version
    data["found"] = hit is not None
    method = _method(hit is not None, stored_by_language)
    if hit is not None and spelled is not None:
        method = _METHOD_SPELLED.format(rows=MAX_SPELLED_ROWS)
    data["method"] = method + _derived_note(store, [language, *searched])
    data["neighbors"] = neighbors
    data["sources"] = cited.sources()
    # `cut` is left out: nothing is ever cut (see the result model).
    return SemanticResult.model_validate(data)


def _scope(
    store: VectorStore, language: str, target: str | None
) -> tuple[str, list[str], dict[str, str]]:
    """The search's scope, the languages it searches and those it could not (by reason)."""
    if target is None:
        searched, not_searched = store.vector_languages()
        # Derived vectors copy their translations' (a word whose one translation is 'king'
        # sits on king's vector), so a global search would be flooded by other languages'
        # copies of the word asked: it searches trained vectors and the word's own
        # language; a derived language is searched when named as target_language.
        searched = [lang for lang in searched if lang == language or not store.derived_from(lang)]
        return "global", searched, not_searched
    if target == language:
        return "monolingual", [language], {}
    store.get(target)
    return "cross_lingual", [target], {}


def _search(
    store: VectorStore,
    source: _Vectors,
    hit: tuple[int, Any, float],
    language: str,
    searched: list[str],
    limit: int,
    stored_by_language: list[bool],
    spelled: SpellingFilter | None,
) -> list[tuple[float, str, int]]:
    """(score, language, row) of the best `limit` neighbours of the word's vector over
    the `searched` languages (spelled like `spelled`'s pattern, if any); records per
    language whether stored neighbours served."""
    import numpy as np

    row, _, zipf = hit
    query = source.matrix.row(row).astype(np.float32)
    # np.linalg.norm's own arithmetic for a vector (float32 dot, then sqrt), without
    # its argument handling.
    norm = float(np.sqrt(query.dot(query)))
    if norm > 0:
        query /= norm
    ranked: list[tuple[float, str, int]] = []
    for lang in searched:
        try:
            vectors = store.get(lang)
        except CapabilityUnavailable:
            continue
        # The frequency tier was measured within one language's vectors only.
        own = lang == language
        exclude = row if own else None
        expansion = vectors.expansion_for(zipf) if own else _EXPANSION_SEARCH
        if spelled is not None:
            found, stored = vectors.spelled_search(query, limit, exclude, spelled.pattern), False
        else:
            found, stored = vectors.search(query, limit, exclude, expansion)
        stored_by_language.append(stored)
        for r, score in found:
            ranked.append((score, lang, r))
    if len(searched) > 1:
        ranked.sort(key=lambda item: -item[0])
        ranked = ranked[:limit]
    return ranked


def _neighbors(
    store: VectorStore, ranked: list[tuple[float, str, int]], language: str, cited: Cited
) -> list[dict[str, Any]]:
    """The `ranked` rows as the result's neighbours, their words read in one batch per
    language."""
    by_lang: dict[str, list[int]] = {}
    for _, lang, r in ranked:
        by_lang.setdefault(lang, []).append(r)
    opened = {lang: store.get(lang) for lang in by_lang}
    texts = {lang: vectors.texts(by_lang[lang]) for lang, vectors in opened.items()}
    tables = {lang: vectors.sources for lang, vectors in opened.items()}
    neighbors: list[dict[str, Any]] = []
    for score, lang, r in ranked:
        text, source_id = texts[lang][r]
        # A neighbour names its language only where it is not the word's (see Neighbor).
        neighbor: dict[str, Any] = (
            {"text": text} if lang == language else {"text": text, "language": lang}
        )
        neighbor["score"] = round(score, 6)
        neighbor["source"] = cited.key(tables[lang], source_id)
        if opened[lang].derived_from:
            neighbor["derived"] = True
        neighbors.append(neighbor)
    return neighbors
