"""Positions in two units: UTF-16 code units (JavaScript) and code points (Python).

Python strings index by code point; a JavaScript client slices by UTF-16 code unit, where
every character outside the Basic Multilingual Plane (most emoji) counts twice.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

__all__ = ["Utf16Index", "utf16_len"]

# Characters beyond the Basic Multilingual Plane take a surrogate pair in UTF-16.
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def utf16_len(text: str) -> int:
    """Length of `text` in UTF-16 code units."""
    return len(text) + len(_ASTRAL.findall(text))


@dataclass(frozen=True)
class Utf16Index:
    """Converts code-point offsets of one text into UTF-16 offsets (and back)."""

    text: str
    _astral: tuple[int, ...]  # code-point positions of characters that take two code units

    @classmethod
    def of(cls, text: str) -> Utf16Index:
        return cls(text, tuple(m.start() for m in _ASTRAL.finditer(text)))

    def to_utf16(self, code_point: int) -> int:
        """UTF-16 offset of the boundary before code point `code_point` (0..len(text))."""
        if not 0 <= code_point <= len(self.text):
            raise IndexError(f"code point offset {code_point} outside 0..{len(self.text)}")
        return code_point + bisect_left(self._astral, code_point)

    def to_code_point(self, utf16: int) -> int:
        """Code-point offset of a UTF-16 boundary; a position inside a surrogate pair is refused."""
        lo, hi = 0, len(self.text)
        while lo < hi:  # to_utf16 is strictly increasing, so bisect on it
            mid = (lo + hi) // 2
            if self.to_utf16(mid) < utf16:
                lo = mid + 1
            else:
                hi = mid
        if self.to_utf16(lo) != utf16:
            raise IndexError(f"UTF-16 offset {utf16} is not a character boundary of the text")
        return lo
