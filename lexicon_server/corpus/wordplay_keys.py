"""The keys the wordplay component stores, computed one way for the writer and the queries.

The builder precomputes these columns (`words.letters`, `prons.rhyme`, `near_rhymes`, ...)
and the query side recomputes them for the caller's input; keeping both in one module
means a stored key and a query key can never disagree.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence

__all__ = [
    "NEAR_WILDCARD",
    "deletion_keys",
    "fold",
    "is_palindrome",
    "is_single_token",
    "is_vowel",
    "letters",
    "onset_split",
    "rhyme_part",
    "signature",
    "substitution_keys",
    "syllable_count",
]

# Stands for "any one token" in a substitution key; never an ARPAbet symbol.
NEAR_WILDCARD = "*"

_ASCII_WORD = re.compile(r"[a-z]+")
_NOT_ASCII_LETTER = re.compile(r"[^a-z]+")


def fold(text: str) -> str:
    """NFKC + casefold: the case-insensitive identity of a written form."""
    if text.isascii():
        return text.lower()  # the same for ASCII (NFKC keeps it; casefold lower-cases it)
    return unicodedata.normalize("NFKC", text).casefold()


def letters(text: str) -> str:
    """The normalised letters of `text`: NFKC, casefold, then only ASCII a-z kept."""
    return _NOT_ASCII_LETTER.sub("", fold(text))


def signature(text: str) -> str:
    """The anagram key: the normalised letters in sorted order."""
    return "".join(sorted(letters(text)))


def is_single_token(text: str) -> bool:
    """True when `text` is one strictly alphabetic token whose letters are all ASCII a-z.

    'café', 'ice cream', "o'clock" and 'x-ray' are not: dropping their other characters
    would claim anagrams the words do not really have.
    """
    return _ASCII_WORD.fullmatch(fold(text)) is not None


def is_palindrome(text: str) -> bool:
    """True when the normalised letters (at least two) read the same reversed.

    Spaces and punctuation are ignored, but a letter outside ASCII a-z disqualifies the
    word rather than being silently dropped.
    """
    folded = fold(text)
    if any(ch.isalpha() and not ("a" <= ch <= "z") for ch in folded):
        return False
    found = letters(folded)
    return len(found) >= 2 and found == found[::-1]


def is_vowel(token: str) -> bool:
    """ARPAbet vowels carry a stress digit (AE1, AH0, ER2); consonants do not."""
    return token[-1:].isdigit()


def syllable_count(phones: Sequence[str]) -> int:
    """One syllable per vowel token."""
    return sum(1 for token in phones if is_vowel(token))


def rhyme_part(phones: Sequence[str]) -> tuple[str, ...]:
    """From the last primary-stressed vowel to the end (else from the last vowel).

    A pronunciation with no vowel at all rhymes on its whole self.
    """
    for index in range(len(phones) - 1, -1, -1):
        if phones[index].endswith("1"):
            return tuple(phones[index:])
    for index in range(len(phones) - 1, -1, -1):
        if is_vowel(phones[index]):
            return tuple(phones[index:])
    return tuple(phones)


def onset_split(phones: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(onset, rest): the consonant tokens before the first vowel, and everything after."""
    for index, token in enumerate(phones):
        if is_vowel(token):
            return tuple(phones[:index]), tuple(phones[index:])
    return tuple(phones), ()


def substitution_keys(rhyme: Sequence[str]) -> Iterator[str]:
    """The rhyme once per position with that token replaced by the wildcard."""
    for index in range(len(rhyme)):
        yield " ".join((*rhyme[:index], NEAR_WILDCARD, *rhyme[index + 1 :]))


def deletion_keys(rhyme: Sequence[str]) -> Iterator[str]:
    """The rhyme once per position with that token removed (none for a one-token rhyme)."""
    if len(rhyme) < 2:
        return
    for index in range(len(rhyme)):
        yield " ".join((*rhyme[:index], *rhyme[index + 1 :]))
