"""How well one definition matches a description, for the reverse dictionary's ranking
(describe.py): the IDF-weighted share of the description's words the definition holds,
each word held exactly (its Porter stem, as the index has it, or a lemma's for an
irregular form: `teeth`, `tooth`) or nearly (a word of the definition whose vector is
close to it: "baby" and "young"), and the cosine between the mean vector of the
definition's words and the description's. Without vectors only exact words count.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NamedTuple

from lexicon_server.corpus.rows.facts import ConnectionMemo
from lexicon_server.corpus.rows.glosses import index_stems, lemma_norms
from lexicon_server.corpus.rows.vocab import items_by_norm
from lexicon_server.query.headwords import normalize

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Collection

__all__ = ["GlossMatcher", "Match"]

_WORD = re.compile(r"[^\W_]+")
# A definition's word as close as this to a description's word (cosine, in the starter's
# 50-dimensional English vectors) counts nothing, one identical to it counts fully, and
# the ones between in proportion: on the dev splits 0.5 did better than 0.6 and 0.7.
_NEAR_FROM = 0.5
# Definitions' words' unit vectors (float32; False: none), kept per vector vocabulary:
# definitions share their words, and reading one costs a statement and a scattered read.
# 20,000 of 50 dimensions: 4 MB.
_UNITS: ConnectionMemo[str, Any] = ConnectionMemo(20_000)


class Match(NamedTuple):
    """A definition against a description: the share of its weight held (0..1), and the
    cosine of the definition's mean word vector with the description's (0 without)."""

    share: float
    cosine: float


class GlossMatcher:
    """Matches one description's `words` (weighted by `idf`) against definitions, nearly
    too when `vectors` (a language's vector store) and `phrase` (the description's unit
    vector) are given. `match` reads a batch of definitions at once."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        words: list[str],
        idf: dict[str, float],
        vectors: Any = None,
        phrase: Any = None,
    ) -> None:
        lemmas = lemma_norms(conn, words)
        forms = {word: (word, *lemmas.get(word, ())) for word in words}
        stems = index_stems([w for found in forms.values() for w in found])
        self._stems = [frozenset(t for w in forms[word] for t in stems[w]) for word in words]
        # A word whose stem is one of these begins with the stem less its last letter
        # (Porter changes only a word's ending, at most its stem's last letter: `day`,
        # `dai`); only the words so begun are stemmed (`index_stems`, through SQLite:
        # slow). Of the 26,764 words of 40,000 WordNet glosses, one breaks the rule:
        # `eyed`, `ei`.
        starts = sorted({s[:-1] if len(s) > 2 else s for group in self._stems for s in group})
        self._begun = re.compile(
            r"\b(?:" + "|".join(re.escape(s) for s in starts) + r")[^\W_]*" if starts else r"(?!)"
        )
        weights = [idf.get(w, 1.0) for w in words]
        total = sum(weights) or 1.0
        self._weights = [w / total for w in weights]
        self._vectors, self._phrase = vectors, phrase
        self._query: Any = None  # (positions of the words with a vector, their unit rows)
        if vectors is not None and phrase is not None:
            found = _unit_rows(vectors, words)
            if found is not None:
                self._query = ([words.index(w) for w in found[0]], found[1])
        self._read: dict[str, Any] = {}  # a definition's word -> its unit vector, or None

    def match(self, glosses: dict[int, str], skip: Collection[str]) -> dict[int, Match]:
        """document -> how well its definition (`glosses`, by document) matches the
        description; the `skip` words (function words) are not read nearly."""
        import numpy as np

        documents = list(glosses)
        texts = [normalize(glosses[d]) for d in documents]
        begun = [self._begun.findall(text) for text in texts]
        stems = index_stems(sorted({t for found in begun for t in found}))
        held = np.zeros((len(documents), len(self._stems)), dtype=np.float32)
        for row, found in enumerate(begun):
            have = {s for t in found for s in stems[t]}
            for column, group in enumerate(self._stems):
                if group & have:
                    held[row, column] = 1.0
        cosines = np.zeros(len(documents), dtype=np.float32)
        if self._query is not None:
            tokens = [[t for t in _WORD.findall(text) if t not in skip] for text in texts]
            self._read_vectors({t for found in tokens for t in found})
            units = [
                [self._read[t] for t in found if self._read[t] is not None] for found in tokens
            ]
            rows = [row for row, found in enumerate(units) if found]
            if rows:
                near, cosines[rows] = self._near([units[row] for row in rows])
                held[rows] = np.maximum(held[rows], near)
        shares = held @ np.asarray(self._weights, dtype=np.float32)
        return {d: Match(float(shares[i]), float(cosines[i])) for i, d in enumerate(documents)}

    def _near(self, units: list[list[Any]]) -> tuple[Any, Any]:
        """For definitions of at least one word with a vector (`units`, each's unit
        vectors): how nearly their words hold each description word, and the cosine of
        their words' mean with the description's vector; all at once."""
        import numpy as np

        positions, matrix = self._query
        starts = np.cumsum([0, *(len(found) for found in units[:-1])])
        stacked = np.stack([u for found in units for u in found])
        closest = np.maximum.reduceat(stacked @ matrix.T, starts, axis=0)
        near = np.zeros((len(units), len(self._stems)), dtype=np.float32)
        near[:, positions] = np.clip((closest - _NEAR_FROM) / (1.0 - _NEAR_FROM), 0.0, 1.0)
        means = np.add.reduceat(stacked, starts, axis=0)
        sizes = np.maximum(np.linalg.norm(means, axis=1), 1e-9)
        return near, (means @ self._phrase) / sizes

    def _read_vectors(self, tokens: set[str]) -> None:
        fresh = sorted(tokens - self._read.keys())
        conn = self._vectors.conn
        kept, missing = _UNITS.split(conn, fresh)
        read: dict[str, Any] = dict.fromkeys(missing, False)
        found = _unit_rows(self._vectors, missing) if missing else None
        if found is not None:
            read.update(zip(found[0], found[1], strict=True))
        _UNITS.keep(conn, read)
        for token, unit in (*kept.items(), *read.items()):
            self._read[token] = None if unit is False else unit


def _unit_rows(vectors: Any, words: list[str]) -> tuple[list[str], Any] | None:
    """(the `words` with a vector, their unit vectors as float32 rows), or None when none
    has one."""
    import numpy as np

    rows = items_by_norm(vectors.conn, words)
    if not rows:
        return None
    found = sorted(rows.items(), key=lambda item: item[1])
    matrix = vectors.matrix.rows(np.asarray([r for _, r in found], dtype=np.int64))
    matrix = matrix.astype(np.float32)
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-9)
    return [w for w, _ in found], matrix
