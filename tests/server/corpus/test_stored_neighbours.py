"""Every word's exact neighbours, stored by the builder: the brute force that writes them,
and the answers the server gives from them, against exact search over the same vectors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
from _support.dumped import dumped

from lexicon_server.builder.semantic_writer import NEIGHBOURS, exact_neighbours
from lexicon_server.corpus.reader import Corpus
from lexicon_server.query.semantic import VectorStore, semantic_neighbors
from lexicon_store.selection import load_active

STORED = "exact neighbours stored at build time + exact float16 cosine re-rank"


def _unit(vectors: np.ndarray) -> np.ndarray:
    lengths = np.linalg.norm(vectors, axis=1, keepdims=True)
    lengths[lengths == 0] = 1.0
    return (vectors / lengths).astype(np.float16)


def _brute_force(unit: np.ndarray, row: int, count: int) -> list[int]:
    """The `count` nearest rows of `row`, one at a time: the plain definition."""
    full = unit.astype(np.float32)
    query = full[row] / np.linalg.norm(full[row])
    scores = full @ query
    scores[row] = -np.inf
    return sorted(range(len(full)), key=lambda i: (-scores[i], i))[:count]


def test_exact_neighbours_are_the_brute_force_top() -> None:
    rng = np.random.default_rng(5)
    unit = _unit(rng.normal(size=(700, 12)))
    unit[9] = unit[4]  # a duplicate: equal scores, the lower id first
    rows = [0, 4, 9, 311, 699]
    found = exact_neighbours(unit, rows)
    assert set(found) == set(rows)
    for row in rows:
        assert found[row].tolist() == _brute_force(unit, row, NEIGHBOURS), row
        assert row not in found[row].tolist()
    assert found[4][0] == 9 and found[9][0] == 4
    # The same with thresholds from an HNSW index over the vectors, as the builder runs it.
    from usearch.index import Index

    index = Index(ndim=12, metric="cos", dtype="i8")
    index.add(np.arange(len(unit), dtype=np.uint64), unit.astype(np.float32), threads=1)
    with_index = exact_neighbours(unit, rows, index=index)
    assert {row: ids.tolist() for row, ids in with_index.items()} == {
        row: ids.tolist() for row, ids in found.items()
    }


def test_exact_neighbours_edge_cases() -> None:
    unit = _unit(np.eye(5, 3))  # rows 3 and 4 are zero vectors
    found = exact_neighbours(unit, [0, 3])
    assert set(found) == {0}, "a zero vector has no direction, so no stored neighbours"
    assert sorted(found[0].tolist()) == [1, 2, 3, 4]  # fewer rows than NEIGHBOURS: all others
    assert exact_neighbours(unit[:1], [0]) == {}
    assert exact_neighbours(unit, []) == {}


def _open(data_dir: Path) -> Iterator[Corpus]:
    corpus = Corpus(load_active(data_dir))
    yield corpus
    corpus.close()


def _exact_answer(unit: np.ndarray, row: int, limit: int) -> list[tuple[int, float]]:
    """What the tool should answer for `row`: rows and scores from exact search, with the
    server's arithmetic and rounding."""
    full = unit.astype(np.float32)
    query = full[row].copy()
    query /= np.float32(np.sqrt(query.dot(query)))
    scores = full @ query
    scores[row] = -np.inf
    best = np.argsort(-scores, kind="stable")[:limit]  # ties: the lower id first
    return [(int(i), round(float(scores[i]), 6)) for i in best]


# The most frequent words first; or a fixed shuffle of the whole vocabulary (mostly rare).
FREQUENT = "v.zipf DESC, v.id"
SHUFFLED = "(v.id * 7919) % 100003"


def _check_stored_answers(corpus: Corpus, count: int, order: str = FREQUENT) -> int:
    """`count` words (in `order`), answered from their stored neighbours, get the exact
    answer; the same words searched through the index instead mostly do too."""
    store = VectorStore(corpus)
    vectors = store.get("en")
    assert vectors.stored == NEIGHBOURS
    unit = np.load(corpus.path("en/semantic.f16.npy"))
    rows = [
        (row, text)
        for row, text in vectors.conn.execute(
            "SELECT v.id, v.text FROM neighbours n JOIN vocab v ON v.id = n.id "
            "WHERE v.id = (SELECT min(id) FROM vocab WHERE norm = v.norm) "
            f"ORDER BY {order} LIMIT ?",
            (count,),
        )
    ]
    assert rows, "the release stores no neighbours"
    by_index_agree = 0
    for row, text in rows:
        for limit in (1, 10, NEIGHBOURS):
            answer = dumped(semantic_neighbors(store, text, "en", "en", limit=limit))
            assert answer["method"] == STORED, text
            got = [(n["text"], n["score"]) for n in answer["neighbors"]]
            texts = vectors.texts([i for i, _ in _exact_answer(unit, row, limit)])
            assert got == [(texts[i][0], s) for i, s in _exact_answer(unit, row, limit)], text
        # A larger limit than the release stores goes through the index.
        assert (
            dumped(semantic_neighbors(store, text, "en", "en", limit=NEIGHBOURS + 1))["method"]
            != STORED
        )
        saved, vectors.stored = vectors.stored, 0
        try:
            by_index = dumped(semantic_neighbors(store, text, "en", "en"))
        finally:
            vectors.stored = saved
        assert by_index["method"] != STORED
        by_index_agree += (
            by_index["neighbors"]
            == dumped(semantic_neighbors(store, text, "en", "en"))["neighbors"]
        )
    assert by_index_agree >= 0.9 * len(rows)
    return len(rows)


def test_sample_release_answers_every_word_exactly(sample_data_dir: Path) -> None:
    for corpus in _open(sample_data_dir):
        assert _check_stored_answers(corpus, 1_000) > 5


def test_starter_answers_frequent_and_rare_words_exactly(starter_data_dir: Path) -> None:
    for corpus in _open(starter_data_dir):
        assert _check_stored_answers(corpus, 150) == 150
        assert _check_stored_answers(corpus, 150, SHUFFLED) == 150


def test_starter_stores_every_words_neighbours(starter_data_dir: Path) -> None:
    for corpus in _open(starter_data_dir):
        conn = VectorStore(corpus).get("en").conn
        vocab = conn.execute("SELECT count(*) FROM vocab").fetchone()[0]
        stored = conn.execute("SELECT count(*), min(length(ids)) FROM neighbours").fetchone()
        assert stored == (vocab, 4 * NEIGHBOURS)
