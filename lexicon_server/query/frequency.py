"""How common a looked-up word is: its wordfreq Zipf value, a plain band, and (English)
its syllables.

The Zipf value is the form's own, as asked: the terms spelled so in the language's
lexical component, or for English a spelling the wordplay component knows (`ran`,
`houses`, which WordNet lists only as their lemmas). The bands (`BANDS`) read the scale
as wordfreq's documentation does: about 7 for 'the', 6 'have', 5 'work', 4 'fortune',
3 'redefine'; below 1.5 a word is seen about once in 30 million words or less.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lexicon_server.corpus.rows.terms import norm_zipf
from lexicon_server.corpus.rows.wordplay import spelling_frequency
from lexicon_server.corpus.wordplay_keys import fold
from lexicon_server.models import Frequency, FrequencyBand

if TYPE_CHECKING:
    import sqlite3

    from lexicon_server.corpus.reader import Corpus

__all__ = ["BANDS", "word_frequency"]

# (lowest Zipf, band), most common first.
BANDS: tuple[tuple[float, FrequencyBand], ...] = (
    (6.0, "very common"),
    (4.5, "common"),
    (3.0, "uncommon"),
    (1.5, "rare"),
    (0.0, "very rare"),
)


def word_frequency(
    corpus: Corpus, conn: sqlite3.Connection, norm: str, language: str
) -> Frequency | None:
    """The frequency of the form `norm` in `language` (None when no source counts it)."""
    zipf, syllables = norm_zipf(conn, norm), None
    if language == "en" and corpus.selection.availability("en", "wordplay") is None:
        spelled, syllables = spelling_frequency(corpus.db("en", "wordplay"), fold(norm))
        zipf = zipf if zipf is not None else spelled
    if zipf is None:
        return None
    band = next(name for lowest, name in BANDS if zipf >= lowest)
    return Frequency(zipf=round(zipf, 2), band=band, syllables=syllables)
