"""Oracles written independently of the server's code, for tests to check it against: a
rhyme part (from the last primary stress, else the last vowel, to the end) and a plain
edit distance over phones."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["phone_distance", "reference_rhyme"]


def reference_rhyme(phones: tuple[str, ...]) -> tuple[str, ...]:
    """The rhyme part of an ARPAbet pronunciation."""
    stressed = [i for i, p in enumerate(phones) if p.endswith("1")]
    vowels = [i for i, p in enumerate(phones) if p[-1].isdigit()]
    start = stressed[-1] if stressed else (vowels[-1] if vowels else 0)
    return phones[start:]


def phone_distance(a: Sequence[str], b: Sequence[str]) -> int:
    """Levenshtein distance between two phone sequences (insert, delete, substitute: 1)."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]
