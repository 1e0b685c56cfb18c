"""The reverse dictionary: words a phrase or short description describes
(dictionary_semantic_neighbors asked with "fear of heights"; docs/tools.md).

Three ranked lists are fused by reciprocal rank: the headwords whose definitions match the
description best by BM25 over WordNet's glosses, the same over GCIDE's (each component's
`gloss_fts`, docs/corpus-format.md), and the vocabulary nearest to the phrase's vector
(the mean of its content words' vectors) where the language has vectors. Each result
keeps the definition that matched it. A single word never comes here: it keeps the
vector neighbours it always had.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from lexicon_server.corpus.reader import GCIDE_FILE, CapabilityUnavailable
from lexicon_server.corpus.rows.facts import SourceTable, sources
from lexicon_server.corpus.rows.glosses import (
    DefinedTerm,
    defined_terms,
    document_counts,
    document_total,
    gloss_hits,
    has_gloss_index,
    headword_forms,
    match_expression,
)
from lexicon_server.corpus.rows.vocab import items_by_norm
from lexicon_server.query.headwords import normalize
from lexicon_server.query.provenance import Cited

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable

    from lexicon_server.corpus.reader import Corpus


class VectorStore(Protocol):
    """What the reverse dictionary reads of `query.semantic.VectorStore` (named here, not
    imported: semantic.py calls this module)."""

    corpus: Corpus

    def get(self, language: str) -> Any: ...


__all__ = [
    "DescribedWord",
    "Description",
    "VectorStore",
    "describe",
    "description_data",
    "description_tokens",
]

# Words of a description as FTS5's unicode61 tokenizer splits them (letters and digits).
_WORD = re.compile(r"[^\W_]+")
# At most this many words of a description are searched (the text is at most 100 chars).
MAX_WORDS = 16
# Function words left out of the search: each matches a large share of all glosses, which
# costs time and adds nothing BM25 would weigh. Negations stay ("without", "not", "cannot"):
# definitions use them ("someone who cannot sleep").
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "with",
        "as",
        "and",
        "or",
        "but",
        "if",
        "then",
        "than",
        "that",
        "this",
        "these",
        "those",
        "it",
        "its",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
        "having",
        "who",
        "whom",
        "whose",
        "which",
        "what",
        "when",
        "where",
        "why",
        "how",
        "there",
        "here",
        "so",
        "such",
        "very",
        "can",
        "could",
        "would",
        "should",
        "may",
        "might",
        "must",
        "will",
        "shall",
        "one",
        "ones",
        "something",
        "thing",
        "things",
        "kind",
        "sort",
        "type",
        "way",
        "used",
        "use",
        "using",
        "usually",
        "often",
        "much",
        "many",
        "some",
        "any",
        "each",
        "every",
        "other",
        "another",
        "into",
        "onto",
        "out",
        "up",
        "down",
        "over",
        "under",
        "about",
        "i",
        "you",
        "he",
        "she",
        "we",
        "they",
        "me",
        "him",
        "her",
        "us",
        "them",
        "my",
        "your",
        "his",
        "our",
        "their",
    ]
)

# Documents read from each gloss index, and vector neighbours of the phrase.
_GLOSS_DOCUMENTS = 48
_VECTOR_NEIGHBOURS = 40
_VECTOR_EXPANSION = 64
# The gloss candidates (best fused first) whose cosine with the description is read.
_COSINE_CANDIDATES = 80
# BM25 is scored for every document that matches, a few microseconds each: the words a
# document must hold to match are the description's rarest, as many as keep the documents
# matched under this many (the others still count in the score; `match_expression`).
_MATCH_BUDGET = 1000
# Reciprocal-rank fusion: score = sum over lists of weight / (_RRF_K + rank) ...
_RRF_K = 3
_WEIGHTS = {"lexical": 1.0, "gcide": 0.8, "vectors": 0.0}
# ... plus the cosine between the word's vector and the description's (the vectors'
# nearest words are candidates scored by this alone) ...
_COSINE = 0.33
# A multi-word headword answers a description less often than a single word.
_PHRASE_FACTOR = 0.6


@dataclass(frozen=True)
class DescribedWord:
    """One word a description describes: its written form, fused score, the source that
    found it best, and the definition that matched (None when only vectors found it)."""

    text: str
    score: float
    source: str
    gloss: str | None


@dataclass
class Description:
    """The answer to one description."""

    words: list[str]  # the content words searched
    results: list[DescribedWord] = field(default_factory=list)
    cited: Cited = field(default_factory=Cited)
    used: list[str] = field(default_factory=list)  # the lists fused, by name


def description_tokens(text: str) -> list[str] | None:
    """The words of `text` to search for, or None when `text` is one word (a single word
    keeps its vector neighbours)."""
    tokens = _WORD.findall(normalize(text))
    if len(tokens) < 2:
        return None
    content = [t for t in dict.fromkeys(tokens) if t not in STOPWORDS]
    return (content or list(dict.fromkeys(tokens)))[:MAX_WORDS]


def _expression(conn: sqlite3.Connection, words: list[str]) -> str | None:
    """The FTS5 query for `words` in one index: its rarest words required (within
    `_MATCH_BUDGET`), the others optional; None when no word is in the index."""
    counts = document_counts(conn, words)
    present = sorted((w for w in words if counts[w]), key=lambda w: (counts[w], words.index(w)))
    if not present:
        return None
    required, matched = [present[0]], counts[present[0]]
    for word in present[1:]:
        if matched + counts[word] > _MATCH_BUDGET:
            break
        required.append(word)
        matched += counts[word]
    return match_expression(required, present[len(required) :])


def _gloss_list(
    conn: sqlite3.Connection, words: list[str], excluded: set[str]
) -> list[tuple[DefinedTerm, int]]:
    """(headword, rank of its best document) by BM25 over one component's gloss index,
    best first, one row per headword norm (its most used sense's gloss when a document
    defines it twice)."""
    expression = _expression(conn, words)
    if expression is None:
        return []
    hits = gloss_hits(conn, expression, _GLOSS_DOCUMENTS)
    place = {document: i for i, (document, _) in enumerate(hits)}
    best: dict[str, tuple[int, int, DefinedTerm]] = {}
    for row in defined_terms(conn, list(place)):
        if row.norm in excluded or row.norm.startswith("-") or row.norm.endswith("-"):
            continue
        key = (place[row.document], row.rank)
        held = best.get(row.norm)
        if held is None or key < held[:2]:
            best[row.norm] = (*key, row)
    ordered = sorted(best.values(), key=lambda item: (item[0], item[1], item[2].term_id))
    return [(row, document) for document, _, row in ordered]


def _phrase_vector(vectors: Any, words: list[str], weights: dict[str, float]) -> Any:
    """The unit mean of the words' vectors, each weighted by its IDF in the definitions
    (`weights`), or None when no word has a vector."""
    import numpy as np

    rows = items_by_norm(vectors.conn, words)
    if not rows:
        return None
    found = sorted(rows.items(), key=lambda item: item[1])
    matrix = vectors.matrix.rows(np.asarray([r for _, r in found], dtype=np.int64))
    scale = np.asarray([weights.get(w, 1.0) for w, _ in found], dtype=np.float32)
    mean = (matrix.astype(np.float32) * scale[:, None]).sum(axis=0)
    size = float(np.sqrt(mean.dot(mean)))
    return None if size == 0 else mean / size


def _cosines(vectors: Any, query: Any, norms: list[str]) -> dict[str, float]:
    """norm -> cosine of its vector with `query`, for the `norms` with a vector."""
    import numpy as np

    rows = items_by_norm(vectors.conn, norms)
    if not rows:
        return {}
    found = sorted(rows.items(), key=lambda item: item[1])
    matrix = vectors.matrix.rows(np.asarray([r for _, r in found], dtype=np.int64))
    scores = matrix.astype(np.float32) @ query
    return {w: float(x) for (w, _), x in zip(found, scores, strict=True)}


def _vector_list(vectors: Any, query: Any, excluded: set[str]) -> list[tuple[str, str, int, float]]:
    """(text, norm, source id, cosine) of the vocabulary nearest `query`, best first. A
    candidate list, so the HNSW search looks as hard as for a frequent word."""
    found, _ = vectors.search(query, _VECTOR_NEIGHBOURS, None, _VECTOR_EXPANSION)
    texts = vectors.texts([r for r, _ in found])
    out = []
    for r, cosine in found:
        text, source_id = texts[r]
        key = normalize(text)
        if key not in excluded:
            out.append((text, key, source_id, cosine))
    return out


def _excluded(words: list[str]) -> set[str]:
    """The description's own words and their plain plural or singular: a reverse
    dictionary names what the description does not already say."""
    out = set(words)
    for word in words:
        out.update((word + "s", word + "es"))
        if word.endswith("s"):
            out.add(word[:-1])
    return out


class _Fusion:
    """Reciprocal-rank fusion of ranked lists keyed by norm, keeping for each word the
    source and gloss of the list that gave it the most."""

    def __init__(self) -> None:
        self.score: dict[str, float] = {}
        self.best: dict[str, tuple[float, SourceTable, int, str | None]] = {}
        self.form: dict[str, str] = {}
        self.total: dict[str, float] = {}

    def add(
        self,
        name: str,
        rank: int,
        norm: str,
        text: str,
        source: tuple[SourceTable, int],
        gloss: str | None,
    ) -> None:
        part = _WEIGHTS[name] / (_RRF_K + rank)
        self.score[norm] = self.score.get(norm, 0.0) + part
        held = self.best.get(norm)
        if held is None or part > held[0]:
            self.best[norm] = (part, *source, gloss)
        self.form.setdefault(norm, text)

    def keep_spelled(self, spelled: Callable[[str], bool]) -> None:
        """Drop the words `spelled` refuses (a spelling pattern), before any is ranked."""
        for norm in [n for n in self.score if not spelled(self.form[n])]:
            del self.score[norm]

    def leading(self, cosines: dict[str, float], count: int) -> list[str]:
        """The best `count` norms: the fused ranks plus the cosine with the description,
        a multi-word headword scaled down."""
        total = {}
        for norm, score in self.score.items():
            score += _COSINE * max(0.0, cosines.get(norm, 0.0))
            total[norm] = score * (_PHRASE_FACTOR if " " in norm or "-" in norm else 1.0)
        self.total = total
        return sorted(total, key=lambda n: (-total[n], n))[:count]

    def ranked(
        self, limit: int, cited: Cited, forms: dict[str, tuple[str, float]]
    ) -> list[DescribedWord]:
        """The best `limit` words of `leading`, their sources cited, each headword
        written as the lexical component writes it (GCIDE capitalises: `House`)."""
        total = self.total
        order = sorted(total, key=lambda n: (-total[n], n))[:limit]
        out = []
        for n in order:
            _, table, source_id, gloss = self.best[n]
            text = forms[n][0] if n in forms else self.form[n]
            out.append(DescribedWord(text, round(total[n], 6), cited.key(table, source_id), gloss))
        return out


def _components(corpus: Corpus, language: str) -> list[tuple[str, sqlite3.Connection]]:
    """(name, connection) of the language's components that carry a gloss index: its
    lexical component, and GCIDE's for English."""
    try:
        found: list[tuple[str, sqlite3.Connection]] = [("lexical", corpus.db(language, "lexical"))]
    except CapabilityUnavailable:
        return []
    extra = corpus.extra_db(GCIDE_FILE, "lexical") if language == "en" else None
    if extra is not None:
        found.append(("gcide", extra))
    return [(name, conn) for name, conn in found if has_gloss_index(conn)]


def _idf(conn: sqlite3.Connection, words: list[str]) -> dict[str, float]:
    counts = document_counts(conn, words)
    total = document_total(conn)
    return {w: math.log(1 + total / (1 + counts[w])) for w in words}


def describe(
    store: VectorStore,
    text: str,
    language: str,
    limit: int,
    spelled: Callable[[str], bool] | None = None,
) -> Description | None:
    """The words `text` describes, best first (at most `limit`), only those `spelled`
    accepts when given; None when `text` is one word, or when `language` has no gloss
    index installed (then the phrase is answered as before: it has no vector)."""
    words = description_tokens(text)
    components = _components(store.corpus, language) if words is not None else []
    if words is None or not components:
        return None
    answer = Description(words)
    excluded = _excluded(words)
    fusion = _Fusion()
    for name, conn in components:
        table = sources(conn)
        answer.used.append(name)
        for row, place in _gloss_list(conn, words, excluded):
            fusion.add(name, place, row.norm, row.text, (table, row.source_id), row.gloss)
    try:
        vectors = store.get(language)
    except CapabilityUnavailable:
        vectors = None
    query = (
        None if vectors is None else _phrase_vector(vectors, words, _idf(components[0][1], words))
    )
    cosines: dict[str, float] = {}
    if query is not None:
        answer.used.append("vectors")
        for rank, (word, key, source_id, cosine) in enumerate(
            _vector_list(vectors, query, excluded)
        ):
            cosines[key] = cosine
            fusion.add("vectors", rank, key, word, (vectors.sources, source_id), None)
    if spelled is not None:
        fusion.keep_spelled(spelled)
    if query is not None:
        leading = sorted(fusion.score, key=lambda n: -fusion.score[n])[:_COSINE_CANDIDATES]
        cosines.update(_cosines(vectors, query, [n for n in leading if n not in cosines]))
    forms = headword_forms(components[0][1], fusion.leading(cosines, limit * 2))
    answer.results = fusion.ranked(limit, answer.cited, forms)
    return answer


_METHOD = (
    "reverse dictionary: BM25 (SQLite FTS5, Porter stems) over the definitions of {lists}"
    ", fused by reciprocal rank{vectors}; each result's matched_gloss is the definition"
    " that matched it"
)


def description_data(
    store: VectorStore,
    text: str,
    language: str,
    limit: int,
    spelled: Callable[[str], bool] | None = None,
) -> dict[str, Any] | None:
    """The semantic neighbours answer for a description (`mode: description`), or None
    when `text` is a single word, has a vector of its own, or `language` has no gloss
    index installed: then the tool answers as it always did."""
    try:
        own = store.get(language)
    except CapabilityUnavailable:
        own = None
    if own is not None and own.find(normalize(text)) is not None:
        return None
    answer = describe(store, text, language, limit, spelled)
    if answer is None:
        return None
    neighbors: list[dict[str, Any]] = []
    for word in answer.results:
        neighbor: dict[str, Any] = {"text": word.text, "score": word.score, "source": word.source}
        if word.gloss is not None:
            neighbor["matched_gloss"] = word.gloss
        neighbors.append(neighbor)
    lists = {"lexical": "WordNet", "gcide": "GCIDE"}
    named = " and ".join(lists[n] for n in answer.used if n in lists)
    vectors = (
        " with the nearest words to the mean vector of the description's words"
        if "vectors" in answer.used
        else ""
    )
    return {
        "word": text,
        "language": language,
        "mode": "description",
        "scope": "monolingual",
        "searched_languages": [language],
        "searched_words": answer.words,
        "dataset_version": store.corpus.dataset_version,
        "found": bool(neighbors),
        "count": len(neighbors),
        "method": _METHOD.format(lists=named, vectors=vectors),
        "neighbors": neighbors,
        "sources": answer.cited.sources(),
    }
