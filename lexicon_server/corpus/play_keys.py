"""The keys of the `pattern` and `sounds_like` wordplay kinds, one way for the writer and
the queries (layout in `schema/wordplay.sql`, rules in docs/wordplay.md).

- Pattern buckets: per scope (dictionary words, or every single-token word) and letter
  count, the distinct letters of the words in rank order, each followed by a newline, and
  their word ids (little-endian int32, one per line). Every line of a bucket has the same
  width, so a match at offset `o` is line `o // (length + 1)`; a pattern is matched by a
  regular expression the query builds itself from checked tokens, never from user text.
- Sound codes: a pronunciation with its stress digits dropped, one character per
  ARPAbet phoneme (`K AE1 T` -> three characters). `sound_keys` holds each code and every
  code with one phoneme deleted, so two codes within one edit share a key (symmetric
  deletion, as spell-checkers use for letters).
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Iterator

__all__ = [
    "META_KEY",
    "PHONEMES",
    "SCOPE_ALL",
    "SCOPE_DICTIONARY",
    "VERSION",
    "PatternBucket",
    "deletions",
    "pattern_buckets",
    "phoneme_distance",
    "sound_code",
    "unpack_ids",
]

META_KEY = "play_keys"
VERSION = "1"  # changes with the bucket layout, the scopes or the sound code
SCOPE_ALL = 0
SCOPE_DICTIONARY = 1

# The 39 ARPAbet phonemes of CMUdict, stress dropped; each gets one code character.
PHONEMES = (
    "AA",
    "AE",
    "AH",
    "AO",
    "AW",
    "AY",
    "B",
    "CH",
    "D",
    "DH",
    "EH",
    "ER",
    "EY",
    "F",
    "G",
    "HH",
    "IH",
    "IY",
    "JH",
    "K",
    "L",
    "M",
    "N",
    "NG",
    "OW",
    "OY",
    "P",
    "R",
    "S",
    "SH",
    "T",
    "TH",
    "UH",
    "UW",
    "V",
    "W",
    "Y",
    "Z",
    "ZH",
)
_CODE = {phone: chr(ord("A") + index) for index, phone in enumerate(PHONEMES)}
_UNKNOWN = "~"  # a phoneme outside the 39 (never in CMUdict): matches nothing but itself

PatternBucket = tuple[int, int, str, bytes]  # (scope, length, letters + '\n' each, ids)


def sound_code(phones: str | Iterable[str]) -> str:
    """One character per phoneme, stress dropped: 'F OW1 N' -> 3 characters."""
    tokens = phones.split() if isinstance(phones, str) else phones
    return "".join(_CODE.get(token.rstrip("012"), _UNKNOWN) for token in tokens)


def deletions(code: str) -> set[str]:
    """`code` with one character deleted, each way (none for a one-character code)."""
    if len(code) < 2:
        return set()
    return {code[:index] + code[index + 1 :] for index in range(len(code))}


def phoneme_distance(a: str, b: str) -> int:
    """Levenshtein distance between two sound codes (one edit = one phoneme)."""
    if a == b:
        return 0
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            cost = 0 if char_a == char_b else 1
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost))
        previous = current
    return previous[-1]


def _pack(ids: list[int]) -> bytes:
    packed = array("i", ids)
    if sys.byteorder != "little":
        packed.byteswap()
    return packed.tobytes()


def unpack_ids(blob: bytes) -> array[int]:
    """The word ids of a bucket, in line order."""
    ids = array("i")
    ids.frombytes(blob)
    if sys.byteorder != "little":
        ids.byteswap()
    return ids


def pattern_buckets(words: Iterable[tuple[int, str, bool]]) -> Iterator[PatternBucket]:
    """The buckets of `(word id, letters, is a dictionary word)` rows given in id (rank)
    order, single-token words only: each letter string once per scope, under its first
    (most frequent) word of that scope."""
    lines: dict[tuple[int, int], list[str]] = {}
    ids: dict[tuple[int, int], list[int]] = {}
    seen: set[tuple[int, str]] = set()
    for word_id, letters, dictionary in words:
        scopes = (SCOPE_ALL, SCOPE_DICTIONARY) if dictionary else (SCOPE_ALL,)
        for scope in scopes:
            if (scope, letters) in seen:
                continue
            seen.add((scope, letters))
            key = (scope, len(letters))
            lines.setdefault(key, []).append(letters)
            ids.setdefault(key, []).append(word_id)
    for key in sorted(lines):
        scope, length = key
        yield scope, length, "".join(line + "\n" for line in lines[key]), _pack(ids[key])
