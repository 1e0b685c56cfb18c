"""A rhyme part written independently of `wordplay_keys`, for tests to check the index
against: from the last primary stress, else the last vowel, to the end."""

from __future__ import annotations

__all__ = ["reference_rhyme"]


def reference_rhyme(phones: tuple[str, ...]) -> tuple[str, ...]:
    """The rhyme part of an ARPAbet pronunciation."""
    stressed = [i for i, p in enumerate(phones) if p.endswith("1")]
    vowels = [i for i, p in enumerate(phones) if p[-1].isdigit()]
    start = stressed[-1] if stressed else (vowels[-1] if vowels else 0)
    return phones[start:]
