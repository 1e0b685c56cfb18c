"""Checks of the arguments a query takes, refused as `InvalidArgument` in the house words."""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from lexicon_server.errors import InvalidArgument

if TYPE_CHECKING:
    from lexicon_server.corpus.reader import Corpus

__all__ = [
    "DEFAULT_ALLOCATION",
    "LIMIT_MAX",
    "MAX_LANGUAGE_TAG_CHARS",
    "MAX_TEXT_CHARS",
    "check_allocation",
    "check_budget",
    "check_language",
    "check_limit",
    "check_text",
    "corpus_language",
    "parse_sense_id",
    "word_and_language",
]

LIMIT_MAX = 100
MAX_TEXT_CHARS = 100
DEFAULT_ALLOCATION = 5

# BCP-47-shaped: a 2-3 letter primary subtag, then optional 2-8 character subtags
# (Wiktionary codes such as 'zh-min-nan' have this shape too).
# Bounded: at most 6 subtags and 35 characters (the length BCP 47 asks every implementation
# to support), so a tag of hundreds of characters is refused, not looked up.
MAX_LANGUAGE_TAG_CHARS = 35
_LANGUAGE_TAG = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{2,8}){0,5}")
_LANGUAGE_ALLOWED = (
    "a language tag like 'en', 'fr' or 'pt-br' (ISO 639 code first; at most 6 subtags "
    f"and {MAX_LANGUAGE_TAG_CHARS} characters)"
)
# What is stripped from the ends of a text: ASCII whitespace and Unicode spaces, but no
# other control character. (str.strip() would also strip C1 NEL, U+0085, and the C0
# separators U+001C-U+001F, which would then pass where every other control is refused.)
_STRIP = (
    " \t\n\r\x0b\x0c\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def check_text(parameter: str, value: str, max_chars: int = MAX_TEXT_CHARS) -> str:
    """The stripped text, or InvalidArgument if it is empty, too long or has control chars
    (C0, C1 or lone surrogates)."""
    stripped = value.strip(_STRIP)
    allowed = f"1 to {max_chars} characters of text without control characters"
    if not stripped or len(stripped) > max_chars:
        raise InvalidArgument(parameter, allowed, value)
    # A printable string has no character in any "Other" category, so none in Cc or Cs:
    # only the rest (tabs, no-break spaces, format characters...) need the per-character
    # look-up.
    if not stripped.isprintable() and any(
        unicodedata.category(ch) in ("Cc", "Cs") for ch in stripped
    ):
        raise InvalidArgument(parameter, allowed, value)
    return stripped


# Accepted tags as sent -> as checked: every call names a language or two, nearly always
# the same few. Bounded; refused values are never kept.
_TAG_CACHE_SIZE = 1_024
_tag_cache: dict[str, str] = {}


def check_language(parameter: str, value: str) -> str:
    """A lower-cased language tag such as 'en', 'fr' or 'pt-br'."""
    tag = _tag_cache.get(value)
    if tag is not None:
        return tag
    tag = value.strip().lower().replace("_", "-")
    if len(tag) > MAX_LANGUAGE_TAG_CHARS or not _LANGUAGE_TAG.fullmatch(tag):
        raise InvalidArgument(parameter, _LANGUAGE_ALLOWED, value)
    if len(_tag_cache) < _TAG_CACHE_SIZE:
        _tag_cache[value] = tag
    return tag


def corpus_language(corpus: Corpus, parameter: str, value: str) -> str:
    """A checked tag; a regional tag the corpus does not carry ('en-us') falls back to its
    language ('en') when the corpus carries that."""
    tag = check_language(parameter, value)
    catalogue = corpus.selection.catalogue
    if tag not in catalogue and "-" in tag:
        primary = tag.split("-", 1)[0]
        if primary in catalogue:
            return primary
    return tag


def word_and_language(corpus: Corpus, word: str, language: str) -> tuple[str, str]:
    """The `word` and `language` arguments most tools take, checked in that order."""
    return check_text("word", word), corpus_language(corpus, "language", language)


def check_limit(parameter: str, value: int, low: int = 1, high: int = LIMIT_MAX) -> int:
    if isinstance(value, bool) or not low <= value <= high:
        raise InvalidArgument(parameter, f"an integer from {low} to {high}", value)
    return value


def check_budget(parameter: str, value: int) -> int:
    """A detail budget: 0 disables the class, up to LIMIT_MAX items otherwise."""
    return check_limit(parameter, value, 0, LIMIT_MAX)


def check_allocation(
    parameter: str, value: int | None, limit: int, default: int | None = None
) -> int:
    """An allocation of the broader class within `limit`.

    None means the default (`default`, else 5, but never more than `limit`); 0 disables
    the class; a
    positive value is an explicit allocation and may not exceed `limit`; -1 is reserved
    for automatic allocation in a future version and is refused.
    """
    if value is None:
        return min(DEFAULT_ALLOCATION if default is None else default, limit)
    allowed = f"0 (disabled) or an explicit allocation from 1 to limit={limit}"
    if value == -1:
        raise InvalidArgument(
            parameter,
            f"{allowed}; -1 (automatic allocation) is not accepted in this version",
            value,
        )
    if isinstance(value, bool) or not 0 <= value <= limit:
        raise InvalidArgument(parameter, allowed, value)
    return value


def parse_sense_id(parameter: str, value: str, language: str) -> int:
    """The row id in a sense handle such as 'en:s123' (see `senses.sense_handle`)."""
    prefix = f"{language}:s"
    if not value.startswith(prefix) or not value[len(prefix) :].isdigit():
        raise InvalidArgument(
            parameter, f"a sense id returned by dictionary_lookup, like '{prefix}123'", value
        )
    return int(value[len(prefix) :])
