"""The identity of a term: the normalized form used for look-up and duplicate checks."""

from __future__ import annotations

import unicodedata

__all__ = ["normalize"]

# Punctuation that separates words like a space; German letters spelled out as in ASCII text.
_TRANSLATE = str.maketrans(
    {",": " ", ".": " ", ";": " ", "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}
)


def normalize(text: str) -> str:
    """Trim, lowercase, map `,.;` to spaces, spell out ä ö ü ß, collapse whitespace.

    NFC composition comes first so that a decomposed `a` + combining diaeresis (as some
    editors and file systems write it) is the same term as the precomposed `ä`; on text
    that is already composed it changes nothing.
    """
    lowered = unicodedata.normalize("NFC", text).lower()
    return " ".join(lowered.translate(_TRANSLATE).split())
