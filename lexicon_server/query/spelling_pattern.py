"""Spelling patterns: `?` one letter a-z, `*` any run of letters (none included), every
other character a letter a-z fixed in place; case and compatibility forms are folded
first (`C?T` is `c?t`). Anything else is refused, so no caller text ever reaches a regular
expression: the expressions are built here from the checked tokens alone.

The `pattern` kind of wordplay (query/wordplay_pattern.py) lists the words spelled so;
synonyms, semantic neighbours and rhymes keep only the candidates spelled so
(`spelling_filter`), each matched on its `spelling_form` by `Glob`, which never backtracks.
"""

from __future__ import annotations

import re
import unicodedata

from lexicon_server.corpus.wordplay_keys import fold
from lexicon_server.errors import InvalidArgument
from lexicon_server.query.arguments import check_text

__all__ = [
    "FILTER_ALLOWED",
    "PATTERN_ALLOWED",
    "Glob",
    "SpellingFilter",
    "check_pattern",
    "spelling_filter",
    "spelling_form",
]

_RULE = (
    "letters a-z fixed in place, '?' for any one letter and '*' for any run of letters "
    "(none included), e.g. 'c?t', '??ght' or 'un*able'"
)
PATTERN_ALLOWED = "a spelling pattern for kind='pattern': " + _RULE
FILTER_ALLOWED = "a spelling pattern the candidates must match: " + _RULE
_TOKENS = re.compile(r"[a-z?*]+")
_LETTERS = re.compile(r"[a-z]*")
# Left out of a candidate's spelling before it is matched: word separators.
_SEPARATORS = re.compile(r"[\-'’.]+")


def check_pattern(text: str, parameter: str = "text", allowed: str = PATTERN_ALLOWED) -> str:
    """The folded pattern with runs of `*` collapsed, or InvalidArgument naming
    `parameter`."""
    folded = fold(text)
    if not _TOKENS.fullmatch(folded):
        raise InvalidArgument(parameter, allowed, text)
    return re.sub(r"\*+", "*", folded)


class Glob:
    """Whole-string matching of a checked pattern without backtracking: the pattern split
    at each '*' into fixed-length pieces, the first anchored at the start, the last at the
    end, and each one between found at its leftmost place after the one before (a later
    place never allows a match an earlier one does not). A regular expression with many
    '*' can instead take exponential time on a word that almost matches."""

    def __init__(self, pattern: str) -> None:
        # Built from checked tokens only: a-z stand for themselves, never as metacharacters.
        pieces = pattern.split("*")
        self.pieces = [re.compile(piece.replace("?", "[a-z]")) for piece in pieces]
        self.lengths = [len(piece) for piece in pieces]

    def matches(self, text: str, start: int = 0, end: int | None = None) -> bool:
        """Whether `text[start:end]` (letters a-z only) matches the whole pattern."""
        end = len(text) if end is None else end
        if len(self.pieces) == 1:
            return end - start == self.lengths[0] and bool(
                self.pieces[0].fullmatch(text, start, end)
            )
        head, tail = start + self.lengths[0], end - self.lengths[-1]
        if tail < head or not self.pieces[0].fullmatch(text, start, head):
            return False
        if not self.pieces[-1].fullmatch(text, tail, end):
            return False
        for piece in self.pieces[1:-1]:
            found = piece.search(text, head, tail)
            if found is None:
                return False
            head = found.end()
        return True


def spelling_form(text: str) -> str | None:
    """The letters a pattern is matched against: case folded, accents dropped (`café` ->
    cafe), spaces, hyphens, apostrophes and dots left out (`well-off` -> welloff); None
    when a letter outside a-z remains (another script, `ø`, a digit)."""
    if text.isascii():
        form = text.lower()
    else:
        decomposed = unicodedata.normalize("NFKD", text)
        form = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    form = _SEPARATORS.sub("", form)
    return form if _LETTERS.fullmatch(form) else None


class SpellingFilter:
    """A checked `pattern` argument, as a test of candidate words (see `spelling_form`)."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.glob = Glob(pattern)

    def __call__(self, word: str) -> bool:
        form = spelling_form(word)
        return form is not None and self.glob.matches(form)


def spelling_filter(pattern: str | None) -> SpellingFilter | None:
    """The `pattern` argument of synonyms, semantic neighbours and rhymes, checked (None
    when omitted or empty), or InvalidArgument naming `pattern`."""
    if pattern is None or pattern == "":
        return None
    if not isinstance(pattern, str):
        raise InvalidArgument("pattern", FILTER_ALLOWED, pattern)
    text = check_text("pattern", pattern)
    return SpellingFilter(check_pattern(text, "pattern", FILTER_ALLOWED))
