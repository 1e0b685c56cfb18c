"""wordfreq frequency lists (``small_<lang>.msgpack.gz`` / ``large_<lang>.msgpack.gz``).

The "cBpack" format, as wordfreq 3.x writes and reads it: a gzipped msgpack array whose
first element is the header ``{"format": "cB", "version": 1}`` and whose element ``i + 1``
is the alphabetically sorted list of words whose frequency rounds to ``-i`` centibels,
i.e. a frequency of ``10 ** (-i / 100)``. On the Zipf scale (log10 of occurrences per
billion words) that is ``9 - i / 100``, the same as wordfreq's ``cB_to_zipf``.

The file is decoded with a streaming msgpack unpacker, one word at a time, so memory stays
flat even for the ``large_*`` lists.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from pathlib import Path

import msgpack

from lexicon_server.builder.parsers._io import ParseError
from lexicon_server.builder.records import FrequencyRow

__all__ = ["bin_zipf", "iter_frequencies", "language_of"]

_NAME = re.compile(r"^(?:small|large|best|combined)_(?P<lang>[a-z]{2,3}(?:[-_][A-Za-z]+)?)\.")


def bin_zipf(index: int) -> float:
    """Zipf value of the words in bin ``index`` (``-index`` centibels), rounded like wordfreq."""
    return round((900 - index) / 100, 2)


def language_of(path: str | Path) -> str:
    """The language code in a wordfreq data file name, e.g. ``large_en.msgpack.gz`` -> ``en``."""
    match = _NAME.match(Path(path).name)
    if not match:
        raise ParseError(path, 0, "not a wordfreq list name like 'large_en.msgpack.gz'")
    return match["lang"]


def iter_frequencies(path: str | Path) -> Iterator[FrequencyRow]:
    """Yield every word with its Zipf value, most frequent first (wordfreq's order)."""
    with gzip.open(path, "rb") as raw:
        unpacker = msgpack.Unpacker(raw, raw=False)
        try:
            count = unpacker.read_array_header()
            header = unpacker.unpack()
        except (msgpack.exceptions.UnpackException, ValueError, OSError) as exc:
            raise ParseError(path, 0, f"not a msgpack cBpack file ({exc})") from exc
        if (
            not isinstance(header, dict)
            or header.get("format") != "cB"
            or header.get("version") != 1
        ):
            raise ParseError(path, 0, f"unexpected cBpack header {header!r}")
        for index in range(count - 1):
            zipf = bin_zipf(index)
            try:
                size = unpacker.read_array_header()
                for _ in range(size):
                    word = unpacker.unpack()
                    if not isinstance(word, str):
                        raise ParseError(path, index + 1, f"bin entry {word!r} is not a word")
                    yield FrequencyRow(word=word, zipf=zipf)
            except (msgpack.exceptions.UnpackException, ValueError, EOFError) as exc:
                if isinstance(exc, ParseError):
                    raise
                raise ParseError(path, index + 1, f"truncated or bad bin ({exc!r})") from exc
