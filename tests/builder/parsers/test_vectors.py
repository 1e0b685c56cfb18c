"""Vector parsers: a slice of the real kumo GloVe package, and hand-written Numberbatch files."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.parsers.vectors import (
    VectorBatch,
    iter_glove_npy,
    iter_rows,
    iter_word2vec_text,
)


def _glove(fixtures: Path, batch_size: int = 8192) -> list[VectorBatch]:
    base = fixtures / "glove"
    return list(
        iter_glove_npy(
            base / "glove_6B_50d_emb.npy", base / "glove_6B_index.parquet", batch_size=batch_size
        )
    )


def _cos(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_glove_rows_match_the_matrix(fixtures: Path) -> None:
    batches = _glove(fixtures, batch_size=32)
    assert [len(b.words) for b in batches][:3] == [32, 32, 32]
    matrix = np.load(fixtures / "glove" / "glove_6B_50d_emb.npy")
    stacked = np.concatenate([b.vectors for b in batches])
    assert stacked.dtype == np.float32 and np.array_equal(stacked, matrix)
    words = [w for b in batches for w in b.words]
    assert words[0] == "the" and "king" in words and len(words) == matrix.shape[0]
    assert {lang for b in batches for lang in b.languages} == {"en"}


def test_glove_king_is_closer_to_queen_than_to_cat(fixtures: Path) -> None:
    vectors = {r.word: np.array(r.vector) for r in iter_rows(_glove(fixtures))}
    assert len(vectors["king"]) == 50
    assert _cos(vectors["king"], vectors["queen"]) > _cos(vectors["king"], vectors["cat"])


def test_glove_vocabulary_size_must_match(fixtures: Path, tmp_path: Path) -> None:
    pq.write_table(pa.table({"index": ["the", "a"]}), tmp_path / "vocab.parquet")
    with pytest.raises(ParseError, match="2 words"):
        list(
            iter_glove_npy(fixtures / "glove" / "glove_6B_50d_emb.npy", tmp_path / "vocab.parquet")
        )


def test_numberbatch_multilingual_uris(fixtures: Path) -> None:
    path = fixtures / "numberbatch" / "numberbatch-19.08-sample.txt"
    rows = list(iter_rows(iter_word2vec_text(path)))
    assert len(rows) == 9 and all(len(r.vector) == 10 for r in rows)
    assert ("en", "ice_cream") in {(r.language, r.word) for r in rows}
    assert ("ja", "猫") in {(r.language, r.word) for r in rows}
    english = list(iter_word2vec_text(path, languages={"en"}, batch_size=4))
    assert [len(b.words) for b in english] == [4, 2]
    assert {lang for b in english for lang in b.languages} == {"en"}


def test_numberbatch_english_plain_words_and_gzip(fixtures: Path, tmp_path: Path) -> None:
    path = fixtures / "numberbatch" / "numberbatch-en-19.08-sample.txt"
    plain = list(iter_rows(iter_word2vec_text(path, language="en")))
    packed = tmp_path / "numberbatch-en.txt.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    assert list(iter_rows(iter_word2vec_text(packed, language="en"))) == plain
    assert plain[2].word == "king" and plain[2].vector[0] == pytest.approx(0.0455)
    with pytest.raises(ParseError, match="language="):
        list(iter_word2vec_text(path))


def test_headerless_glove_text(tmp_path: Path) -> None:
    path = tmp_path / "glove.6B.3d.txt"
    path.write_text("the 0.1 0.2 0.3\nof -0.1 0.0 0.5\n")
    (batch,) = iter_word2vec_text(path, language="en")
    assert batch.words == ("the", "of") and batch.dim == 3


def test_short_row_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "vectors.txt"
    path.write_text("2 3\ncat 0.1 0.2 0.3\ndog 0.1 0.2\n")
    with pytest.raises(ParseError, match="'dog' does not have 3 numbers"):
        list(iter_word2vec_text(path, language="en"))


def test_iter_vectors_rows_for_the_builder(fixtures: Path) -> None:
    from lexicon_server.builder.parsers.vectors import iter_vectors

    english = fixtures / "numberbatch" / "numberbatch-en-19.08-sample.txt"
    assert [r.language for r in iter_vectors(english)] == ["en"] * 4
    multi = fixtures / "numberbatch" / "numberbatch-19.08-sample.txt"
    assert {r.word for r in iter_vectors(multi, languages={"fr"})} == {"maison"}


def test_non_numeric_value_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "vectors.txt"
    path.write_text("2 3\ncat 0.1 0.2 0.3\ndog 0.1 oops 0.3\n")
    with pytest.raises(ParseError, match="'dog' does not have 3 numbers"):
        list(iter_word2vec_text(path, language="en"))
