"""A language's vector vocabulary as spellings, for `dictionary_semantic_neighbors` asked
with a spelling `pattern` (query/spelling_pattern.py): which rows are spelled so."""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING

from lexicon_server.corpus.rows.vocab import all_texts
from lexicon_server.query.spelling_pattern import Glob, spelling_form

if TYPE_CHECKING:
    import sqlite3

__all__ = ["MAX_SPELLED_ROWS", "SpelledVocabulary"]

# With a spelling pattern, the vocabulary words it matches are compared exactly instead of
# searching the index (which would have to over-fetch without bound for a rare spelling):
# at most this many per language, the most frequent (vocabulary rows are in frequency
# order). 5,000 rows of the starter's 50 dimensions are 0.5 MB read.
MAX_SPELLED_ROWS = 5_000


class SpelledVocabulary:
    """One language's vocabulary spellings as byte matrices, made on the first pattern
    search: each row's spelling form (`spelling_form`; rows without one are left out)
    left-aligned and right-aligned, zero-filled, so a pattern's first and last pieces and
    its length are compared for every row at once; only a pattern with pieces between
    two '*' then checks the rows that pass one by one."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        import numpy as np

        kept = [(row, form) for row, text in all_texts(conn) if (form := spelling_form(text))]
        width = max((len(form) for _, form in kept), default=0)
        self.rows = np.fromiter((row for row, _ in kept), dtype=np.int64, count=len(kept))
        self.forms = [form for _, form in kept]
        self.lengths = np.fromiter(map(len, self.forms), dtype=np.int64, count=len(kept))
        left = b"".join(form.encode().ljust(width, b"\0") for form in self.forms)
        right = b"".join(form.encode().rjust(width, b"\0") for form in self.forms)
        self.left = np.frombuffer(left, dtype=np.uint8).reshape(len(kept), width)
        self.right = np.frombuffer(right, dtype=np.uint8).reshape(len(kept), width)

    def matching(self, pattern: str, wanted: int) -> list[int]:
        """The first `wanted` rows spelled like `pattern`, ascending (most frequent first)."""
        import numpy as np

        pieces = pattern.split("*")
        fixed = sum(map(len, pieces))
        width = self.left.shape[1]
        if fixed > width:
            return []
        passed = self.lengths == fixed if len(pieces) == 1 else self.lengths >= fixed
        for piece, aligned in (
            (pieces[0], self.left[:, : len(pieces[0])]),
            (pieces[-1], self.right[:, width - len(pieces[-1]) :]),
        ):
            for at, letter in enumerate(piece):
                if letter != "?":
                    passed &= aligned[:, at] == ord(letter)
        found = np.flatnonzero(passed)
        if len(pieces) <= 2:
            return [int(row) for row in self.rows[found[:wanted]]]
        glob = Glob(pattern)
        middle = (int(n) for n in found if glob.matches(self.forms[int(n)]))
        return [int(self.rows[n]) for n in islice(middle, wanted)]
