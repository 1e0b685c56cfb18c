"""The one look-up key used everywhere in the corpus (terms.norm, vocab.norm, target_norm)."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

__all__ = ["display_form", "norm"]


def display_form(text: str) -> str:
    """The written form as stored: WordNet's underscores become spaces, whitespace collapsed."""
    return " ".join(text.replace("_", " ").split())


def norm(text: str) -> str:
    """NFKC, casefold, underscores to spaces, whitespace collapsed to single spaces."""
    if text.isascii() and text.isalpha():
        # Most keys a build normalises (millions): NFKC leaves ASCII letters alone and
        # casefold is lower() on them; five times faster than the general path.
        return text.lower()
    return _norm(text)


@lru_cache(maxsize=1 << 16)  # translation targets repeat a lot; the cache is bounded
def _norm(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(folded.replace("_", " ").split())
