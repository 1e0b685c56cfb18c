"""Whole-phrase matching shared by rewrite and interpret, and the input limits.

A phrase matches where the text holds the same characters ignoring case, and the
characters just outside the match (if any) are not letters, numbers, combining marks or
underscores. Whitespace inside a phrase is literal: `no cap` does not match `no  cap`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from lexicon_server.glossary.fileformat import text_problem
from lexicon_server.slang.errors import SlangInputError
from lexicon_server.slang.offsets import Utf16Index, utf16_len

__all__ = [
    "MAX_PHRASES",
    "MAX_PHRASE_UNITS",
    "MAX_TEXT_UNITS",
    "PhraseSet",
    "Span",
    "check_phrase",
    "check_text",
    "find_occurrences",
    "first_equal",
    "is_word_char",
    "next_match",
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


def check_text(text: object, parameter: str = "text") -> str:
    if not isinstance(text, str):
        raise SlangInputError(parameter, f"must be a string, got {type(text).__name__}")
    _check_unicode(text, parameter)
    units = utf16_len(text)
    if units > MAX_TEXT_UNITS:
        raise SlangInputError(
            parameter,
            f"is {units} UTF-16 code units long; the limit is {MAX_TEXT_UNITS}. "
            "Split the text and call once per part.",
        )
    return text


def _check_unicode(text: str, parameter: str) -> None:
    problem = text_problem(text)
    if problem is not None:
        raise SlangInputError(parameter, f"{problem}; give it as UTF-8 text")


def check_phrase(phrase: object, parameter: str) -> str:
    """A non-empty phrase of at most MAX_PHRASE_UNITS code units without edge whitespace."""
    if not isinstance(phrase, str):
        raise SlangInputError(parameter, f"must be a string, got {type(phrase).__name__}")
    _check_unicode(phrase, parameter)
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
def _literal(phrase: str) -> re.Pattern[str]:
    return re.compile(re.escape(phrase), re.IGNORECASE)


@lru_cache(maxsize=256)
def _bounded_pattern(phrase: str) -> re.Pattern[str]:
    # In Python's Unicode regexes \w is exactly letters, numbers and underscore, so the
    # regex engine rejects most unbounded hits itself; only marks are checked in Python.
    return re.compile(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)", re.IGNORECASE)


def same_ignoring_case(a: str, b: str) -> bool:
    """Whether the matcher treats `a` and `b` as one phrase (so `ß` is not `ss`)."""
    return len(a) == len(b) and _literal(a).fullmatch(b) is not None


def first_equal(phrase: str, earlier: list[str]) -> int | None:
    """Index of the first phrase in `earlier` equal to `phrase` ignoring case, if any."""
    return next((i for i, p in enumerate(earlier) if same_ignoring_case(phrase, p)), None)


def _bounded(text: str, start: int, end: int) -> bool:
    if start > 0 and is_word_char(text[start - 1]):
        return False
    return not (end < len(text) and is_word_char(text[end]))


def next_match(text: str, phrase: str, pos: int) -> tuple[int, int] | None:
    """The first bounded match of `phrase` starting at or after `pos`, as a code-point span."""
    pattern = _bounded_pattern(phrase)
    while (m := pattern.search(text, pos)) is not None:
        start, end = m.span()
        if _bounded(text, start, end):
            return start, end
        pos = start + 1  # a combining mark touched it; a later overlapping hit may still fit
    return None


@dataclass(frozen=True)
class PhraseSet:
    """Several phrases searched in one pass: earliest bounded match, longest at that start."""

    phrases: tuple[str, ...]  # longest first
    _any: re.Pattern[str]

    @classmethod
    def of(cls, phrases: list[str]) -> PhraseSet:
        ordered = tuple(sorted(phrases, key=len, reverse=True))
        # Alternatives are tried in order at each position and the lookahead sits outside
        # the group, so the engine backs off to the next (shorter) phrase when the longer
        # one is not bounded: the first hit is the earliest start, longest phrase there.
        body = "|".join(f"(?P<p{i}>{re.escape(p)})" for i, p in enumerate(ordered))
        return cls(ordered, re.compile(rf"(?<!\w)(?:{body})(?!\w)", re.IGNORECASE))

    def scan(self, text: str) -> Iterator[tuple[int, int, str]]:
        """(start, end, phrase) of each match, left to right, never overlapping."""
        pos = 0
        while pos <= len(text):
            for m in self._any.finditer(text, pos):
                start, end = m.span()
                if _bounded(text, start, end):
                    yield start, end, self.phrases[int((m.lastgroup or "p0")[1:])]
                    continue
                # A combining mark touched the hit. Longer phrases already failed here in
                # the regex, so only a shorter one can still fit; then scan on from anew.
                pos = start + 1
                shorter = [p for p in self.phrases if len(p) < end - start]
                if start > 0 and is_word_char(text[start - 1]):
                    shorter = []  # the mark is before the start: nothing can begin here
                for phrase in shorter:
                    hit = _bounded_pattern(phrase).match(text, start)
                    if hit is not None and _bounded(text, start, hit.end()):
                        yield start, hit.end(), phrase
                        pos = hit.end()
                        break
                break
            else:
                return


def find_occurrences(text: str, phrase: str, index: Utf16Index | None = None) -> list[Span]:
    """Non-overlapping bounded matches of `phrase`, left to right."""
    index = index or Utf16Index.of(text)
    spans: list[Span] = []
    pos = 0
    while (span := next_match(text, phrase, pos)) is not None:
        start, end = span
        spans.append(Span(index.to_utf16(start), index.to_utf16(end), start, end, text[start:end]))
        pos = end
    return spans
