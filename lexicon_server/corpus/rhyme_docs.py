"""The rhyme documents of a wordplay component: each rhyme part's best rhymes, resolved.

A rhyme query reads its word's pronunciations, then walks an index range row by row,
dropping repeated words and spellings (and, for near rhymes, words that also rhyme
perfectly). Each row costs a Python tuple; for the twenty rhymes a default query shows
that is most of the time. The builder stores the outcome of that walk per rhyme part as
one JSON array, so a query of a word with one rhyme part reads one record instead. Two
derived tables hold them; both repeat what the normalised tables say:

- `spelling_prons`: every pronunciation under its word's folded spelling (NFKC +
  casefold), so a query finds its pronunciations with one index range;
- `rhyme_docs`: per rhyme part, a `perfect` and a `near` document.

A document lists the first `CANDIDATES` candidate words in rank order, as a query with
no word of its own would see them (one spelling per fold), and says whether more exist:

    [more, words, candidates]
    more:               1 if candidates past these exist, else 0
    words:              how many of the candidates are dictionary words (`words.is_word`;
                        they come first, names and rare spellings after them)
    perfect candidate:  [text, syllables, zipf, phones, spelling_source, pronunciation_source]
    near candidate:     [text, syllables, zipf, phones, edit, spelling_source,
                         pronunciation_source, rhyme, sound_class]

(a perfect candidate's edit is 0 and its rhyme part the document's own). Near candidates
are in the walk's order: dictionary words first, then by sound class, content words
before function words, a changed consonant before an added or dropped one, and rank
(version 3; documents of older versions, ranked otherwise, are ignored and the tables
walked).

A query drops its own spelling (at most one candidate), so a document answers any limit
below `CANDIDATES - 1`, and any limit at all when it holds every candidate (most rhyme
parts have few words). Larger limits, syllable filters, spelling patterns (unless the
document holds every candidate) and words with several rhyme parts read the tables, as
does every query on a database without documents (meta key `rhyme_docs` absent or of
another version).
"""

from __future__ import annotations

__all__ = ["CANDIDATES", "META_KEY", "VERSION"]

META_KEY = "rhyme_docs"
VERSION = "3"  # changes with the layout, the order or CANDIDATES
CANDIDATES = 24  # a limit of 22 at most: the default 20 with room for the query's own word
