"""The `sounds_like` wordplay kind: words whose pronunciation is close to the text's.

The text's pronunciations are CMUdict's when it lists the word (every one, up to eight),
else guessed by the letter-to-sound rules of `wordplay_letter_sounds` (`fone` ->
F OW N). Sounds are compared with stress dropped, one symbol per phoneme
(lexicon_server/corpus/play_keys.py). Candidates are the pronunciations that share a
sound key with the text's: the same code, or the code with one phoneme deleted on either
side. That finds every pronunciation within one phoneme edit (inserted, deleted or
substituted) and those two edits away that differ by one insertion and one deletion;
each is then ranked by its exact phoneme edit distance to the closest of the text's
pronunciations, then by frequency (word ids are ranks). The text's own spelling is left
out; each word appears once, with its closest pronunciation.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Literal

from lexicon_server.corpus import play_keys
from lexicon_server.corpus.rows.facts import meta_value
from lexicon_server.corpus.rows.wordplay import distinct_phones, sound_neighbours
from lexicon_server.corpus.wordplay_keys import fold
from lexicon_server.errors import InvalidArgument
from lexicon_server.query.rhymes import query_words
from lexicon_server.query.wordplay_letter_sounds import letter_sounds
from lexicon_server.query.wordplay_result import Answer, Data, KindCall, result

__all__ = ["MAX_QUERY_PRONUNCIATIONS", "SOUNDS_ALLOWED", "sounds_like"]

MAX_QUERY_PRONUNCIATIONS = 8
SOUNDS_ALLOWED = (
    "a word CMUdict lists, or one spelling of letters a-z (apostrophes and hyphens "
    "between letters allowed) for kind='sounds_like', e.g. 'fone' or 'nite'"
)
_SPELLING = re.compile(r"[a-z]+(?:['-][a-z]+)*")


def _query_sounds(
    conn: sqlite3.Connection, text: str
) -> tuple[list[str], Literal["cmudict", "letter_to_sound"], list[str]]:
    """(the text's pronunciations, where they come from, the headwords it resolved to)."""
    found, folded = query_words(conn, text)
    phones = distinct_phones(conn, [row[0] for row in found]) if found else []
    if phones:
        return phones[:MAX_QUERY_PRONUNCIATIONS], "cmudict", [row[1] for row in found]
    if not _SPELLING.fullmatch(folded):
        raise InvalidArgument("text", SOUNDS_ALLOWED, text)
    guessed = letter_sounds(re.sub(r"[^a-z]", "", folded))
    return ([" ".join(guessed)] if guessed else []), "letter_to_sound", []


def _ranked(
    rows: list[tuple[object, ...]], codes: list[str], folded: str, words_end: int
) -> list[tuple[int, int, tuple[object, ...]]]:
    """(distance, word id, row) per word: dictionary words (ids up to `words_end`) first,
    then closest, then most frequent."""
    best: dict[str, tuple[int, int, tuple[object, ...]]] = {}
    for row in rows:
        _pron, phones, word_id, text, *_ = row
        key = fold(str(text))
        if key == folded:
            continue
        code = play_keys.sound_code(str(phones))
        distance = min(play_keys.phoneme_distance(query, code) for query in codes)
        entry = (distance, int(str(word_id)), row)
        if key not in best or entry[:2] < best[key][:2]:
            best[key] = entry
    return sorted(best.values(), key=lambda entry: (entry[1] > words_end, *entry[:2]))


def sounds_like(call: KindCall, text: str, vocabulary: str) -> Data:
    """The `sounds_like` answer: closest sounding words first."""
    if meta_value(call.conn, play_keys.META_KEY) != play_keys.VERSION:
        raise InvalidArgument(
            "kind",
            "a kind this wordplay component can answer: 'sounds_like' needs the sound keys "
            "of a component written by a newer builder (install a newer release)",
            "sounds_like",
        )
    phones, origin, resolved = _query_sounds(call.conn, text)
    codes = [play_keys.sound_code(p) for p in phones]
    keys = sorted({key for code in codes for key in {code, *play_keys.deletions(code)}})
    rows = sound_neighbours(call.conn, keys, False) if keys else []
    if vocabulary == "dictionary":
        rows = [row for row in rows if int(str(row[2])) <= call.index.words_end]
    ranked = _ranked(rows, codes, fold(text), call.index.words_end)
    found: list[Data] = []
    for distance, _word_id, row in ranked[: call.limit]:
        _pron, cand_phones, _id, word, zipf, spelling, pronunciation = row
        found.append(
            {
                "word": word,
                "phones": cand_phones,
                "distance": distance,
                "zipf": zipf,
                "spelling_source": call.cited.key(call.index.table, int(str(spelling))),
                "pronunciation_source": call.cited.key(call.index.table, int(str(pronunciation))),
            }
        )
    cut = [] if phones else ["no letter of the text could be given a sound"]
    answer = Answer(len(found), len(ranked) > call.limit, resolved, [], cut)
    return result(
        call.base,
        answer,
        call.cited,
        vocabulary=vocabulary,
        phones_from=origin,
        query_phones=phones,
        results=found,
    )
