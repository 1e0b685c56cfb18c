"""The `term_docs` table of a lexical component: each term's look-up rows in one record.

A look-up of a word reads its senses, their examples and sense-tied translations, its
pronunciations and its unsensed translations: about thirty scattered pages and five
statements. The builder also stores those rows per term as one JSON array, so the server
reads one record instead. The table is derived: it repeats what the normalised tables say.
Only terms in use (wordfreq Zipf >= MIN_ZIPF: at least once per million words) with at
least one sense have a document; a look-up of any other term, and every look-up in a
database without documents (meta key `term_docs` absent), reads the tables.

A document holds what a look-up with at most `SENSES` senses and a translations budget
below `TRANSLATIONS` can show (the tools' defaults are 10 and 20); a look-up asking for
more reads the tables. Layout (JSON, arrays only, each list in the order the server
returns it):

    [sense_count, senses, pronunciations, unsensed_translations]
    sense_count: how many senses the term has in all
    sense:       [id, external_id, gloss, tags, source_id, entry_id, pos, etymology, word,
                  synset_external_id, examples, translations]
                 the first SENSES in (entry, rank, id) order
    example:     [text, source_id]                                   (id order)
    translation: [target_language, text, norm, note, source_id, target_entry]
                 sense-tied ones per sense; duplicates of (language, norm) dropped;
                 in language turns (see `in_language_turns`); at most TRANSLATIONS
                 per list
    pronunciation: [entry_id, notation, value, variant, source_id]   (variant, notation, id)
    unsensed:    [target_language, text, norm, note, source_id, target_entry, id]
                 as translations, at most TRANSLATIONS

The caps hold for several terms merged as well: a merged list's first n rows never reach
past any one term's first n (merging only adds rows ahead of a row in its own language).

`target_entry` is a digit so that linking a build rewrites each document in place at the
same size: 1 the target word has its own entry in the release, 0 it has none, 2 unknown
(no lexical component for that language, or not linked yet).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any, TypeVar

__all__ = [
    "META_KEY",
    "MIN_ZIPF",
    "SENSES",
    "TARGET_UNKNOWN",
    "TRANSLATIONS",
    "VERSION",
    "in_language_turns",
]

META_KEY = "term_docs"
VERSION = "2"  # changes with the layout, the order or the caps below (2: language turns)
MIN_ZIPF = 3.0
SENSES = 10
TRANSLATIONS = 21  # a budget of 20, plus one row to tell that the list was cut
TARGET_UNKNOWN = 2  # the digit a document holds where the table column is NULL


_Row = TypeVar("_Row", bound=Sequence[Any])


def in_language_turns(rows: Sequence[_Row]) -> list[_Row]:
    """Translation rows (target language first, in language then id order, duplicates
    dropped) in turns: every language's first row, then every language's second row, and
    so on. A budget of n then takes the first n rows and every language gets its share,
    where language order gave the first languages all of it (`dog`: 16 German rows, no
    French)."""
    turn: dict[str, int] = {}
    keyed: list[tuple[int, str, _Row]] = []
    for row in rows:
        language = row[0]
        n = turn.get(language, 0)
        turn[language] = n + 1
        keyed.append((n, language, row))
    keyed.sort(key=_TURN_THEN_LANGUAGE)
    return [row for _, _, row in keyed]


_TURN_THEN_LANGUAGE = itemgetter(0, 1)
