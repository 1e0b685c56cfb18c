"""The `spelling_keys` table of a lexical component: a symmetric-deletion (SymSpell) index
of the language's suggestible words, shared by the builder that writes it and the
suggestion query that reads it.

Every suggestible norm is stored under the key of itself, of its accent-folded form
(when that differs) and of each of its single-character deletes; a word in use (Zipf >=
`DOUBLE_DELETE_MIN_ZIPF`, at least once per million words) of `DOUBLE_DELETE_MIN_CHARS`
or more also under each of its double deletes. A query probes its own norm, folded form,
single and double deletes. Two strings meet in the index when up to two deletes of the
query equal the deletes stored for the word: every edit of distance 1 for every word, and
every edit of distance 2 for words in use; for the other words, those of distance 2 where
the word side needs one delete only (a letter too many in the query plus one other
edit). Double deletes for every word would make the English table 4.3 times larger; the
measured trade-off is in docs/corpus-format.md (`spelling_keys`).

A key is a 4-byte blake2b digest of the UTF-8 string, read as a signed 32-bit integer
(stored in 4 bytes by SQLite): stable across processes and Python versions. A collision
only adds a candidate, which the query's distance check then drops (with the English
table's 1.8 million keys, about one query in forty meets one). 64-bit keys made the
table 20% larger for nothing the check does not already catch.
"""

from __future__ import annotations

import unicodedata
from hashlib import blake2b

__all__ = [
    "DOUBLE_DELETE_MIN_CHARS",
    "DOUBLE_DELETE_MIN_ZIPF",
    "MAX_WORD_CHARS",
    "META_KEY",
    "MIN_WORD_CHARS",
    "VERSION",
    "VOCABULARY_KEY",
    "deletes",
    "folded",
    "key_of",
    "keys_of",
    "suggestible",
]

META_KEY = "spelling_keys"
VERSION = "1"
# meta row saying which terms the index holds: 'zipf' (only words wordfreq lists, Zipf > 0)
# or 'all' (the language's words have no frequencies at all, as Greek in the starter).
VOCABULARY_KEY = "spelling_vocabulary"
MIN_WORD_CHARS = 2
DOUBLE_DELETE_MIN_ZIPF = 3.0
# Shorter words' double deletes (one or two letters) would match a large part of the
# vocabulary on every short query.
DOUBLE_DELETE_MIN_CHARS = 5
# Longer words are not indexed (no real word of the starter is; a query this long has no
# double deletes probed either, see lexicon_server/query/suggest.py).
MAX_WORD_CHARS = 40


def key_of(text: str) -> int:
    """The signed 32-bit key of one string."""
    digest = blake2b(text.encode("utf-8"), digest_size=4).digest()
    return int.from_bytes(digest, "little", signed=True)


def folded(text: str) -> str:
    """`text` without combining marks (NFD, marks dropped, NFC again): `café` -> `cafe`,
    `Häuser` -> `Hauser`; letters with no decomposition (ø, ß, ł) stay."""
    decomposed = unicodedata.normalize("NFD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", stripped)


def deletes(text: str) -> set[str]:
    """Every string one character shorter than `text` (empty for one character)."""
    if len(text) < 2:
        return set()
    return {text[:i] + text[i + 1 :] for i in range(len(text))}


def keys_of(word: str, zipf: float) -> set[int]:
    """The index keys of one suggestible norm of Zipf frequency `zipf`: itself, its folded
    form, its single deletes and, for a word in use, its double deletes."""
    singles = deletes(word)
    strings: set[str] = {word, folded(word), *singles}
    if zipf >= DOUBLE_DELETE_MIN_ZIPF and len(word) >= DOUBLE_DELETE_MIN_CHARS:
        for single in singles:
            strings |= deletes(single)
    return {key_of(s) for s in strings}


def suggestible(norm: str) -> bool:
    """Whether a norm can be suggested: one token (no space, no hyphen, no digit) of
    `MIN_WORD_CHARS` to `MAX_WORD_CHARS` characters with at least one letter. Hyphenated
    terms are left out because their Zipf is wordfreq's combination of their tokens
    (`to-be` 6.7), which would outrank every single word."""
    if not MIN_WORD_CHARS <= len(norm) <= MAX_WORD_CHARS:
        return False
    if any(ch.isspace() or ch == "-" or ch.isdigit() for ch in norm):
        return False
    return any(ch.isalpha() for ch in norm)
