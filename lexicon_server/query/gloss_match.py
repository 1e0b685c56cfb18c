"""How well one definition matches a description, for the reverse dictionary's ranking
(describe.py): the IDF-weighted share of the description's words the definition holds,
each word held exactly (its Porter stem, or a lemma's for an irregular form: `teeth`,
`tooth`) or nearly (a word of the definition whose vector is close to it: "baby" and
"young"), and the cosine between the mean vector of the definition's words and the
description's. Without vectors only exact words count.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NamedTuple

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
# the ones between in proportion: on the dev splits 0.5 kept "young" for "baby" and
# dropped what merely shares a topic.
_NEAR_FROM = 0.5


class Match(NamedTuple):
    """A definition against a description: the share of its weight held (0..1), and the
    cosine of the definition's mean word vector with the description's (0 without)."""

    share: float
    cosine: float


class GlossMatcher:
    """Matches definitions against one description's `words` (weighted by `idf`), nearly
    too when `vectors` (a language's vector store) and `phrase` (the description's unit
    vector) are given. Definitions are read once each; `prepare` reads the vectors of a
    batch of definitions' words in one statement."""

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
        self._groups = [frozenset(t for w in forms[word] for t in stems[w]) for word in words]
        self._weights = [idf.get(w, 1.0) for w in words]
        self._total = sum(self._weights) or 1.0
        self._vectors, self._phrase = vectors, phrase
        self._query: Any = None  # (positions of the words with a vector, their unit rows)
        if vectors is not None and phrase is not None:
            found = _unit_rows(vectors, words)
            if found is not None:
                self._query = ([words.index(w) for w in found[0]], found[1])
        self._near: dict[str, Any] = {}  # token -> cosine with each description word
        self._units: dict[str, Any] = {}  # token -> its unit vector
        self._kept: dict[str, Match] = {}

    def prepare(self, glosses: Collection[str], skip: Collection[str]) -> None:
        """Read the vectors of the words of `glosses` not read yet, but the `skip` ones
        (function words)."""
        if self._query is None:
            return
        import numpy as np

        fresh = sorted(
            {t for g in glosses for t in _WORD.findall(normalize(g))}
            - self._near.keys()
            - set(skip)
        )
        self._near.update(dict.fromkeys(fresh))
        found = _unit_rows(self._vectors, fresh) if fresh else None
        if found is None:
            return
        names, rows = found
        positions, matrix = self._query
        near = np.zeros((len(names), len(self._groups)), dtype=np.float32)
        near[:, positions] = rows @ matrix.T
        for name, row, unit in zip(names, near, rows, strict=True):
            self._near[name] = row
            self._units[name] = unit

    def match(self, gloss: str) -> Match:
        """How well `gloss` matches the description."""
        held = self._kept.get(gloss)
        if held is None:
            held = self._kept[gloss] = self._match(gloss)
        return held

    def _match(self, gloss: str) -> Match:
        tokens = _WORD.findall(normalize(gloss))
        have = {t for found in index_stems(tokens).values() for t in found}
        closest = [0.0] * len(self._groups)
        for token in tokens:
            near = self._near.get(token)
            if near is not None:
                closest = [max(a, float(b)) for a, b in zip(closest, near, strict=True)]
        held = 0.0
        for group, weight, close in zip(self._groups, self._weights, closest, strict=True):
            held += (
                weight
                if group & have
                else weight * max(0.0, close - _NEAR_FROM) / (1.0 - _NEAR_FROM)
            )
        units = [self._units[t] for t in tokens if t in self._units]
        cosine = 0.0
        if units:
            mean = sum(units)
            cosine = float(mean @ self._phrase) / max(float(mean @ mean) ** 0.5, 1e-9)
        return Match(held / self._total, cosine)


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
