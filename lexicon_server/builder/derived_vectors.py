"""Vectors for a translated language, derived from its translations into English.

A word of language L gets the frequency-weighted mean of the English vectors of its
translations into English (its component's `translations` rows with target 'en', sense-
tied or not, in the order the component stores them, at most `MAX_TRANSLATIONS` distinct
ones): each English translation found in the English vocabulary counts with the weight
of its English frequency (10 ** Zipf, Zipf at least 1), so a common rendering outweighs
rare or technical ones even when a dictionary lists many of those first (FreeDict's
German 'Hund' lists eight mining words, 'mine car' to 'corf', before 'dog'); a
translation of several words ('to eat', 'savings bank') that is not in the vocabulary
as a whole counts as the mean of its words that are, articles and 'to' left out. The
result is normalised, so it lives in the English space: a French word's neighbours
among English vectors are its cross-lingual neighbours, and two derived languages meet
in the same space (German 'Hund' lands near French 'chien').
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

__all__ = ["MAX_TRANSLATIONS", "derive"]

MAX_TRANSLATIONS = 16
_SKIP = frozenset({"a", "an", "the", "to", "of", "be", "one", "something", "someone"})


def _english_vector(
    target: str, rows: Mapping[str, int], matrix: npt.NDArray[np.float32]
) -> npt.NDArray[np.float32] | None:
    row = rows.get(target)
    if row is not None:
        return np.asarray(matrix[row], dtype=np.float32)
    words = [w for w in target.replace("-", " ").split() if w not in _SKIP]
    found = [rows[w] for w in words if w in rows]
    if not found or len(found) < len(words) / 2:
        return None  # mostly unknown words: better no vector than a guess
    return np.asarray(matrix[found].mean(axis=0), dtype=np.float32)


def derive(
    lexical: Path,
    english_words: Sequence[str],
    english: npt.NDArray[np.float32],
    english_zipf: Mapping[str, float],
    *,
    limit: int,
) -> tuple[list[str], npt.NDArray[np.float32], dict[str, float]]:
    """(words, unit vectors, norm -> Zipf) for the `limit` most frequent terms of the
    component at `lexical` that have a usable English translation."""
    rows = {w: i for i, w in enumerate(english_words)}
    conn = sqlite3.connect(f"file:{lexical}?mode=ro", uri=True)
    try:
        # Most frequent terms first (those wordfreq does not list last, in term order); a
        # norm's first spelling is kept.
        found = conn.execute(
            "SELECT t.text, t.norm, t.zipf, tr.target_norm FROM terms t "
            "JOIN translations tr ON tr.term_id = t.id AND tr.target_language = 'en' "
            "ORDER BY t.zipf DESC, t.id, tr.id"
        ).fetchall()
    finally:
        conn.close()
    targets: dict[str, list[str]] = {}
    shown: dict[str, tuple[str, float]] = {}
    for text, key, zipf, target in found:
        if key not in shown:
            if len(shown) >= limit * 2:
                continue  # enough candidates: some will lack a usable translation
            shown[key] = (text, float(zipf))
        chosen = targets.setdefault(key, [])
        if target not in chosen and len(chosen) < MAX_TRANSLATIONS:
            chosen.append(target)
    words: list[str] = []
    vectors: list[npt.NDArray[np.float32]] = []
    zipfs: dict[str, float] = {}
    for key, (text, zipf) in shown.items():
        total = np.zeros(english.shape[1], dtype=np.float32)
        for target in targets[key]:
            vector = _english_vector(target, rows, english)
            if vector is not None:
                total += 10 ** max(english_zipf.get(target, 0.0), 1.0) * vector
        length = float(np.sqrt(total.dot(total)))
        if length == 0:
            continue
        words.append(text)
        vectors.append(total / length)
        zipfs[key] = zipf
        if len(words) >= limit:
            break
    matrix = np.vstack(vectors) if vectors else np.zeros((0, english.shape[1]), np.float32)
    return words, matrix.astype(np.float32), zipfs
