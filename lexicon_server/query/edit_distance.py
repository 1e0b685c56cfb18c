"""The weighted edit distance the suggestions are checked and ranked with.

Damerau–Levenshtein in its restricted form (optimal string alignment: an adjacent swap
costs one edit and the swapped letters are not edited again), with costs that follow
how people misspell (docs/tools.md, "Suggestions"):

- inserting or deleting a letter costs 1, but only 0.5 when it doubles or undoubles the
  letter beside it (`acomodate` / `accommodate`, `untill` / `until`);
- swapping two adjacent letters costs 1 (`recieve` / `receive`);
- replacing a letter costs 1, 0.5 when the two are neighbours on a QWERTY keyboard or
  spell the same sound class (any vowel for another, c k q s, f v, s z, g j, i y, m n),
  and 0.1 when they differ only by an accent (`e` / `é`).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

__all__ = ["MAX_DISTANCE", "distance"]

MAX_DISTANCE = 2.0
_DOUBLING = 0.5
_NEAR = 0.5
_ACCENT = 0.1

_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_SOUND_CLASSES = ("aeiouy", "ckqs", "fv", "sz", "gj", "iy", "mn")


def _keyboard_pairs() -> frozenset[frozenset[str]]:
    # A key's neighbours: left and right on its row, and the two keys touching it on the
    # rows above and below (rows are staggered by about half a key).
    pairs: set[frozenset[str]] = set()
    for r, row in enumerate(_ROWS):
        for i, ch in enumerate(row):
            if i + 1 < len(row):
                pairs.add(frozenset((ch, row[i + 1])))
            if r + 1 < len(_ROWS):
                below = _ROWS[r + 1]
                for j in (i - 1, i):
                    if 0 <= j < len(below):
                        pairs.add(frozenset((ch, below[j])))
    return frozenset(pairs)


_NEAR_PAIRS = _keyboard_pairs() | frozenset(
    frozenset((a, b)) for group in _SOUND_CLASSES for a in group for b in group if a != b
)


@lru_cache(maxsize=4096)
def _base(ch: str) -> str:
    return unicodedata.normalize("NFD", ch)[0]


@lru_cache(maxsize=65536)
def _substitution(a: str, b: str) -> float:
    if a == b:
        return 0.0
    if _base(a) == _base(b):
        return _ACCENT
    if frozenset((_base(a), _base(b))) in _NEAR_PAIRS:
        return _NEAR
    return 1.0


def _gaps(word: str) -> list[float]:
    """The cost of deleting each letter of `word` (1, or 0.5 beside its double)."""
    n = len(word)
    return [
        _DOUBLING
        if (i > 0 and word[i - 1] == word[i]) or (i + 1 < n and word[i + 1] == word[i])
        else 1.0
        for i in range(n)
    ]


def distance(a: str, b: str, bound: float = MAX_DISTANCE) -> float | None:
    """The weighted distance from `a` to `b`, or None when it exceeds `bound` (checked row
    by row, so a hopeless pair stops early)."""
    if a == b:
        return 0.0
    if abs(len(a) - len(b)) * _DOUBLING > bound:
        return None
    del_a, ins_b = _gaps(a), _gaps(b)
    previous: list[float] = [0.0]
    for j in range(len(b)):
        previous.append(previous[j] + ins_b[j])
    before: list[float] = []
    for i in range(1, len(a) + 1):
        ca = a[i - 1]
        current = [previous[0] + del_a[i - 1]]
        for j in range(1, len(b) + 1):
            cb = b[j - 1]
            cost = min(
                previous[j] + del_a[i - 1],
                current[j - 1] + ins_b[j - 1],
                previous[j - 1] + (0.0 if ca == cb else _substitution(ca, cb)),
            )
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb and ca != cb:
                cost = min(cost, before[j - 2] + 1.0)
            current.append(cost)
        if min(current) > bound + 1e-9:
            return None
        before, previous = previous, current
    result = previous[-1]
    return round(result, 2) if result <= bound + 1e-9 else None
