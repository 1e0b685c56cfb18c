"""Write a language's semantic components: vocabulary, float16 vectors and the HNSW index.

Three files per language, published together:

- `semantic.sqlite`: the vocabulary (`vocab.id` = matrix row = index key);
- `semantic.f16.npy`: unit-length float16 vectors, for exact re-ranking;
- `semantic.usearch`: a usearch HNSW index (cosine metric, i8 quantisation).

The index is built single-threaded: HNSW insertion order decides the graph, so one
thread gives the same bytes for the same vectors. Recall@10 of the index against exact
search over the float16 vectors is measured on a fixed sample and stored in `meta`.

Every word also gets its exact nearest neighbours, found by brute force (`neighbours`
table): the server answers a search in the word's own language from them, exactly and
without searching the index, which it keeps for larger limits and cross-lingual search.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]

from lexicon_server.builder.errors import BuildError
from lexicon_server.builder.lexical_writer import SourceRow, schema_statements
from lexicon_server.corpus.normalize import display_form, norm
from lexicon_server.corpus.reader import SCHEMA_VERSIONS

if TYPE_CHECKING:
    from lexicon_server.builder.parsers.vectors import VectorBatch

__all__ = [
    "HNSW_PARAMS",
    "NEIGHBOURS",
    "SEMANTIC_FILES",
    "SemanticStats",
    "exact_neighbours",
    "glove_vocabulary",
    "measure_recall",
    "vectors_by_language",
    "write_semantic",
]

SEMANTIC_FILES = ("semantic.sqlite", "semantic.f16.npy", "semantic.usearch")

# connectivity 16 / expansion_add 64 builds 100k 50-d vectors in about 20-25 s on one
# core here with recall@10 around 0.94; expansion_search is what the server may raise.
HNSW_PARAMS = {"connectivity": 16, "expansion_add": 64, "expansion_search": 64}
RECALL_SAMPLE = 1000
RECALL_SEED = 20261130
# Exact neighbours stored per word: more than the tool's default limit (10), so a float
# rounding difference between this brute force and the server's re-rank cannot push one
# of the top 10 out. On the starter (100k words): 6.4 MB, about 50 s of build CPU.
NEIGHBOURS = 16
# Rows whose scores give each query a first threshold (see `exact_neighbours`): the 2,048
# most frequent words, which alone leave ~150 of 100k rows to sort for a frequent word.
_PROBE = 2048


@dataclass(frozen=True)
class SemanticStats:
    language: str
    words: int
    dimensions: int
    recall_at_10: float


def glove_vocabulary(words: Sequence[str], limit: int) -> list[int]:
    """Rows of the first `limit` purely alphabetic GloVe words (GloVe lists by frequency)."""
    rows: list[int] = []
    for i, word in enumerate(words):
        if word.isalpha():
            rows.append(i)
            if len(rows) >= limit:
                break
    return rows


def _unit_f16(matrix: npt.NDArray[np.floating]) -> npt.NDArray[np.float16]:
    m = np.asarray(matrix, dtype=np.float32)
    lengths = np.linalg.norm(m, axis=1, keepdims=True)
    lengths[lengths == 0] = 1.0
    unit: npt.NDArray[np.float16] = (m / lengths).astype(np.float16)
    return unit


def measure_recall(
    index: object, vectors: npt.NDArray[np.float16], sample: int = RECALL_SAMPLE
) -> float:
    """Mean overlap of the index's top 10 with exact cosine top 10, on a fixed sample."""
    n = len(vectors)
    if n == 0:
        return 1.0
    rng = np.random.default_rng(RECALL_SEED)
    queries = np.sort(rng.choice(n, size=min(sample, n), replace=False))
    k = min(10, n)
    full = vectors.astype(np.float32)
    q = full[queries]
    hits = 0
    for start in range(0, len(q), 256):  # bounded memory: 256 x n scores at a time
        block = q[start : start + 256]
        scores = block @ full.T
        exact = np.argpartition(-scores, k - 1, axis=1)[:, :k]
        found = np.atleast_2d(index.search(block, k, threads=1).keys)  # type: ignore[attr-defined]
        for row in range(len(block)):
            hits += len(set(exact[row].tolist()) & set(np.asarray(found[row]).tolist()))
    return round(hits / (len(q) * k), 4)


def write_semantic(
    out_dir: Path,
    *,
    language: str,
    words: Sequence[str],
    vectors: npt.NDArray[np.floating],
    zipf: Mapping[str, float],
    source: SourceRow,
    dataset_version: str,
    extra_meta: Mapping[str, str] | None = None,
) -> SemanticStats:
    """Write the three semantic files of `language` into `out_dir` (atomically, together).

    `extra_meta`: more `meta` rows (derived vectors say `derived_from`)."""
    from usearch.index import Index

    if len(words) != len(vectors):
        raise BuildError(f"semantic {language}: {len(words)} words but {len(vectors)} vectors")
    out_dir.mkdir(parents=True, exist_ok=True)
    unit = _unit_f16(vectors)
    dims = int(unit.shape[1]) if unit.ndim == 2 else 0
    tmp = {name: out_dir / f".{name}.{os.getpid()}.tmp" for name in SEMANTIC_FILES}
    try:
        with open(tmp["semantic.f16.npy"], "wb") as handle:
            np.save(handle, unit, allow_pickle=False)
        index = Index(
            ndim=dims,
            metric="cos",
            dtype="i8",
            connectivity=HNSW_PARAMS["connectivity"],
            expansion_add=HNSW_PARAMS["expansion_add"],
            expansion_search=HNSW_PARAMS["expansion_search"],
        )
        if len(unit):
            index.add(np.arange(len(unit), dtype=np.uint64), unit.astype(np.float32), threads=1)
        index.save(str(tmp["semantic.usearch"]))
        recall = measure_recall(index, unit)
        _write_vocab(
            tmp["semantic.sqlite"],
            language,
            words,
            zipf,
            source,
            dataset_version,
            dims,
            recall,
            unit,
            index,
            extra_meta or {},
        )
        for path in tmp.values():
            with open(path, "rb") as handle:
                os.fsync(handle.fileno())
        for name, path in tmp.items():
            os.replace(path, out_dir / name)
    finally:
        for path in tmp.values():
            path.unlink(missing_ok=True)
    return SemanticStats(language, len(words), dims, recall)


def exact_neighbours(
    unit: npt.NDArray[np.float16],
    rows: Sequence[int],
    count: int = NEIGHBOURS,
    index: Any = None,
) -> dict[int, npt.NDArray[np.int32]]:
    """For each of `rows`, the ids of its `count` nearest rows by cosine, best first (ties
    by lower id), itself excluded: brute force with the server's arithmetic (float32 of
    the float16 unit vectors, the query renormalised). A zero vector gets no entry.

    Selecting from every score is the slow part, so each query first takes a threshold:
    the `count`-th best of its exact scores against some candidates. They are real rows,
    so the true `count`-th best scores at least as much, and only the rows at or above
    the threshold need sorting; the answer is the same as sorting all n scores (tested).
    The candidates are the first `_PROBE` rows, and the HNSW `index`'s answer when given:
    it is close to the truth, so few rows pass (a rare word's neighbours are rarely among
    the most frequent rows, and with them alone tens of thousands would)."""
    n = len(unit)
    count = min(count, n - 1)
    full = unit.astype(np.float32)
    wanted = np.asarray(rows, dtype=np.int64).reshape(-1)
    wanted = wanted[np.einsum("ij,ij->i", full[wanted], full[wanted]) > 0]  # not zero vectors
    if count <= 0 or len(wanted) == 0:
        return {}
    # One BLAS thread: the builder already runs a stage per core, and BLAS threads on top
    # spin against the other stage (half as much CPU time again for the same work here).
    with threadpool_limits(1, user_api="blas"):
        return _exact_blocks(full, wanted, count, index)


def _exact_blocks(
    full: npt.NDArray[np.float32], wanted: npt.NDArray[np.int64], count: int, index: Any
) -> dict[int, npt.NDArray[np.int32]]:
    """`exact_neighbours` for `wanted` (non-zero rows), 256 queries at a time."""
    n = len(full)
    probe = min(_PROBE, n)  # >= count + 1, so the threshold is a real score, not itself
    out: dict[int, npt.NDArray[np.int32]] = {}
    for start in range(0, len(wanted), 256):  # bounded memory: 256 x n scores at a time
        ids = wanted[start : start + 256]
        queries = full[ids]
        queries /= np.sqrt(np.einsum("ij,ij->i", queries, queries))[:, None]
        scores = queries @ full.T
        scores[np.arange(len(ids)), ids] = -np.inf
        threshold = np.partition(scores[:, :probe], probe - count, axis=1)[:, probe - count]
        if index is not None:
            found = index.search(queries, count + 1, threads=1)
            keys = np.asarray(found.keys).astype(np.int64)  # missing results wrap to -1
            real = np.arange(count + 1) < np.asarray(found.counts)[:, None]
            near = np.where(real, np.take_along_axis(scores, np.where(real, keys, 0), 1), -np.inf)
            # The count-th best of these count + 1 (the query itself among them is -inf).
            threshold = np.maximum(threshold, np.partition(near, 1, axis=1)[:, 1])
        at, col = np.divmod(np.flatnonzero(scores >= threshold[:, None]), n)
        order = np.lexsort((col, -scores[at, col], at))  # by query, best first, lower id
        at, col = at[order], col[order].astype(np.int32)
        first = np.searchsorted(at, np.arange(len(ids)))
        for i, row in enumerate(ids.tolist()):
            out[row] = col[first[i] : first[i] + count]
    return out


def _write_vocab(
    path: Path,
    language: str,
    words: Sequence[str],
    zipf: Mapping[str, float],
    source: SourceRow,
    dataset_version: str,
    dims: int,
    recall: float,
    unit: npt.NDArray[np.float16],
    index: Any,
    extra_meta: Mapping[str, str],
) -> None:
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = OFF")
        tables, indexes = schema_statements("semantic")
        for statement in tables:
            conn.execute(statement)
        conn.execute("BEGIN")
        conn.execute(
            "INSERT INTO sources (id, name, title, version, licence, url) VALUES (1,?,?,?,?,?)",
            (source.name, source.title, source.version, source.licence, source.url),
        )
        meta = {
            "schema": "semantic",
            "schema_version": str(SCHEMA_VERSIONS["semantic"]),
            "language": language,
            "dataset_version": dataset_version,
            "dimensions": str(dims),
            "metric": "cos",
            "index_dtype": "i8",
            "hnsw_connectivity": str(HNSW_PARAMS["connectivity"]),
            "hnsw_expansion_add": str(HNSW_PARAMS["expansion_add"]),
            "hnsw_expansion_search": str(HNSW_PARAMS["expansion_search"]),
            "hnsw_recall_at_10": f"{recall:.4f}",
            "neighbours": str(NEIGHBOURS),
            **extra_meta,
        }
        conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", sorted(meta.items()))
        rows = []
        for i, word in enumerate(words):
            text = display_form(word)
            key = norm(text)
            rows.append((i, text, key, zipf.get(key, 0.0), 1))
        conn.executemany(
            "INSERT INTO vocab (id, text, norm, zipf, source_id) VALUES (?,?,?,?,?)", rows
        )
        conn.executemany(
            "INSERT INTO neighbours (id, ids) VALUES (?, ?)",
            (
                (row, ids.astype("<i4").tobytes())
                for row, ids in exact_neighbours(unit, range(len(unit)), index=index).items()
            ),
        )
        for statement in indexes:
            conn.execute(statement)
        conn.execute("COMMIT")
        conn.execute("VACUUM")
    finally:
        conn.close()


def vectors_by_language(
    batches: Iterable[VectorBatch], languages: Iterable[str], limit: int
) -> dict[str, tuple[list[str], npt.NDArray[np.float32]]]:
    """Group streamed vector batches by language, keeping the first `limit` of each.

    Kept rows are held as float16 blocks, so memory is bounded by `limit` x dimensions x
    2 bytes per language whatever the size of the input.
    """
    wanted = set(languages)
    words: dict[str, list[str]] = {lang: [] for lang in wanted}
    blocks: dict[str, list[npt.NDArray[np.float16]]] = {lang: [] for lang in wanted}
    for batch in batches:
        for lang in wanted:
            room = limit - len(words[lang])
            if room <= 0:
                continue
            rows = [i for i, code in enumerate(batch.languages) if code == lang][:room]
            if rows:
                words[lang].extend(batch.words[i] for i in rows)
                blocks[lang].append(np.asarray(batch.vectors[rows], dtype=np.float16))
    out: dict[str, tuple[list[str], npt.NDArray[np.float32]]] = {}
    for lang in sorted(wanted):
        if words[lang]:
            out[lang] = (words[lang], np.concatenate(blocks[lang]).astype(np.float32))
    return out
