"""dictionary_semantic_neighbors: nearest words in vector space, scoped by language.

No `target_language` searches every installed vector language (global); the source's
own tag searches that language only (monolingual); another tag searches that language
with the source word's vector (cross-lingual). The result lists the languages actually
searched and whether the search covered fewer vector languages than the corpus has.

Each language's HNSW index is memory-mapped (usearch `view`), over-fetched, and the
candidates are re-ranked by exact cosine from the memory-mapped float16 matrix, so
scores are exact and nothing is loaded whole.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from lexicon_server.corpus.reader import CapabilityUnavailable
from lexicon_server.models import SemanticResult
from lexicon_server.query.common import (
    Cited,
    Cuts,
    check_limit,
    check_text,
    corpus_language,
    normalize,
    sources,
)

if TYPE_CHECKING:
    import sqlite3

    import numpy as np

    from lexicon_server.corpus.reader import Corpus

__all__ = ["OVERFETCH", "VectorStore", "semantic_data", "semantic_neighbors"]

# Candidates fetched from the approximate index per result wanted, before exact re-ranking.
OVERFETCH = 4
_MIN_FETCH = 40
# How hard the HNSW search looks: higher is slower and closer to exact.
_EXPANSION_SEARCH = 128


class _Vectors:
    """One language's vocabulary, float16 matrix (mmap) and HNSW index (mmap)."""

    def __init__(self, corpus: Corpus, language: str) -> None:
        import numpy as np
        from usearch.index import Index

        self.language = language
        self.conn: sqlite3.Connection = corpus.db(language, "semantic")
        self.matrix: np.ndarray[Any, Any] = np.load(
            corpus.path(f"{language}/semantic.f16.npy"), mmap_mode="r"
        )
        index = Index.restore(
            str(corpus.path(f"{language}/semantic.usearch")),
            view=True,
            expansion_search=_EXPANSION_SEARCH,
        )
        if index is None:
            raise RuntimeError(f"{language}/semantic.usearch is not a usearch index")
        self.index = index
        self.sources = sources(self.conn)

    def find(self, norm: str) -> tuple[int, int] | None:
        """(row, source_id) of the most frequent vocabulary item spelled `norm`."""
        row = self.conn.execute(
            "SELECT id, source_id FROM vocab WHERE norm = ? ORDER BY zipf DESC, id LIMIT 1",
            (norm,),
        ).fetchone()
        return (int(row[0]), int(row[1])) if row else None

    def search(
        self, query: np.ndarray[Any, Any], count: int, exclude: int | None
    ) -> list[tuple[int, float]]:
        """Top `count` (row, exact cosine) pairs, excluding `exclude`."""
        import numpy as np

        fetch = min(len(self.index), max(_MIN_FETCH, count * OVERFETCH) + 1)
        if fetch <= 0:
            return []
        matches = self.index.search(query, fetch, threads=1)
        keys = np.asarray(matches.keys, dtype=np.int64)
        if exclude is not None:
            keys = keys[keys != exclude]
        if keys.size == 0:
            return []
        keys.sort()  # ascending rows read the memory map sequentially
        scores = self.matrix[keys].astype(np.float32) @ query
        order = np.argsort(-scores, kind="stable")[:count]
        return [(int(keys[i]), float(scores[i])) for i in order]

    def texts(self, rows: list[int]) -> dict[int, tuple[str, int]]:
        if not rows:
            return {}
        marks = ",".join("?" * len(rows))
        return {
            int(r[0]): (str(r[1]), int(r[2]))
            for r in self.conn.execute(
                f"SELECT id, text, source_id FROM vocab WHERE id IN ({marks})", rows
            )
        }


class VectorStore:
    """Opens each language's vectors once, on first use, and keeps them for the process."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self._open: dict[str, _Vectors] = {}
        self._lock = threading.Lock()

    def get(self, language: str) -> _Vectors:
        self.corpus.require(language, "semantic")
        with self._lock:
            vectors = self._open.get(language)
            if vectors is None:
                vectors = _Vectors(self.corpus, language)
                self._open[language] = vectors
            return vectors

    def close(self) -> None:
        """Forget the open vectors (the corpus closes their database connections)."""
        with self._lock:
            self._open.clear()

    def vector_languages(self) -> tuple[list[str], dict[str, str]]:
        """(installed vector languages, {other vector languages of the corpus: reason})."""
        selection = self.corpus.selection
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
) -> SemanticResult:
    """Nearest neighbours of `word`'s vector, by exact cosine after HNSW retrieval."""
    return SemanticResult.model_validate(
        semantic_data(store, word, language, target_language, limit)
    )


def semantic_data(
    store: VectorStore,
    word: str,
    language: str = "en",
    target_language: str | None = None,
    limit: int = 10,
) -> dict[str, Any]:
    """`semantic_neighbors(...).model_dump(mode="json")`, for the tool: the MCP SDK
    validates the structured content against `SemanticResult` itself. (At most 100 short
    neighbours: always within the response budget.)"""
    import numpy as np

    word = check_text("word", word)
    language = corpus_language(store.corpus, "language", language)
    target = (
        None
        if target_language is None
        else corpus_language(store.corpus, "target_language", target_language)
    )
    limit = check_limit("limit", limit)
    corpus = store.corpus
    source = store.get(language)  # raises CapabilityUnavailable with the reason
    installed, skipped = store.vector_languages()
    if target is None:
        scope = "global"
        searched = installed
        not_searched = skipped
    elif target == language:
        scope = "monolingual"
        searched = [language]
        not_searched = {}
    else:
        scope = "cross_lingual"
        store.get(target)
        searched = [target]
        not_searched = {}
    cuts = Cuts()
    cited = Cited()
    hit = source.find(normalize(word))
    neighbors: list[dict[str, Any]] = []
    if hit is not None:
        row, _ = hit
        query = np.asarray(source.matrix[row], dtype=np.float32)
        norm = float(np.linalg.norm(query))
        if norm > 0:
            query /= norm
        ranked: list[tuple[float, str, int]] = []
        for lang in searched:
            try:
                vectors = store.get(lang)
            except CapabilityUnavailable:
                continue
            exclude = row if lang == language else None
            for r, score in vectors.search(query, limit, exclude):
                ranked.append((score, lang, r))
        ranked.sort(key=lambda item: -item[0])
        ranked = ranked[:limit]
        by_lang: dict[str, list[int]] = {}
        for _, lang, r in ranked:
            by_lang.setdefault(lang, []).append(r)
        opened = {lang: store.get(lang) for lang in by_lang}
        texts = {lang: vectors.texts(by_lang[lang]) for lang, vectors in opened.items()}
        tables = {lang: vectors.sources for lang, vectors in opened.items()}
        for score, lang, r in ranked:
            text, source_id = texts[lang][r]
            neighbors.append(
                {
                    "text": text,
                    "language": lang,
                    "score": round(score, 6),
                    "source": cited.key(tables[lang], source_id),
                    "sense_scope": "unsensed",
                }
            )
    budget = cuts.budget()
    return {
        "word": word,
        "language": language,
        "target_language": target,
        "scope": scope,
        "searched_languages": searched,
        "restricted": bool(not_searched),
        "not_searched": not_searched,
        "dataset_version": corpus.dataset_version,
        "found": hit is not None,
        "count": len(neighbors),
        "method": f"usearch HNSW (over-fetch x{OVERFETCH}) + exact float16 cosine re-rank",
        "neighbors": neighbors,
        "sources": cited.sources(),
        "budget": {"max_chars": budget.max_chars, "cut": list(budget.cut)},
    }
