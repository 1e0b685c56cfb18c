"""Which rhyme and wordplay results are dictionary words (`words.is_word`)."""

from __future__ import annotations

from typing import Any

from lexicon_server.corpus.reader import Corpus


def dictionary_first(corpus: Corpus, words: list[str]) -> dict[str, int]:
    """`words.is_word` of each word (1: a dictionary word, ranked before names and rare
    spellings since issue 29; 1 for all on a database without the column)."""
    conn = corpus.db("en", "wordplay")
    columns = {row[1] for row in conn.execute("PRAGMA table_info(words)")}
    if "is_word" not in columns:
        return dict.fromkeys(words, 1)
    marks = "(" + ",".join("?" * len(words)) + ")"
    rows = conn.execute(f"SELECT text, is_word FROM words WHERE text IN {marks}", words)
    return dict(rows.fetchall())


_CLASSES = ("vowel_kept", "unstressed_vowel_changed", "stressed_vowel_changed")
_EDITS = {"substitution": 0, "insertion": 1, "deletion": 2}


def near_rank(rhyme: Any, is_word: bool) -> tuple[bool, int, bool, int, float]:
    """The order near rhymes come in (issue 29), written apart from the walk: dictionary
    words first, then by sound class, content words before function words, a changed
    token before an added and a dropped one, then the most frequent."""
    from lexicon_server.corpus.function_words import FUNCTION_WORDS

    return (
        not is_word,
        _CLASSES.index(str(rhyme.sound)),
        rhyme.word.lower() in FUNCTION_WORDS,
        _EDITS[rhyme.edit],
        -rhyme.zipf,
    )
