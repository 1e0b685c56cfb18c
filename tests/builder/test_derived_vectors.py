"""Derived vectors on the sample dataset (real GloVe, FreeDict and MultiWordNet slices):
every translated language gets vectors in the English space, and the scopes work."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
from _support.dumped import dumped

from lexicon_server.builder.derived_vectors import derive
from lexicon_server.corpus.reader import Corpus
from lexicon_server.query.semantic import VectorStore, semantic_neighbors
from lexicon_store.selection import load_active


def test_roi_cross_lingual_into_english_finds_king(sample_data_dir: Path) -> None:
    store = VectorStore(Corpus(load_active(sample_data_dir)))
    data = dumped(semantic_neighbors(store, "roi", "fr", "en", limit=3))
    assert data["scope"] == "cross_lingual" and data["found"]
    assert data["neighbors"][0]["text"] == "king"
    assert "derived vectors for fr" in data["method"]
    assert not any(n.get("derived") for n in data["neighbors"])  # English ones are trained


def test_monolingual_and_global_scopes_mark_derived_neighbours(sample_data_dir: Path) -> None:
    store = VectorStore(Corpus(load_active(sample_data_dir)))
    mono = dumped(semantic_neighbors(store, "roi", "fr", "fr", limit=3))
    assert mono["neighbors"][0]["text"] == "reine"
    assert all(n["derived"] for n in mono["neighbors"])
    # Global: the trained vectors (English) and the word's own language; German's are
    # derived too, so it is searched only when named (docs/tools.md).
    every = dumped(semantic_neighbors(store, "roi", "fr", limit=10))
    assert every["scope"] == "global" and every["searched_languages"] == ["en", "fr"]
    texts = {(n.get("language", "fr"), n["text"]) for n in every["neighbors"]}
    assert ("fr", "reine") in texts and ("en", "king") in texts
    german = dumped(semantic_neighbors(store, "roi", "fr", "de", limit=3))
    assert german["scope"] == "cross_lingual" and german["searched_languages"] == ["de"]
    king = dumped(semantic_neighbors(store, "king", "en", limit=10))
    assert king["searched_languages"] == ["en"]  # no derived copies of 'king' in the way
    # Italian and Dutch have lexical data but no wordfreq list in the sample: no vocabulary
    # to choose, so no vectors.
    assert store.vector_languages() == (["de", "en", "fr"], {})


def test_global_search_loads_only_the_indexes_it_searches(sample_data_dir: Path) -> None:
    # German and French vectors are derived: a global search from English skips them, and
    # must not load their HNSW indexes to learn that (issue 28: 11 indexes loaded for 1).
    corpus = Corpus(load_active(sample_data_dir))
    store = VectorStore(corpus)
    king = dumped(semantic_neighbors(store, "king", "en", limit=10))
    assert king["searched_languages"] == ["en"] and king["found"]
    assert sorted(corpus.cache("vectors")) == ["en"]
    roi = dumped(semantic_neighbors(store, "roi", "fr", limit=10))
    assert roi["searched_languages"] == ["en", "fr"]
    assert sorted(corpus.cache("vectors")) == ["en", "fr"]  # the word's own, searched


def test_a_word_is_the_weighted_mean_of_its_translations(tmp_path: Path) -> None:
    db = tmp_path / "lexical.sqlite"
    conn = sqlite3.connect(db)
    conn.executescript(
        "CREATE TABLE terms (id INTEGER PRIMARY KEY, text TEXT, norm TEXT, zipf REAL);"
        "CREATE TABLE translations (id INTEGER PRIMARY KEY, term_id INT, sense_id INT,"
        " target_language TEXT, target_text TEXT, target_norm TEXT);"
        "INSERT INTO terms VALUES (1, 'Bank', 'bank', 5.0), (2, 'Leer', 'leer', 4.0);"
        "INSERT INTO translations VALUES (1, 1, NULL, 'en', 'bank', 'bank'),"
        " (2, 1, NULL, 'en', 'bench', 'bench'), (3, 2, NULL, 'en', 'xyzzy', 'xyzzy');"
    )
    conn.commit()
    conn.close()
    english = np.eye(3, dtype=np.float32)
    words, vectors, zipf = derive(
        db, ["bank", "bench", "other"], english, {"bank": 5.0, "bench": 3.0}, limit=10
    )
    assert words == ["Bank"] and zipf == {"bank": 5.0}  # 'Leer' has no usable translation
    expected = np.array([1e5, 1e3, 0.0]) / np.hypot(1e5, 1e3)
    assert np.allclose(vectors[0], expected, atol=1e-6)
