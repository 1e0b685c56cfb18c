"""Whole-phrase matching shared by rewrite and interpret, and the input limits.

A phrase matches where the text holds the same characters ignoring case, and the
characters just outside the match (if any) are not letters, numbers, combining marks or
underscores. Whitespace inside a phrase is literal: `no cap` does not match `no  cap`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from lexicon_server.slang.errors import SlangInputError
from lexicon_server.slang.offsets import Utf16Index, utf16_len

__all__ = [
    "MAX_PHRASES",
    "MAX_PHRASE_UNITS",
    "MAX_TEXT_UNITS",
    "Span",
    "check_phrase",
    "check_text",
    "find_all",
    "find_occurrences",
    "first_equal",
    "is_word_char",
    "same_ignoring_case",
]

MAX_TEXT_UNITS = 10_000  # UTF-16 code units of input text
MAX_PHRASES = 20  # glossary pairs per rewrite, terms per interpret
MAX_PHRASE_UNITS = 100  # UTF-16 code units per phrase


@dataclass(frozen=True)
class Span:
    """One match in the original text: UTF-16 offsets, code-point offsets, matched text."""

    start: int  # UTF-16 code units, zero-based
    end: int  # exclusive
    code_point_start: int
    code_point_end: int  # exclusive
    text: str


def is_word_char(ch: str) -> bool:
    """Letters, numbers, combining marks and the underscore glue a phrase to its neighbours."""
    return ch == "_" or unicodedata.category(ch)[0] in "LNM"


def same_ignoring_case(a: str, b: str) -> bool:
    """Whether the matcher treats `a` and `b` as one phrase (so `ß` is not `ss`)."""
    return len(a) == len(b) and _pattern(a).fullmatch(b) is not None


def first_equal(phrase: str, earlier: list[str]) -> int | None:
    """Index of the first phrase in `earlier` equal to `phrase` ignoring case, if any."""
    return next((i for i, p in enumerate(earlier) if same_ignoring_case(phrase, p)), None)


def check_text(text: object, parameter: str = "text") -> str:
    if not isinstance(text, str):
        raise SlangInputError(parameter, f"must be a string, got {type(text).__name__}")
    units = utf16_len(text)
    if units > MAX_TEXT_UNITS:
        raise SlangInputError(
            parameter,
            f"is {units} UTF-16 code units long; the limit is {MAX_TEXT_UNITS}. "
            "Split the text and call once per part.",
        )
    return text


def check_phrase(phrase: object, parameter: str) -> str:
    """A non-empty phrase of at most MAX_PHRASE_UNITS code units without edge whitespace."""
    if not isinstance(phrase, str):
        raise SlangInputError(parameter, f"must be a string, got {type(phrase).__name__}")
    if not phrase.strip():
        raise SlangInputError(parameter, "must not be empty or only whitespace")
    if phrase != phrase.strip():
        # Inner whitespace is matched literally, so edge whitespace would silently demand
        # spaces around the match; refusing it is clearer than guessing.
        raise SlangInputError(parameter, f"{phrase!r} must not start or end with whitespace")
    units = utf16_len(phrase)
    if units > MAX_PHRASE_UNITS:
        raise SlangInputError(
            parameter,
            f"is {units} UTF-16 code units long; the limit is {MAX_PHRASE_UNITS} per phrase",
        )
    return phrase


@lru_cache(maxsize=256)
def _pattern(phrase: str) -> re.Pattern[str]:
    return re.compile(re.escape(phrase), re.IGNORECASE)


def _bounded(text: str, start: int, end: int) -> bool:
    if start > 0 and is_word_char(text[start - 1]):
        return False
    return not (end < len(text) and is_word_char(text[end]))


def find_all(text: str, phrase: str) -> list[tuple[int, int]]:
    """Every bounded match of `phrase`, overlapping ones included, as code-point spans."""
    pattern = _pattern(phrase)
    spans: list[tuple[int, int]] = []
    pos = 0
    while (m := pattern.search(text, pos)) is not None:
        start, end = m.span()
        if _bounded(text, start, end):
            spans.append((start, end))
        pos = start + 1
    return spans


def find_occurrences(text: str, phrase: str, index: Utf16Index | None = None) -> list[Span]:
    """Non-overlapping bounded matches of `phrase`, left to right."""
    index = index or Utf16Index.of(text)
    spans: list[Span] = []
    last_end = 0
    for start, end in find_all(text, phrase):
        if start < last_end:
            continue
        spans.append(Span(index.to_utf16(start), index.to_utf16(end), start, end, text[start:end]))
        last_end = end
    return spans
