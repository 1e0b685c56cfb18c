"""CMU Pronouncing Dictionary (``cmudict.dict``) -> :class:`PronunciationRow`.

One entry per line: ``word PH1 PH2 ...``, alternative pronunciations as ``word(2)``,
``word(3)``, and an optional ``# comment`` at the end of the line. Words are lowercased so
that the older upper-case releases (``cmudict-0.7b``, ``;;;`` comment lines) read the same.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from lexicon_server.builder.parsers._io import ParseError, open_text
from lexicon_server.builder.records import PronunciationRow

__all__ = ["iter_pronunciations"]

_VARIANT = re.compile(r"^(?P<word>.+)\((?P<number>\d+)\)$")
# The whole phone string in one match: a regex per phone costs more than the rest of the line.
_PHONES = re.compile(r"[A-Z]{1,2}[012]?(?:\s+[A-Z]{1,2}[012]?)*")


def iter_pronunciations(path: str | Path, encoding: str = "utf-8") -> Iterator[PronunciationRow]:
    """Yield one row per pronunciation line, in file order.

    ``variant`` counts the pronunciations of a word in file order (0, 1, 2, ...) rather than
    trusting the suffix, because 0.7b numbers the second one ``(1)`` and 1.x ``(2)``; both
    releases keep a word's lines together.
    """
    previous, variant = "", 0
    with open_text(path, encoding) as handle:
        for line_no, line in enumerate(handle, 1):
            body = line.split("#", 1)[0].strip() if "#" in line else line.strip()
            if not body or body.startswith(";;;"):
                continue
            word, _, rest = body.partition(" ")
            rest = rest.strip()
            if word[-1] == ")":
                numbered = _VARIANT.match(word)
                if numbered:
                    word = numbered["word"]
            word = word.lower()
            variant = variant + 1 if word == previous else 0
            previous = word
            if not _PHONES.fullmatch(rest):
                raise ParseError(path, line_no, f"no ARPAbet phones after {word!r}")
            yield PronunciationRow(word=word, variant=variant, phones=tuple(rest.split()))
